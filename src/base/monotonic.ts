/**
 * Milliseconds on a clock that only moves forward, for paces and durations. As performance.now(),
 * but from process.hrtime: the `performance` global makes Node load its perf_hooks modules, half
 * a millisecond of a start that only reads the clock.
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
