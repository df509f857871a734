/**
 * Journeys: each contact's run through a workflow, step by step, as the sandbox keeps them. Those
 * still going are kept by id in the order they started; ended ones in a bounded queue of their
 * own; those waiting on a timer in a heap by the time their wait ends, so that a request (or a
 * move of the clock) finds the ones to release without reading the others; those held by a paused
 * workflow by workflow. In memory, each state's journeys are also indexed by id, by contact and by
 * the node they wait at, so that every change costs the same at 200,000 journeys as at ten.
 */
import { madeOnUse, z } from '../base/shapes.js';
import { everyRow, rowsEnded, rowsHeldBy, rowsHoldingWorkflows, rowsNextWait, rowsOfContact, rowsWaitingAt, rowsWaitsEndingBy } from './journey-rows.js';
import { type KeptRows, lazily, type RowKind, rowStoreOf, type StateCore, seedId, seedTime, slice } from './module.js';

/**
 * The journeys' schemas are made on first use: a state file keeps a journey a row, checked when
 * read, and most requests (a listing, a find) read none.
 */
const journey = madeOnUse(() =>
  z.object({
    id: z.string(),
    workflowId: z.string(),
    workflowName: z.string(),
    contactId: z.string(),
    email: z.string(),
    /** waiting (on a timer, or held by a workflow that is not sending) or ended. */
    status: z.enum(['waiting', 'ended']),
    /** The node it is at (or ended at). */
    nodeId: z.nullable(z.string()),
    /** When its wait ends, while waiting. */
    waitUntil: z.nullable(z.string()),
    startedAt: z.string(),
    endedAt: z.nullable(z.string()),
    /** The event that started it, and its properties (the emails' event variables). */
    eventName: z.nullable(z.string()),
    eventProperties: z.record(z.string(), z.unknown()),
    /** Filters with appliesDownstream the contact passed: checked again before each later step. */
    downstreamFilters: z.array(z.string()),
    steps: z.array(
      z.object({
        nodeId: z.string(),
        typeName: z.string(),
        /** On the sandbox's clock. */
        at: z.string(),
        /** What happened: entered, waiting, released, matched, filtered-out, branched, variant, sent, skipped, held, exited. */
        outcome: z.string(),
        /** Why, in words: the trigger that fired, the filter that matched, the wait and until when. */
        why: z.string(),
        /** The email a send-email step sent: its subject, as the contact read it, and its entry in the outbox. */
        subject: z.optional(z.string()),
        /** A timer's waiting step: when its wait ends, on the sandbox's clock (the time `why` names). */
        until: z.optional(z.string()),
      }),
    ),
  }),
);
export type Journey = z.infer<typeof journey>;
export type JourneyStep = Journey['steps'][number];

const journeysSetting = madeOnUse(() =>
  z.object({
    /** The journeys still going (waiting on a timer, or held), by id, in the order they started; an array in the layout before. */
    journeys: z.union([z.record(z.string(), journey), z.array(journey)]),
    /** Ended journeys, the first ended first: at most KEPT_ENDED of them are kept (absent in the layout before). */
    ended: z.optional(z.array(journey)),
    /** The timer waits, a binary heap by the time each ends (ties in the order they began to wait). */
    waiting: z.array(z.object({ until: z.string(), journeyId: z.string(), order: z.optional(z.number()) })),
    /** Journeys held at a send-email node by a paused workflow, by workflow id; an array of ids in the layout before. */
    held: z.union([z.record(z.string(), z.array(z.string())), z.array(z.string())]),
    /** How many waits have begun: the order of the next. */
    waitOrder: z.optional(z.number()),
  }),
);

/** A wait in the index: when it ends, the journey, and in which order it began (ties keep that order). */
export type Wait = z.infer<typeof journeysSetting>['waiting'][number];

interface Kept {
  journeys: Record<string, Journey>;
  ended: Journey[];
  waiting: Wait[];
  held: Record<string, string[]>;
  waitOrder: number;
}

