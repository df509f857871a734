/**
 * The instants `--since` and `--until` take, for `loopsctl log` and the `deliveries` commands: in a
 * module of its own, so that the deliveries' filters load none of the change journal's reading.
 */
import { UsageError } from './errors.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * An instant from a date (its start for --since, its end for --until, in UTC), a date and time, or
 * a span back from now (`7d`, `12h`, `30m`, `2w`).
 */
export function instantOf(text: string, flag: string, now: Date, edge: 'start' | 'end'): number {
  const span = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  if (span !== null) return now.getTime() - Number(span[1]) * UNITS[span[2]!]!;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`);
    if (!Number.isNaN(start) && new Date(start).toISOString().startsWith(text)) return edge === 'start' ? start : start + UNITS.d!;
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return at;
  }
  throw new UsageError(
    `${flag} takes a date (2026-11-01), a date and time (2026-11-01T09:00:00Z), or a span back from now (7d, 12h, 30m), not ${JSON.stringify(text)}`,
  );
}
