/**
 * The sandbox's own clock. It runs with the system's (plus any distance it was moved forward), or
 * stands still at a time (`--clock frozen`, for tests that want exact times); either way it only
 * ever moves forward, so a test can walk a workflow through its timers: `advance 3d` releases the
 * contacts whose wait ends within those three days. Everything the sandbox dates reads it.
 */
import { DURATION_UNITS, readDuration } from '../base/duration.js';
import { madeOnUse, z } from '../base/shapes.js';
import { badRequest, lazily, type StateCore, seedTime, slice } from './module.js';

/** Made on first use: a state that has never moved or stopped its clock keeps none to check. */
const clockSetting = madeOnUse(() =>
  z.object({
    /** Where the clock stands, when it stands still; null while it runs with the system's. */
    frozenAt: z.nullable(z.string()),
    /** How far ahead of the system's the running clock is, in milliseconds. */
    offsetMs: z.number().check(z.nonnegative()),
  }),
);
export type ClockSetting = z.infer<typeof clockSetting>;

export const clock = slice('clock', clockSetting, () => ({ frozenAt: null, offsetMs: 0 }));

/** How the clock starts: with the system's, or stopped at the seed's date. */
export const CLOCK_MODES = ['system', 'frozen'] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

/**
 * The seed's date, where a frozen clock starts: the day after the demo team's last record. Made on
 * first use: a Date's first formatting loads the time-zone data (0.15 ms), which a read never needs.
 */
export const seedDate = lazily(() => seedTime(1_440));

/** The most one move may take the clock forward: a year and a bit, enough for any workflow's timers. */
export const MAX_ADVANCE_MS = 400 * 86_400_000;

/**
 * A duration such as `3d`, `1h30m` or `90s` in milliseconds; a clear 400 naming `field` for a
 * malformed, negative, zero or too long one.
 */
export function parseDuration(value: unknown, field: string): number {
  if (typeof value !== 'string') throw badRequest(`${field} must be a duration such as "3d" or "1h30m", not ${JSON.stringify(value)}`);
  const read = readDuration(value, MAX_ADVANCE_MS);
  if ('ms' in read) return read.ms;
  throw badRequest(
    {
      negative: `${field} must move the clock forward: "${value}" is negative, and the sandbox's clock never goes back`,
      malformed: `${field} must be a duration such as "3d", "1h30m" or "90s" (units: ${DURATION_UNITS}), not "${value}"`,
      zero: `${field} must be longer than zero, not "${value}"`,
      'too-long': `${field} is at most 400 days at once, not "${value}": move the clock in several steps`,
    }[read.problem],
  );
}

/** The time on the sandbox's clock, `system` being the system's. */
export function clockTime(state: StateCore, system: Date): Date {
  const setting = clock.of(state);
  return setting.frozenAt === null ? new Date(system.getTime() + setting.offsetMs) : new Date(setting.frozenAt);
}

/** Stops the clock at a time (the seed's date when none is given). */
export function freezeClock(state: StateCore, at: string = seedDate()): void {
  const setting = clock.of(state);
  setting.frozenAt = at;
  setting.offsetMs = 0;
}

/** Moves the clock forward by `ms`; returns the new time. */
export function advanceClock(state: StateCore, system: Date, ms: number): Date {
  return moveClockTo(state, system, new Date(clockTime(state, system).getTime() + ms), 'advance');
}

/**
 * Moves the clock to a time (an ISO 8601 string), which must not be before the time it shows, nor
 * more than 400 days after it; returns the new time.
 */
export function setClock(state: StateCore, system: Date, to: unknown): Date {
  if (typeof to !== 'string' || !/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(to) || Number.isNaN(Date.parse(to)))
    throw badRequest(`to must be an ISO 8601 time such as "2025-01-31T09:00:00Z", not ${JSON.stringify(to)}`);
  return moveClockTo(state, system, new Date(to), 'to');
}

function moveClockTo(state: StateCore, system: Date, target: Date, field: string): Date {
  const now = clockTime(state, system);
  if (target.getTime() < now.getTime())
    throw badRequest(`${field} must not move the clock back: the sandbox's time is ${now.toISOString()}, and ${target.toISOString()} is before it`);
  if (target.getTime() - now.getTime() > MAX_ADVANCE_MS) throw badRequest(`${field} moves the clock at most 400 days at once: move it in several steps`);
  const setting = clock.of(state);
  if (setting.frozenAt !== null) setting.frozenAt = target.toISOString();
  else setting.offsetMs = target.getTime() - system.getTime();
  return target;
}
