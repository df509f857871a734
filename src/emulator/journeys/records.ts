/**
 * Journeys: each contact's run through a workflow, step by step, as the sandbox keeps them, and the
 * index of those waiting on a timer, kept in the order they are due, so that a request (or a move
 * of the clock) finds the ones to release without reading the others.
 */
import { z } from '../../base/shapes.js';
import { slice, type StateCore } from '../module.js';

const step = z.object({
  nodeId: z.string(),
  typeName: z.string(),
  /** On the sandbox's clock. */
  at: z.string(),
  /** What happened: entered, waiting, released, matched, filtered-out, branched, variant, sent, skipped, held, exited. */
  outcome: z.string(),
  /** Why, in words: the trigger that fired, the filter that matched, the wait and until when. */
  why: z.string(),
  /** The email a send-email step sent: its subject, as the contact read it, and its entry in the outbox. */
  subject: z.string().optional(),
  /** A timer's waiting step: when its wait ends, on the sandbox's clock (the time `why` names). */
  until: z.string().optional(),
});
export type JourneyStep = z.infer<typeof step>;

const journey = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  contactId: z.string(),
  email: z.string(),
  /** waiting (on a timer, or held by a workflow that is not sending) or ended. */
  status: z.enum(['waiting', 'ended']),
  /** The node it is at (or ended at). */
  nodeId: z.string().nullable(),
  /** When its wait ends, while waiting. */
  waitUntil: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** The event that started it, and its properties (the emails' event variables). */
  eventName: z.string().nullable(),
  eventProperties: z.record(z.string(), z.unknown()),
  /** Filters with appliesDownstream the contact passed: checked again before each later step. */
  downstreamFilters: z.array(z.string()),
  steps: z.array(step),
});
export type Journey = z.infer<typeof journey>;

const journeysSetting = z.object({
  journeys: z.array(journey),
  /** The waiting journeys by the time their wait ends, earliest first (ties in the order they began to wait). */
  waiting: z.array(z.object({ until: z.string(), journeyId: z.string() })),
  /** Journeys whose wait ended while their workflow was not sending: they go on when it sends again. */
  held: z.array(z.string()),
});

export const journeys = slice('journeys', journeysSetting, () => ({ journeys: [], waiting: [], held: [] }));

/** Ended journeys kept at most: a contact that enters a re-eligible workflow again and again does not grow the state for ever. */
const KEPT_ENDED = 10_000;

/** The journeys by id and by contact, made once per state and kept up to date by addJourney. */
interface JourneyIndex {
  count: number;
  byId: Map<string, Journey>;
  byContact: Map<string, Journey[]>;
}
const indexes = new WeakMap<Journey[], JourneyIndex>();

function indexOf(all: Journey[]): JourneyIndex {
  let index = indexes.get(all);
  if (index === undefined || index.count !== all.length) {
    index = { count: 0, byId: new Map(), byContact: new Map() };
    for (const each of all) addToIndex(index, each);
    indexes.set(all, index);
  }
  return index;
}

function addToIndex(index: JourneyIndex, added: Journey): void {
  index.count += 1;
  index.byId.set(added.id, added);
  const ofContact = index.byContact.get(added.contactId);
  if (ofContact === undefined) index.byContact.set(added.contactId, [added]);
  else ofContact.push(added);
}

export function journeyById(state: StateCore, id: string): Journey | undefined {
  return indexOf(journeys.of(state).journeys).byId.get(id);
}

/** A contact's journeys, oldest first. */
export function journeysOf(state: StateCore, contactId: string): Journey[] {
  return indexOf(journeys.of(state).journeys).byContact.get(contactId) ?? [];
}

export function addJourney(state: StateCore, added: Journey): void {
  const kept = journeys.of(state);
  const index = indexOf(kept.journeys);
  kept.journeys.push(added);
  addToIndex(index, added);
  if (kept.journeys.length > KEPT_ENDED * 2) {
    const ended = kept.journeys.filter((each) => each.status === 'ended');
    const drop = new Set(ended.slice(0, ended.length - KEPT_ENDED).map((each) => each.id));
    const remaining = kept.journeys.filter((each) => !drop.has(each.id));
    kept.journeys.splice(0, kept.journeys.length, ...remaining);
  }
}

/** Puts a journey in the index of waits, in order of `until` (binary search: a long index costs a log to add to). */
export function indexWait(state: StateCore, journeyId: string, until: string): void {
  const waiting = journeys.of(state).waiting;
  let low = 0;
  let high = waiting.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (waiting[middle]!.until <= until) low = middle + 1;
    else high = middle;
  }
  waiting.splice(low, 0, { until, journeyId });
}

/** Whether a wait has ended by `time`, or a journey is held: then the engine has work before a request. */
export function waitsEnded(state: StateCore, time: () => string): boolean {
  const kept = journeys.of(state);
  // The time is read only when someone waits: most requests find nobody waiting and skip the clock.
  return kept.held.length > 0 || (kept.waiting.length > 0 && kept.waiting[0]!.until <= time());
}

/** The earliest wait's end, or undefined when nobody waits. */
export function nextWaitEnds(state: StateCore): string | undefined {
  return journeys.of(state).waiting[0]?.until;
}

/**
 * Takes out of the index the waits that end by `time`, earliest first. ISO times of the same form
 * compare as strings do, which the index's order relies on.
 */
export function takeWaitsEndingBy(state: StateCore, time: string): { until: string; journeyId: string }[] {
  const waiting = journeys.of(state).waiting;
  let count = 0;
  while (count < waiting.length && waiting[count]!.until <= time) count += 1;
  return waiting.splice(0, count);
}
