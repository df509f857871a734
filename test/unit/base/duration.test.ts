/** One duration grammar: what the sandbox's clock takes, `workflow test --for` and a plan's expiry take too. */
import { describe, expect, it } from 'vitest';
import { parseDurationMs, readDuration } from '../../../src/base/duration.js';
import { parseDuration } from '../../../src/emulator/clock.js';

const DAY = 86_400_000;
const YEAR = 365 * DAY;

describe('readDuration', () => {
  it('reads every unit, in any combination, decimals too', () => {
    expect(readDuration('90s', YEAR)).toEqual({ ms: 90_000 });
    expect(readDuration('1h30m', YEAR)).toEqual({ ms: 5_400_000 });
    expect(readDuration('250ms', YEAR)).toEqual({ ms: 250 });
    expect(readDuration('1.5h', YEAR)).toEqual({ ms: 5_400_000 });
    expect(readDuration('2w1d', YEAR)).toEqual({ ms: 15 * DAY });
    expect(readDuration('1y', YEAR)).toEqual({ ms: YEAR });
    expect(readDuration(' 3d ', YEAR)).toEqual({ ms: 3 * DAY });
  });

  it('names what is wrong: malformed, negative, zero or past its bound', () => {
    expect(readDuration('3 days', YEAR)).toEqual({ problem: 'malformed' });
    expect(readDuration('', YEAR)).toEqual({ problem: 'malformed' });
    expect(readDuration('-3d', YEAR)).toEqual({ problem: 'negative' });
    expect(readDuration('0s', YEAR)).toEqual({ problem: 'zero' });
    expect(readDuration('1y1s', YEAR)).toEqual({ problem: 'too-long' });
    expect(parseDurationMs('31d', 30 * DAY)).toBeUndefined();
    expect(parseDurationMs('30d', 30 * DAY)).toBe(30 * DAY);
  });

  it('agrees with the sandbox clock on every text within both bounds', () => {
    for (const text of ['90s', '1h30m', '250ms', '1.5h', '2w1d', '1y', '3 days', '-3d', '0s', '1y1s']) {
      const read = readDuration(text, YEAR);
      let clock: number | string;
      try {
        clock = parseDuration(text, 'advance');
      } catch {
        clock = 'refused';
      }
      // 1y1s is within the clock's 400 days but past the year a trial runs: the bounds differ, the grammar does not.
      if (text === '1y1s') expect(clock).toBe(YEAR + 1_000);
      else expect(clock).toEqual('ms' in read ? read.ms : 'refused');
    }
  });
});
