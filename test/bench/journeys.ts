/**
 * The sandbox's workflows at scale, in this process, through its own request handler: 10,000
 * contacts waiting on one timer released by a 30-day move of the clock (goal: under 2 s, which is
 * also the longest the event loop stalls, as the move is one synchronous piece of work), and what a
 * contact create costs as the contacts grow (the last thousand of 10,000 against the first).
 */
import { performance } from 'node:perf_hooks';
import { loadSandboxModules, SandboxApi } from '../../src/emulator/api.js';
import { freezeClock } from '../../src/emulator/journeys/clock.js';
import { seedId } from '../../src/emulator/module.js';
import { seedState } from '../../src/emulator/state.js';
import type { SeedKind } from '../../src/emulator/module.js';

export interface JourneyFigures {
  /** How long the 30-day move took, releasing every waiting contact. */
  advanceMs: number;
  released: number;
  /** The mean create of the first thousand contacts, and of the last thousand of `contacts`. */
  firstCreatesMs: number;
  lastCreatesMs: number;
  contacts: number;
}

export async function measureJourneys(contacts = 10_000): Promise<JourneyFigures> {
  const call = await sandboxCaller('demo');
  // Each contact joins the list of "Welcome series": it is welcomed, then waits two days.
  const newsletter = seedId('mailing-list/Product updates');
  const creates: number[] = [];
  for (let index = 0; index < contacts; index += 1) {
    const started = performance.now();
    call('POST', '/v1/contacts/create', { email: `person${index}@example.com`, plan: index % 2 === 0 ? 'pro' : 'free', mailingLists: { [newsletter]: true } });
    creates.push(performance.now() - started);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
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

/** A sandbox in this process, its clock stopped, and what sends it a request through its handler (failing on an answer other than 200). */
export async function sandboxCaller(seed: SeedKind): Promise<(method: string, path: string, body?: unknown) => Record<string, unknown>> {
  const modules = await loadSandboxModules();
  const state = seedState(modules, seed);
  freezeClock(state);
  const api = new SandboxApi(state, modules);
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