/** Where the demo team's contacts wait (see the seed's workflows in routes/workflow-records.ts): Grace, held behind the email of variant B of its paused beta test. */
const seedJourneys = lazily((): Kept => {
  const workflow = 'Beta onboarding subject test';
  const since = seedTime(1_200);
  const nodeId = seedId(`workflow/${workflow}/subject-b`);
  const held: Journey = {
    id: seedId('journey/grace/beta'),
    workflowId: seedId(`workflow/${workflow}`),
    workflowName: workflow,
    contactId: seedId('contact/grace@example.com'),
    email: 'grace@example.com',
    status: 'waiting',
    nodeId,
    waitUntil: null,
    startedAt: since,
    endedAt: null,
    eventName: null,
    eventProperties: {},
    downstreamFilters: [],
    steps: [
      { nodeId, typeName: 'SendEmailAction', at: since, outcome: 'placed', why: 'placed at this node by the demo seed' },
      { nodeId, typeName: 'SendEmailAction', at: since, outcome: 'held', why: HELD_WORDS },
    ],
  };
  return { journeys: { [held.id]: held }, ended: [], waiting: [], held: { [held.workflowId]: [held.id] }, waitOrder: 0 };
});

/** Why a journey is held, as its step says. */
export const HELD_WORDS = 'the workflow is paused: email sending is stopped, and the contact is queued behind this email until it sends again';

export const journeys = slice('journeys', journeysSetting, seedJourneys, () => ({ journeys: {}, ended: [], waiting: [], held: {}, waitOrder: 0 }));

/** The journeys as a state file keeps them: a row each (journey-rows.ts). */
const journeyRows: RowKind<Journey> = { key: journeys.key, check: (row) => journey.parse(row) };

/** The rows of a state file's journeys, until something reads them all; undefined for the setting in memory. */
function rowsOf(state: StateCore): KeptRows<Journey> | undefined {
  const rows = rowStoreOf(state)?.rows(journeyRows);
  return rows !== undefined && !rows.loaded() ? rows : undefined;
}

/** Ended journeys kept at most: a contact that enters a re-eligible workflow again and again does not grow the state for ever. */
export const KEPT_ENDED = 10_000;

/**
 * The journeys of a state, in the current layout: one written before (every journey in one list,
 * the waits in order without theirs, the held ones in one list) is brought up to date once.
 */
function kept(state: StateCore): Kept {
  const setting = journeys.of(state);
  if (Array.isArray(setting.journeys) || Array.isArray(setting.held) || setting.ended === undefined || setting.waitOrder === undefined) upgrade(setting);
  return setting as Kept;
}

function upgrade(setting: z.infer<typeof journeysSetting>): void {
  if (Array.isArray(setting.journeys)) {
    const all = setting.journeys;
    setting.journeys = {};
    setting.ended = all.filter((each) => each.status === 'ended').slice(-KEPT_ENDED);
    for (const each of all) if (each.status !== 'ended') setting.journeys[each.id] = each;
  }
  setting.ended ??= [];
  if (Array.isArray(setting.held)) {
    const byWorkflow: Record<string, string[]> = {};
    for (const id of setting.held) {
      const held = (setting.journeys as Record<string, Journey>)[id];
      if (held !== undefined) (byWorkflow[held.workflowId] ??= []).push(id);
    }
    setting.held = byWorkflow;
  }
  // The waits were kept in order, which is a heap: each gets its place in that order.
  setting.waiting.forEach((each, index) => {
    each.order ??= index + 1;
  });
  setting.waitOrder ??= setting.waiting.length;
}

/** The journeys by id, by contact (oldest first) and, for those waiting, by workflow and node: made once per state, kept by the changes below. */
interface JourneyIndex {
  byId: Map<string, Journey>;
  byContact: Map<string, Journey[]>;
  atNode: Map<string, Map<string, Set<Journey>>>;
}
const indexes = new WeakMap<Kept, JourneyIndex>();

function indexOf(state: StateCore): { setting: Kept; index: JourneyIndex } {
  const setting = kept(state);
  let index = indexes.get(setting);
  if (index === undefined) {
    index = { byId: new Map(), byContact: new Map(), atNode: new Map() };
    const held = new Set(Object.values(setting.held).flat());
    for (const each of setting.ended) enter(index, each);
    for (const each of Object.values(setting.journeys)) {
      enter(index, each);
      // Waiting at its node (on a timer, or held), rather than on its way.
      if (each.waitUntil !== null || held.has(each.id)) atNodeSet(index, each)?.add(each);
    }
    // Ended journeys come first above: each contact's, in the order they started.
    for (const list of index.byContact.values()) list.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
    indexes.set(setting, index);
  }
  return { setting, index };
}

function enter(index: JourneyIndex, journey: Journey): void {
  index.byId.set(journey.id, journey);
  const ofContact = index.byContact.get(journey.contactId);
  if (ofContact === undefined) index.byContact.set(journey.contactId, [journey]);
  else ofContact.push(journey);
}

