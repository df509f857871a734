/**
 * A duration as a person writes one: 90s, 30m, 1h30m, 2d, 1w, 1y, 1.5h. One grammar for every
 * place loopsctl reads one (a plan's expiry, `workflow test --for`, the sandbox's clock), each with
 * its own upper bound, so that what one command takes another does not refuse.
 */

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, y: 365 * 86_400_000 } as const;
type Unit = keyof typeof UNIT_MS;

/** The units, as the messages that refuse a duration name them. */
export const DURATION_UNITS = 'ms, s, m, h, d, w, y';
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w|y)/g;
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w|y))+$/;

/** What is wrong with a text that is not a duration within its bound. */
export type DurationProblem = 'malformed' | 'negative' | 'zero' | 'too-long';

/** The duration in whole milliseconds, or what keeps the text from being one of at most `maxMs`. */
export function readDuration(text: string, maxMs: number): { ms: number } | { problem: DurationProblem } {
  const trimmed = text.trim();
  if (trimmed.startsWith('-') && WHOLE.test(trimmed.slice(1))) return { problem: 'negative' };
  if (!WHOLE.test(trimmed)) return { problem: 'malformed' };
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(PART)) total += Number(amount) * UNIT_MS[unit as Unit];
  const ms = Math.round(total);
  if (ms <= 0) return { problem: 'zero' };
  if (ms > maxMs || !Number.isSafeInteger(ms)) return { problem: 'too-long' };
  return { ms };
}

/** The duration in milliseconds, or undefined for text that is not one within `maxMs`. */
export function parseDurationMs(text: string, maxMs: number): number | undefined {
  const read = readDuration(text, maxMs);
  return 'ms' in read ? read.ms : undefined;
}

/**
 * A wait that a variable of the environment sets in seconds: its milliseconds where the value is a
 * positive number, `fallbackMs` otherwise, for a wait where nothing could refuse a setting (after a
 * command's output, under a Tab).
 */
export function secondsSetting(value: string | undefined, fallbackMs: number): number {
  const seconds = Number(value?.trim() || Number.NaN);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallbackMs;
}
