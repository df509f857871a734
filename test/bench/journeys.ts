/**
 * The sandbox's workflows at scale, in this process, through its own request handler: 10,000
 * contacts waiting on one timer released by a 30-day move of the clock (goal: under 2 s, which is
 * also the longest the event loop stalls, as the move is one synchronous piece of work), and what a
 * contact create costs as the contacts grow (the last thousand of 10,000 against the first); and
 * at the scale of a real audience, 200,000 kept journeys: a contact create that starts one, an
 * event that starts another, and a 30-day move of the clock.
 */
import { performance } from 'node:perf_hooks';
import { loadSandboxModules, RouteTable, SandboxApi } from '../../src/emulator/api.js';
import { freezeClock } from '../../src/emulator/clock.js';
import type { SeedKind } from '../../src/emulator/module.js';
import { seedId } from '../../src/emulator/module.js';
import { seedState } from '../../src/emulator/state/index.js';
import { median } from './measure.js';

export interface JourneyFigures {
  /** How long the 30-day move took, releasing every waiting contact. */
  advanceMs: number;
  released: number;
  /** The mean create of the first thousand contacts, and of the last thousand of `contacts`. */
  firstCreatesMs: number;
  lastCreatesMs: number;
  contacts: number;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
// Each contact joins the list of "Welcome series": it is welcomed, then waits two days.
const newsletter = () => seedId('mailing-list/Product updates');

/** Creates contacts `from` to `to` (exclusive), each starting a journey that waits; the time of each create. */
function createContacts(call: Awaited<ReturnType<typeof sandboxCaller>>, from: number, to: number): number[] {
  const times: number[] = [];
  for (let index = from; index < to; index += 1) {
    const started = performance.now();
    call('POST', '/v1/contacts/create', {
      email: `person${index}@example.com`,
      plan: index % 2 === 0 ? 'pro' : 'free',
      mailingLists: { [newsletter()]: true },
    });
    times.push(performance.now() - started);
  }
  return times;
}

export async function measureJourneys(contacts = 10_000): Promise<JourneyFigures> {
  const call = await sandboxCaller('demo');
  const creates = createContacts(call, 0, contacts);
  const started = performance.now();
  const moved = call('POST', '/_sandbox/clock', { advance: '30d' });
  const advanceMs = performance.now() - started;
  return {
    advanceMs,
    released: Number(moved.released),
    firstCreatesMs: mean(creates.slice(0, 1_000)),
    lastCreatesMs: mean(creates.slice(-1_000)),
    contacts,
  };
}

export interface KeptJourneyFigures {
  kept: number;
  /** The median create (each starting a journey) of the second thousand, with 1,000 journeys kept, and of the thousand after `kept` (a median: a collection of a 200,000-journey heap lands on a few of them). */
  createsAtFewMs: number;
  createsAtManyMs: number;
  /** The median of 200 events that each start a journey of "Trial conversion", at about 1,000 journeys kept and at `kept`. */
  eventsAtFewMs: number;
  eventsAtManyMs: number;
  /** The 30-day move with every journey waiting, and how many went on. */
  advanceMs: number;
  released: number;
}

/** Sends "trial_started" for contacts `from` to `to` (exclusive), each starting a journey that waits; the median time. */
function sendEvents(call: Awaited<ReturnType<typeof sandboxCaller>>, from: number, to: number): number {
  const times: number[] = [];
  for (let index = from; index < to; index += 1) {
    const started = performance.now();
    call('POST', '/v1/events/send', { email: `person${index}@example.com`, eventName: 'trial_started' });
    times.push(performance.now() - started);
  }
  return median(times);
}

/**
 * A contact create that starts a journey, and an event that starts another, measured with about
 * 1,000 journeys kept and again with `kept` (200,000 by default: a sandbox with an audience's worth
 * of contacts waiting in the demo's welcome series), then a 30-day move of the clock.
 */
export async function measureKeptJourneys(kept = 200_000): Promise<KeptJourneyFigures> {
  const call = await sandboxCaller('demo');
  const few = createContacts(call, 0, 2_000).slice(1_000);
  const eventsAtFewMs = sendEvents(call, 0, 200);
  createContacts(call, 2_000, kept);
  const many = createContacts(call, kept, kept + 1_000);
  const eventsAtManyMs = sendEvents(call, 1_000, 1_200);
  const started = performance.now();
  const moved = call('POST', '/_sandbox/clock', { advance: '30d' });
  const advanceMs = performance.now() - started;
  return {
    kept: kept + 1_400,
    createsAtFewMs: median(few),
    createsAtManyMs: median(many),
    eventsAtFewMs,
    eventsAtManyMs,
    advanceMs,
    released: Number(moved.released),
  };
}

/** A sandbox in this process, its clock stopped, and what sends it a request through its handler (failing on an answer other than 200). */
export async function sandboxCaller(seed: SeedKind): Promise<(method: string, path: string, body?: unknown) => Record<string, unknown>> {
  const modules = await loadSandboxModules();
  const state = seedState(modules, seed);
  freezeClock(state);
  const api = new SandboxApi(state, new RouteTable(modules));
  return (method, path, body) => {
    const answer = api.handle({
      method,
      path,
      query: new URLSearchParams(),
      authorization: 'Bearer sandbox-key',
      body: body === undefined ? '' : JSON.stringify(body),
    });
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  };
}
