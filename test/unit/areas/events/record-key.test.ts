import { describe, expect, it } from 'vitest';
import { recordKey } from '../../../../src/areas/events/commands.js';

describe("an events import's Idempotency-Key", () => {
  it('is the one every earlier version made for the same run and line, so a resumed import sends nothing twice', () => {
    // The first 40 hex digits of SHA-256("run-1\n" + the line).
    expect(recordKey('run-1', '{"email":"ada@example.com","eventName":"trial_started"}')).toBe('loopsctl-d68683dec4c6f4bad120cc5de4023b1dabb220e4');
  });

  it('differs for another run or another line', () => {
    const line = '{"email":"ada@example.com","eventName":"trial_started"}';
    expect(recordKey('run-2', line)).not.toBe(recordKey('run-1', line));
    expect(recordKey('run-1', `${line} `)).not.toBe(recordKey('run-1', line));
  });
});
