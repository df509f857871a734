/**
 * Alert rules judged over the events' own times (eventTime, in whole seconds), for the whole
 * account and for each email (by its emailMessageId): the rate of a rule's event among the sends
 * in the rolling window that ends at each moment something enters or leaves it. A rule fires when
 * the rate goes over its threshold with at least its floor of sends in the window, and resolves
 * when it is back at or under it, the floor met; under the floor there is no verdict, and the
 * last one stands. The same events give the same transitions whatever order they were added in,
 * as every event of one second is counted before that second is judged.
 */
import { isSendEvent } from '../../platform/webhooks/event-names.js';
import { parseWebhookEvent } from '../../webhooks/events.js';
import { type AlertRule, exceeds } from './alert-rules.js';

/** What an alert reads of an event. */
export interface AlertEvent {
  eventName: string;
  /** Seconds since the epoch. */
  eventTime: number;
  /** The email it is about: its emailMessageId and subject, for events about one. */
  email?: { id: string; subject: string } | undefined;
}

export interface AlertTransition {
  rule: string;
  /** The email the transition is of; null for the whole account. */
  email: { id: string; subject: string } | null;
  state: 'fired' | 'resolved';
  /** When the window that decided it ended. */
  at: string;
  window: { from: string; to: string };
  sends: number;
  events: number;
  rate: number;
  threshold: number;
}

/** The times of a sorted list within (from, to]. */
function countWithin(times: number[], from: number, to: number): number {
  return upperBound(times, to) - upperBound(times, from);
}

/** The index of the first time after `value`. */
function upperBound(times: number[], value: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function insertSorted(times: number[], value: number): void {
  if (times.length === 0 || times.at(-1)! <= value) times.push(value);
  else times.splice(upperBound(times, value), 0, value);
}

/** One rule over one scope (the account, or one email): its sends and events, and its last verdict. */
class RollingRate {
  readonly sends: number[] = [];
  readonly hits: number[] = [];
  fired = false;
  /** The last second judged. */
  judged = Number.NEGATIVE_INFINITY;
  /** The most sends the window held at a moment judged, the floor met or not. */
  mostSends = 0;

  constructor(
    readonly rule: AlertRule,
    readonly email: { id: string; subject: string } | null,
  ) {}

  /** Judges each second in (judged, until] at which an event entered or left the window; the transitions. */
  advance(until: number): AlertTransition[] {
    const windowSeconds = this.rule.windowMs / 1000;
    const moments = new Set<number>();
    // Those that entered since the last second judged, and those that left: both ranges of a sorted list.
    for (const times of [this.sends, this.hits]) {
      for (let index = upperBound(times, this.judged); index < upperBound(times, until); index++) moments.add(times[index]!);
      const leaving = upperBound(times, until - windowSeconds);
      for (let index = upperBound(times, this.judged - windowSeconds); index < leaving; index++) moments.add(times[index]! + windowSeconds);
    }
    const transitions: AlertTransition[] = [];
    for (const at of [...moments].sort((a, b) => a - b)) {
      const transition = this.judge(at, windowSeconds);
      if (transition !== undefined) transitions.push(transition);
    }
    if (until > this.judged) this.judged = until;
    // What has left the window for good is never counted again.
    for (const times of [this.sends, this.hits]) times.splice(0, upperBound(times, this.judged - windowSeconds));
    return transitions;
  }

  private judge(at: number, windowSeconds: number): AlertTransition | undefined {
    const from = at - windowSeconds;
    const sends = countWithin(this.sends, from, at);
    this.mostSends = Math.max(this.mostSends, sends);
    if (sends < this.rule.minSends || sends === 0) return undefined;
    const events = countWithin(this.hits, from, at);
    const rate = events / sends;
    const over = exceeds(this.rule, events, sends);
    if (over === this.fired) return undefined;
    this.fired = over;
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    return {
      rule: this.rule.text,
      email: this.email,
      state: over ? 'fired' : 'resolved',
      at: iso(at),
      window: { from: iso(from), to: iso(at) },
      sends,
      events,
      rate,
      threshold: this.rule.threshold,
    };
  }

  get idle(): boolean {
    return this.sends.length === 0 && this.hits.length === 0 && !this.fired;
  }
}

/** The rules over the account and each email, fed events as they come and judged up to a time. */
export class AlertWatch {
  private readonly overall: RollingRate[];
  private readonly byEmail = new Map<string, RollingRate[]>();

  constructor(private readonly rules: readonly AlertRule[]) {
    this.overall = rules.map((rule) => new RollingRate(rule, null));
  }

  add(event: AlertEvent): void {
    const scopes = [this.overall];
    if (event.email !== undefined) {
      let rates = this.byEmail.get(event.email.id);
      if (rates === undefined) {
        const email = { id: event.email.id, subject: event.email.subject };
        rates = this.rules.map((rule) => new RollingRate(rule, email));
        this.byEmail.set(event.email.id, rates);
      }
      scopes.push(rates);
    }
    const send = isSendEvent(event.eventName);
    for (const rates of scopes) {
      for (const rate of rates) {
        if (send) insertSorted(rate.sends, event.eventTime);
        else if (event.eventName === rate.rule.eventName) insertSorted(rate.hits, event.eventTime);
      }
    }
  }

  /** For each rule, over all email: the most sends its window held, and whether that met its floor. */
  floors(): AlertFloor[] {
    return this.overall.map(({ rule, mostSends }) => ({
      rule: rule.text,
      minSends: rule.minSends,
      mostSends,
      judged: mostSends >= rule.minSends && mostSends > 0,
    }));
  }

  /** The transitions of every second up to `until` not judged yet, in time order, the account's before an email's. */
  advance(until: number): AlertTransition[] {
    const transitions = this.overall.flatMap((rate) => rate.advance(until));
    for (const [id, rates] of this.byEmail) {
      transitions.push(...rates.flatMap((rate) => rate.advance(until)));
      if (rates.every((rate) => rate.idle)) this.byEmail.delete(id);
    }
    return transitions.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }
}

/** Whether a rule could judge at all: the most sends its window held, for all email, against its floor. */
export interface AlertFloor {
  rule: string;
  minSends: number;
  mostSends: number;
  /** A verdict was possible: the window held the floor of sends at some moment. */
  judged: boolean;
}

/** Every transition of the rules over these events, up to `until` (seconds), and each rule's floor as met or not. */
export function judgeAlerts(
  rules: readonly AlertRule[],
  events: Iterable<AlertEvent>,
  until: number,
): { transitions: AlertTransition[]; floors: AlertFloor[] } {
  const watch = new AlertWatch(rules);
  for (const event of events) watch.add(event);
  const transitions = watch.advance(until);
  return { transitions, floors: watch.floors() };
}

/**
 * What an alert reads of a delivery's body, read as parseWebhookEvent reads it: none for a body
 * that is no event, and none for an event this loopsctl does not know (a new type, a newer schema
 * version, or one that does not fit its type), as no rule can name it and its time is not sure.
 */
export function alertEventOf(body: string): AlertEvent | undefined {
  let event: ReturnType<typeof parseWebhookEvent>;
  try {
    event = parseWebhookEvent(body);
  } catch {
    return undefined;
  }
  if (!event.known) return undefined;
  const email = 'email' in event ? event.email : undefined;
  return {
    eventName: event.eventName,
    eventTime: event.eventTime,
    email: email === undefined ? undefined : { id: email.emailMessageId, subject: email.subject },
  };
}