function atNodeSet(index: JourneyIndex, journey: Journey, make = true): Set<Journey> | undefined {
  if (journey.nodeId === null) return undefined;
  let ofWorkflow = index.atNode.get(journey.workflowId);
  if (ofWorkflow === undefined) {
    if (!make) return undefined;
    ofWorkflow = new Map();
    index.atNode.set(journey.workflowId, ofWorkflow);
  }
  let atNode = ofWorkflow.get(journey.nodeId);
  if (atNode === undefined && make) {
    atNode = new Set();
    ofWorkflow.set(journey.nodeId, atNode);
  }
  return atNode;
}

export function journeyById(state: StateCore, id: string): Journey | undefined {
  const rows = rowsOf(state);
  if (rows !== undefined) return rows.byId(id);
  return indexOf(state).index.byId.get(id);
}

/** A contact's journeys, oldest first. */
export function journeysOf(state: StateCore, contactId: string): Journey[] {
  const rows = rowsOf(state);
  if (rows !== undefined) return rowsOfContact(rows, contactId);
  return indexOf(state).index.byContact.get(contactId) ?? [];
}

/** Every journey kept, oldest first. */
export function allJourneys(state: StateCore): Journey[] {
  const rows = rowsOf(state);
  if (rows !== undefined) return everyRow(rows);
  const { setting } = indexOf(state);
  const all = [...setting.ended];
  for (const each of Object.values(setting.journeys)) all.push(each);
  return all.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
}

/** The journeys waiting (on a timer, or held) at these nodes of a workflow; at any of its nodes when none are named. */
export function waitingAt(state: StateCore, workflowId: string, nodeIds?: Iterable<string>): Journey[] {
  const rows = rowsOf(state);
  if (rows !== undefined) return rowsWaitingAt(rows, workflowId, nodeIds);
  const ofWorkflow = indexOf(state).index.atNode.get(workflowId);
  if (ofWorkflow === undefined) return [];
  const found: Journey[] = [];
  const sets = nodeIds === undefined ? ofWorkflow.values() : [...nodeIds].map((id) => ofWorkflow.get(id) ?? new Set<Journey>());
  for (const set of sets) for (const each of set) found.push(each);
  return found;
}

/** Keeps a new journey. */
export function addJourney(state: StateCore, added: Journey): void {
  const rows = rowsOf(state);
  if (rows !== undefined) return rows.add(added);
  const { setting, index } = indexOf(state);
  setting.journeys[added.id] = added;
  enter(index, added);
}

/** A journey waits at its node until a time: in the heap of waits, and among those waiting at the node. */
export function indexWait(state: StateCore, journey: Journey, until: string): void {
  journey.status = 'waiting';
  journey.waitUntil = until;
  // A row's place says it waits.
  if (rowsOf(state) !== undefined) return;
  const { setting, index } = indexOf(state);
  setting.waitOrder += 1;
  pushWait(setting.waiting, { until, journeyId: journey.id, order: setting.waitOrder });
  atNodeSet(index, journey)?.add(journey);
}

/** A journey is held at its node (a send-email node) until its workflow sends again. */
export function holdJourney(state: StateCore, journey: Journey): void {
  journey.status = 'waiting';
  journey.waitUntil = null;
  if (rowsOf(state) !== undefined) return;
  const { setting, index } = indexOf(state);
  (setting.held[journey.workflowId] ??= []).push(journey.id);
  atNodeSet(index, journey)?.add(journey);
}

/** A journey leaves the node it waited at, to go on (its wait taken from the heap, or its hold from its workflow's). */
export function leaveWait(state: StateCore, journey: Journey): void {
  if (rowsOf(state) === undefined) atNodeSet(indexOf(state).index, journey, false)?.delete(journey);
  journey.waitUntil = null;
}

/** A journey ends at a node: it leaves the journeys still going for the queue of ended ones, whose oldest go past KEPT_ENDED. */
export function endJourney(state: StateCore, journey: Journey, at: string, nodeId: string | null): void {
  const rows = rowsOf(state);
  if (rows === undefined) atNodeSet(indexOf(state).index, journey, false)?.delete(journey);
  journey.status = 'ended';
  journey.nodeId = nodeId;
  journey.waitUntil = null;
  journey.endedAt = at;
  if (rows !== undefined) return rowsEnded(rows, state, KEPT_ENDED, KEPT_ENDED * 2);
  const { setting, index } = indexOf(state);
  delete setting.journeys[journey.id];
  setting.ended.push(journey);
  // Dropped in batches: a journey's end costs the same however many ended before it.
  if (setting.ended.length > KEPT_ENDED * 2) {
    for (const dropped of setting.ended.splice(0, setting.ended.length - KEPT_ENDED)) {
      index.byId.delete(dropped.id);
      const ofContact = index.byContact.get(dropped.contactId);
      const position = ofContact?.indexOf(dropped) ?? -1;
      if (position !== -1) ofContact!.splice(position, 1);
      if (ofContact?.length === 0) index.byContact.delete(dropped.contactId);
    }
  }
}

