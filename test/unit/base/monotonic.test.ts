import { describe, expect, it } from 'vitest';
import { monotonicMs } from '../../../src/base/monotonic.js';

describe('monotonicMs', () => {
  it('counts milliseconds, as performance.now() does, and never goes back', () => {
    const start = monotonicMs();
    const startPerformance = performance.now();
    let last = start;
    // Read until the other clock has moved on by 3 ms: this one has moved as far, in milliseconds.
    while (performance.now() - startPerformance < 3) {
      const now = monotonicMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    const elapsed = monotonicMs() - start;
    expect(elapsed).toBeGreaterThanOrEqual(2.9);
    expect(elapsed).toBeLessThan(performance.now() - startPerformance + 0.1);
  });
});
