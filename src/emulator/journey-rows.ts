/**
 * Journeys as a state file keeps them: a row each (state/rows.ts), found by id, by contact and by
 * workflow, and in a queue by where it is, so that a request reads the journeys it touches and no
 * other. What a journey's row says at rest (between requests) is where it is: waiting on a timer
 * until a time, held by its workflow (waiting, with no time), or ended; the queues' order is the
 * places' (times compare as strings), then the order the journeys started in.
 */
import type { KeptRows } from './module.js';

/** What the queues read of a journey (journey-records.ts's Journey). */
export interface QueuedJourney {
  id: string;
  contactId: string;
  workflowId: string;
  nodeId: string | null;
  status: 'waiting' | 'ended';
  waitUntil: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** Places of each queue (see ROW_SLICES): a timer's wait, a hold, an end; `~` sorts after every character of a time or an id. */
const TIMER = 't';
const HELD = 'h';
const ENDED = 'e';
const after = (prefix: string) => `${prefix}~`;

const byTime =
  (time: (journey: QueuedJourney) => string | null) =>
  <J extends QueuedJourney>(a: J, b: J) => {
    const [first, second] = [time(a) ?? '', time(b) ?? ''];
    return first < second ? -1 : first > second ? 1 : 0;
  };

/**
 * Journeys oldest first, as the setting in memory lists them: those ended (in the order they
 * ended) before those going (in the order they started), then sorted by when each started.
 */
function oldestFirst<J extends QueuedJourney>(rows: J[]): J[] {
  const ended = rows.filter((journey) => journey.status === 'ended').sort(byTime((journey) => journey.endedAt));
  return [...ended, ...rows.filter((journey) => journey.status !== 'ended')].sort(byTime((journey) => journey.startedAt));
}

/** A contact's journeys, oldest first. */
export function rowsOfContact<J extends QueuedJourney>(rows: KeptRows<J>, contactId: string): J[] {
  return oldestFirst(rows.allByKey(0, contactId));
}

/** Every journey, oldest first. */
export function everyRow<J extends QueuedJourney>(rows: KeptRows<J>): J[] {
  return oldestFirst(rows.every());
}

/** The journeys waiting (on a timer, or held) in a workflow, at these nodes when named. */
export function rowsWaitingAt<J extends QueuedJourney>(rows: KeptRows<J>, workflowId: string, nodeIds?: Iterable<string>): J[] {
  const at = nodeIds === undefined ? undefined : new Set(nodeIds);
  return rows.allByKey(1, workflowId).filter((journey) => journey.status === 'waiting' && (at === undefined || at.has(journey.nodeId ?? '')));
}

/** The workflows that hold journeys: one look-up in the index for each. */
export function rowsHoldingWorkflows<J extends QueuedJourney>(rows: KeptRows<J>): string[] {
  const workflows: string[] = [];
  for (let place = rows.nextPlace(HELD, after(HELD)); place !== undefined; place = rows.nextPlace(place, after(HELD))) workflows.push(place.slice(1));
  return workflows;
}

/** The ids of the journeys a workflow holds, in the order they started. */
export function rowsHeldBy<J extends QueuedJourney>(rows: KeptRows<J>, workflowId: string): string[] {
  const place = `${HELD}${workflowId}`;
  return rows.placed(place, `${place}\u0000`).map((journey) => journey.id);
}

/** When the earliest wait ends; undefined when nobody waits on a timer. */
export function rowsNextWait<J extends QueuedJourney>(rows: KeptRows<J>): string | undefined {
  return rows.nextPlace(TIMER, after(TIMER))?.slice(1);
}

/** The waits that end by `time`, earliest first. */
export function rowsWaitsEndingBy<J extends QueuedJourney>(rows: KeptRows<J>, time: string): { until: string; journeyId: string }[] {
  return rows.placed(TIMER, `${TIMER}${time}~`).map((journey) => ({ until: journey.waitUntil!, journeyId: journey.id }));
}

/** How many ended journeys the rows hold, counted once per state and kept by the ends that follow. */
const endedCounts = new WeakMap<object, { count: number }>();

/**
 * One more journey ended: past `twice` ended ones, the oldest go, down to `keep` (in batches, so
 * that an end costs the same however many ended before it).
 */
export function rowsEnded<J extends QueuedJourney>(rows: KeptRows<J>, owner: object, keep: number, twice: number): void {
  let ended = endedCounts.get(owner);
  if (ended === undefined) {
    ended = { count: rows.countPlaced(ENDED, after(ENDED)) };
    endedCounts.set(owner, ended);
  } else ended.count += 1;
  if (ended.count <= twice) return;
  for (const dropped of rows.placed(ENDED, after(ENDED), ended.count - keep)) rows.remove(dropped);
  ended.count = keep;
}