/** Takes the journeys held in a workflow (the ids still going), in the order they were held. */
export function takeHeld(state: StateCore, workflowId: string): string[] {
  const rows = rowsOf(state);
  // Held rows stay in their place until released, which the caller does in the same run.
  if (rows !== undefined) return rowsHeldBy(rows, workflowId);
  const { setting } = indexOf(state);
  const held = setting.held[workflowId] ?? [];
  delete setting.held[workflowId];
  return held;
}

/** The workflows that hold journeys. */
export function holdingWorkflows(state: StateCore): string[] {
  const rows = rowsOf(state);
  if (rows !== undefined) return rowsHoldingWorkflows(rows);
  return Object.keys(kept(state).held);
}

/** Whether a wait has ended by `time`: then the engine has work before a request. */
export function waitsEnded(state: StateCore, time: () => string): boolean {
  const rows = rowsOf(state);
  const first = rows !== undefined ? rowsNextWait(rows) : kept(state).waiting[0]?.until;
  // The time is read only when someone waits: most requests find nobody waiting and skip the clock.
  return first !== undefined && first <= time();
}

/** The earliest wait's end, or undefined when nobody waits. */
export function nextWaitEnds(state: StateCore): string | undefined {
  const rows = rowsOf(state);
  if (rows !== undefined) return rowsNextWait(rows);
  const { setting } = indexOf(state);
  while (setting.waiting.length > 0 && !current(setting, setting.waiting[0]!)) popWait(setting.waiting);
  return setting.waiting[0]?.until;
}

/** Whether a wait in the heap is still the journey's (one discarded, or ended otherwise, leaves its entry behind). */
function current(setting: Kept, entry: Wait): boolean {
  return setting.journeys[entry.journeyId]?.waitUntil === entry.until;
}

/**
 * Takes out of the heap the waits that end by `time`, earliest first. ISO times of the same form
 * compare as strings do, which the heap's order relies on.
 */
export function takeWaitsEndingBy(state: StateCore, time: string): { until: string; journeyId: string }[] {
  const rows = rowsOf(state);
  // Rows keep their place until released, which the caller does in the same run.
  if (rows !== undefined) return rowsWaitsEndingBy(rows, time);
  const { setting } = indexOf(state);
  const taken: { until: string; journeyId: string }[] = [];
  while (setting.waiting.length > 0 && setting.waiting[0]!.until <= time) {
    const entry = popWait(setting.waiting)!;
    if (current(setting, entry)) taken.push({ until: entry.until, journeyId: entry.journeyId });
  }
  return taken;
}

const before = (a: Wait, b: Wait) => a.until < b.until || (a.until === b.until && (a.order ?? 0) < (b.order ?? 0));

/** Adds a wait to a binary heap of waits (the state's, or a run's): a log of its size, however many. */
export function pushWait(heap: Wait[], entry: Wait): void {
  heap.push(entry);
  for (let index = heap.length - 1; index > 0; ) {
    const parent = (index - 1) >> 1;
    if (!before(heap[index]!, heap[parent]!)) break;
    [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
    index = parent;
  }
}

/** Takes the earliest wait out of a binary heap of waits. */
export function popWait(heap: Wait[]): Wait | undefined {
  const first = heap[0];
  const last = heap.pop();
  if (first === undefined || last === undefined || heap.length === 0) return first;
  heap[0] = last;
  for (let index = 0; ; ) {
    const [left, right] = [index * 2 + 1, index * 2 + 2];
    let least = index;
    if (left < heap.length && before(heap[left]!, heap[least]!)) least = left;
    if (right < heap.length && before(heap[right]!, heap[least]!)) least = right;
    if (least === index) return first;
    [heap[index], heap[least]] = [heap[least]!, heap[index]!];
    index = least;
  }
}

/** Ends journeys still going, saying why (a change to their workflow that discards its queued contacts). */
export function discardJourneys(state: StateCore, discarded: Journey[], at: string, why: string): void {
  for (const journey of discarded) {
    journey.steps.push({ nodeId: journey.nodeId ?? '', typeName: journey.steps.at(-1)?.typeName ?? 'unknown', at, outcome: 'exited', why });
    endJourney(state, journey, at, journey.nodeId);
  }
}
