import { describe, expect, it } from 'vitest';
import { monotonicMs } from '../../../src/base/monotonic.js';

/** Rounding in the sums of two float clocks, far below what a wrong unit or origin would make. */
const ROUNDING_MS = 0.001;

describe('monotonicMs', () => {
  it('counts milliseconds, as performance.now() does, and never goes back', () => {
    // Each reading of this clock is bracketed by two of the other: however long the process waits
    // between two readings (a loaded machine), the span this clock measures lies between the
    // spans of the brackets, with no allowance for time.
    const beforeStart = performance.now();
    const start = monotonicMs();
    const afterStart = performance.now();
    let last = start;
    // Read until the other clock has moved on by 3 ms.
    while (performance.now() - afterStart < 3) {
      const now = monotonicMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    const beforeEnd = performance.now();
    const end = monotonicMs();
    const afterEnd = performance.now();
    expect(end - start).toBeGreaterThanOrEqual(beforeEnd - afterStart - ROUNDING_MS);
    expect(end - start).toBeLessThanOrEqual(afterEnd - beforeStart + ROUNDING_MS);
    expect(beforeEnd - afterStart).toBeGreaterThanOrEqual(3);
  });

  it('reads the whole of process.hrtime, seconds and nanoseconds: a span across a second counts it whole', () => {
    // Within 3 ms the seconds rarely change; bracketed by the same clock read as one number, the
    // reading shows both parts on the millisecond scale.
    const before = Number(process.hrtime.bigint()) / 1e6;
    const reading = monotonicMs();
    const after = Number(process.hrtime.bigint()) / 1e6;
    expect(reading).toBeGreaterThanOrEqual(before - ROUNDING_MS);
    expect(reading).toBeLessThanOrEqual(after + ROUNDING_MS);
  });
});
