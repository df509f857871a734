/**
 * The journeys' records at the scale of a real audience: 200,000 journeys still going and the
 * ended ones in a bounded queue, every change through the indexes (by contact, by waiting node, the
 * heap of waits), with no list spread into a call (which threw "Maximum call stack size exceeded"
 * near 160,000 journeys), and a state file of the layout before brought up to date.
 */
import { describe, expect, it } from 'vitest';
import {
  addJourney,
  allJourneys,
  endJourney,
  indexWait,
  type Journey,
  journeyById,
  journeys,
  journeysOf,
  KEPT_ENDED,
  nextWaitEnds,
  takeWaitsEndingBy,
  waitingAt,
} from '../../../src/emulator/journey-records.js';
import type { StateCore } from '../../../src/emulator/module.js';

// Times of the same form compare as strings do, which is all the records read of them: made cheaply, in order.
const at = (ms: number) => `2024-11-01T08:00:${String(ms).padStart(9, '0')}Z`;

function journey(id: number, contact = `contact${id}`): Journey {
  return {
    id: `j${id}`,
    workflowId: 'wf',
    workflowName: 'wf',
    contactId: contact,
    email: `${contact}@example.com`,
    status: 'waiting',
    nodeId: id % 2 === 0 ? 'even' : 'odd',
    waitUntil: null,
    startedAt: at(id),
    endedAt: null,
    eventName: null,
    eventProperties: {},
    downstreamFilters: [],
    steps: [],
  };
}

const emptyState = (): StateCore => ({ version: 1, teamName: 'test', sequence: 0, seed: 'empty' }) as StateCore;

/**
 * A test of work alone: no wait, no process, no socket, a fixed count of journeys. Its time is that
 * of the work, which a loaded machine stretches, so it is bounded by the work and not by the clock
 * (vitest checks a test's time once it ends: on a busy machine this one ended past 30 s).
 */
const BOUNDED_BY_WORK = { timeout: 0 };

describe('the journeys kept', () => {
  it('hold 200,000 waiting and more ended than are kept, the ended ones bounded, with no stack overflow', BOUNDED_BY_WORK, () => {
    const state = emptyState();
    const waiting = 200_000;
    for (let id = 0; id < waiting; id += 1) {
      const added = journey(id);
      addJourney(state, added);
      indexWait(state, added, at(1_000_000 + id));
    }
    // More than twice the ended journeys kept start and end at once: only the newest of them are kept.
    const last = waiting + KEPT_ENDED * 3;
    for (let id = waiting; id < last; id += 1) {
      const added = journey(id, id === last - 1 ? 'contact1' : undefined);
      addJourney(state, added);
      endJourney(state, added, at(id), 'even');
    }
    const kept = journeys.of(state) as unknown as { ended: Journey[] };
    expect(kept.ended.length).toBeGreaterThanOrEqual(KEPT_ENDED);
    expect(kept.ended.length).toBeLessThanOrEqual(KEPT_ENDED * 2);
    expect(kept.ended.at(-1)!.id).toBe(`j${last - 1}`);
    // A dropped ended journey is gone from every index; the others are found by id and by contact.
    expect(journeyById(state, `j${waiting}`)).toBeUndefined();
    expect(journeysOf(state, 'contact1').map((each) => each.id)).toEqual(['j1', `j${last - 1}`]);
    expect(waitingAt(state, 'wf', ['odd'])).toHaveLength(waiting / 2);
    expect(waitingAt(state, 'wf')).toHaveLength(waiting);
    expect(allJourneys(state)).toHaveLength(waiting + kept.ended.length);
    // The waits come out of the heap in the order they end.
    expect(nextWaitEnds(state)).toBe(at(1_000_000));
    const due = takeWaitsEndingBy(state, at(1_000_000 + 9));
    expect(due.map((each) => each.journeyId)).toEqual(Array.from({ length: 10 }, (_, id) => `j${id}`));
  });

  it('skips a wait whose journey ended since (a discard), and brings the layout before up to date', () => {
    const state = emptyState();
    const before = [journey(1), { ...journey(2), status: 'ended' as const, endedAt: at(5) }, journey(3)];
    before[0]!.waitUntil = at(10);
    before[2]!.waitUntil = at(10);
    // The layout before: every journey in one list, the waits in order without theirs, the held ones in one list.
    state.journeys = {
      journeys: before,
      waiting: [
        { until: at(10), journeyId: 'j1' },
        { until: at(10), journeyId: 'j3' },
      ],
      held: [],
    };
    expect(allJourneys(state).map((each) => each.id)).toEqual(['j1', 'j2', 'j3']);
    expect(waitingAt(state, 'wf').map((each) => each.id)).toEqual(['j1', 'j3']);
    endJourney(state, journeyById(state, 'j1')!, at(6), 'odd');
    expect(takeWaitsEndingBy(state, at(10))).toEqual([{ until: at(10), journeyId: 'j3' }]);
    expect(journeys.of(state)).toMatchObject({ ended: [{ id: 'j2' }, { id: 'j1' }], waiting: [], held: {} });
  });
});
