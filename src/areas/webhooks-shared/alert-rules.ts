/**
 * An alert rule as `--alert` takes it: `<event type>><rate>%/<window>`, such as
 * `email.hardBounced>5%/1h` or `email.spamReported>0.1%/24h`. The rate is of the event's type among
 * the sends (`*.email.sent`) inside a rolling window, and no verdict is given while the window holds
 * fewer sends than the rule's floor.
 */

import { readDuration } from '../../base/duration.js';
import { UsageError } from '../../base/errors.js';
import { sanitize } from '../../base/sanitize.js';
import { closeMatches } from '../../base/suggest.js';
import { WEBHOOK_EVENT_NAMES } from '../../platform/webhooks/event-names.js';

export interface AlertRule {
  /** As the person wrote it, trimmed. */
  text: string;
  eventName: string;
  /** The rate above which it fires, as a fraction (5% is 0.05). */
  threshold: number;
  /** The rate in percent as written (`0.3`), which exceeds() compares in whole numbers. */
  percent: string;
  windowMs: number;
  /** The fewest sends in the window that a verdict needs. */
  minSends: number;
}

/**
 * The floors below which a rate says nothing, by default: a provider that suspended a sender over
 * 1 bounce in 13 sends then required 200 sends before judging bounces, 1,000 before complaints.
 */
export const DEFAULT_MIN_SENDS = { bounce: 200, complaint: 1_000 } as const;

/** The event types a rate of sends can be taken of: what happens to an email after it is sent. */
const RATED_EVENTS = WEBHOOK_EVENT_NAMES.filter((name) => name.startsWith('email.'));

/** The longest window: a month of sends is as far as a rolling rate is worth keeping. */
const MAX_WINDOW_MS = 31 * 86_400_000;

export function defaultMinSends(eventName: string): number {
  return eventName === 'email.spamReported' ? DEFAULT_MIN_SENDS.complaint : DEFAULT_MIN_SENDS.bounce;
}

/** A rule that does not parse, refused with the place (a character count from 1) and what was expected there. */
function refused(text: string, at: number, expected: string, hint?: string): UsageError {
  return new UsageError(`--alert ${sanitize(text)}: ${expected}, at character ${at + 1}`, {
    hint: hint ?? 'write a rule as <event type>><rate>%/<window>, such as email.hardBounced>5%/1h',
  });
}

/** Parses one `--alert`; `minSends` (from --min-sends) replaces the event's default floor. */
export function parseAlertRule(raw: string, minSends?: number): AlertRule {
  const text = raw.trim();
  const gt = text.indexOf('>');
  if (gt < 0) return fail(text, text.length, 'expected ">" and a rate after the event type');
  const eventName = text.slice(0, gt).trim();
  if (!RATED_EVENTS.includes(eventName as (typeof RATED_EVENTS)[number])) {
    const near = closeMatches(eventName, RATED_EVENTS, 3);
    throw refused(
      text,
      0,
      eventName === '' ? 'expected an event type' : `${eventName} is not an event type whose rate among sends can be taken`,
      near.length > 0 ? `did you mean ${near.join(', ')}?` : `one of ${RATED_EVENTS.join(', ')}`,
    );
  }
  const rate = /^\s*(\d+(?:\.\d+)?)\s*/.exec(text.slice(gt + 1));
  if (rate === null) return fail(text, gt + 1, 'expected a rate in percent, such as 5% or 0.1%');
  const percent = gt + 1 + rate[0].length;
  if (text[percent] !== '%') return fail(text, percent, 'expected "%" after the rate');
  const threshold = Number(rate[1]) / 100;
  if (threshold >= 1) return fail(text, gt + 1, 'expected a rate under 100%');
  let slash = percent + 1;
  while (text[slash] === ' ') slash += 1;
  if (text[slash] !== '/') return fail(text, slash, 'expected "/" and a window after the rate, such as /1h');
  const windowText = text.slice(slash + 1);
  const window = readDuration(windowText, MAX_WINDOW_MS);
  if ('problem' in window) {
    const expected = window.problem === 'too-long' ? 'expected a window of at most 31d' : 'expected a window such as 30m, 1h or 24h';
    return fail(text, slash + 1, expected);
  }
  // Event times are whole seconds.
  if (window.ms % 1000 !== 0) return fail(text, slash + 1, 'expected a window of whole seconds');
  return { text, eventName, threshold, percent: rate[1]!, windowMs: window.ms, minSends: minSends ?? defaultMinSends(eventName) };
}

/**
 * Whether `events` among `sends` are more than the rule's rate: strictly, so that a rate at its
 * threshold does not fire. Compared in whole numbers: as fractions, 7 of 1,000 (0.007) would be
 * over 0.7% (0.7 / 100 is 0.006999999999999999).
 */
export function exceeds(rule: AlertRule, events: number, sends: number): boolean {
  const [whole, fraction = ''] = rule.percent.split('.');
  return BigInt(events) * 100n * 10n ** BigInt(fraction.length) > BigInt(`${whole}${fraction}`) * BigInt(sends);
}

function fail(text: string, at: number, expected: string): never {
  throw refused(text, at, expected);
}

/** A rate as the lines show it: 5%, 0.1%, 12.34%. */
export function percentText(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}
