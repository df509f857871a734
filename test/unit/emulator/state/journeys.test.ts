/**
 * Journeys and the outbox in a sandbox's state file: a row each, a request reading and writing
 * the ones it touches, and the sandbox running them as it does in memory.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RouteTable, SandboxApi } from '../../../../src/emulator/api.js';
import { freezeClock } from '../../../../src/emulator/clock.js';
import { openCore } from '../../../../src/emulator/core.js';
import { type Journey, KEPT_ENDED } from '../../../../src/emulator/journey-records.js';
import { seedId } from '../../../../src/emulator/module.js';
import { type SandboxServer, startServer } from '../../../../src/emulator/server.js';
import { readState, writeState } from '../../../../src/emulator/state/index.js';
import { eventWorkflow, sandboxWithWorkflows } from '../../../support/journeys.js';
import { type SandboxState, sandboxCaller, sandboxModules, seedState } from '../../../support/sandbox.js';
import { callSandbox } from '../../../support/sandbox-http.js';
import { queryState as query, setMember, stateIn } from '../../../support/state-file.js';
import { tempDir } from '../../../support/temp.js';

const started: SandboxServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

const newsletter = seedId('mailing-list/Product updates');
const betaTesters = seedId('mailing-list/Beta testers');

/** Requests as a person's app would send them, to a sandbox in memory or to a server keeping a file. */
type Send = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

async function fileSandbox(state: SandboxState): Promise<{ send: Send; file: string }> {
  const file = join(tempDir('loopsctl-state-journeys-'), 'state.db');
  writeState(file, state);
  const sandbox = await startServer({ stateFile: file, rateLimit: false });
  started.push(sandbox);
  const send: Send = async (method, path, body) => {
    const { status, body: answered } = await callSandbox({ url: sandbox.url, apiKey: 'sandbox-key' }, method, path, body);
    return { status, body: answered };
  };
  return { send, file };
}

function memorySandbox(state: SandboxState): Send {
  const call = sandboxCaller(new SandboxApi(state, new RouteTable(sandboxModules)));
  return async (method, path, body) => {
    const [bare, query] = path.split('?');
    const { status, body: answered } = call(method, bare!, { query: Object.fromEntries(new URLSearchParams(query)), ...(body === undefined ? {} : { body }) });
    return { status, body: answered };
  };
}

/** Contacts through the seed's workflows: a welcome series of timers and emails, a paused test that holds them, the clock moved past each wait, contacts deleted while waiting. */
async function journeysOf(send: Send): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (let index = 0; index < 6; index += 1) {
    const lists = index % 2 === 0 ? { [newsletter]: true } : { [betaTesters]: true };
    answers.push(await send('POST', '/v1/contacts/create', { email: `Person${index}@Example.com`, firstName: `P${index}`, mailingLists: lists }));
  }
  answers.push(await send('POST', '/_sandbox/clock', { advance: '1d' }));
  answers.push(await send('POST', '/v1/contacts/delete', { email: 'person2@example.com' }));
  answers.push(await send('POST', '/v1/events/send', { email: 'person0@example.com', eventName: 'signup' }));
  for (const advance of ['2d', '3d', '30d']) answers.push(await send('POST', '/_sandbox/clock', { advance }));
  answers.push(await send('POST', '/v1/contacts/create', { email: 'late@example.com', mailingLists: { [newsletter]: true } }));
  answers.push(await send('GET', '/_sandbox/journeys'));
  answers.push(await send('GET', '/_sandbox/journeys?contact=PERSON4%40example.com'));
  return answers;
}

describe('journeys in a state file', () => {
  it('run as they do in memory: the same steps, waits, holds and sends', async () => {
    const state = seedState();
    freezeClock(state);
    const inFile = await fileSandbox(structuredClone(state));
    const inMemory = await journeysOf(memorySandbox(state));
    const fromFile = await journeysOf(inFile.send);
    expect(fromFile).toEqual(inMemory);
    const journeys = (inMemory.at(-2) as { body: { journeys: Journey[] } }).body.journeys;
    // What the scenario reaches: waits released, a contact held, journeys ended.
    expect(new Set(journeys.map((journey) => journey.status))).toEqual(new Set(['waiting', 'ended']));
    expect(journeys.some((journey) => journey.status === 'waiting' && journey.waitUntil === null)).toBe(true);
    expect(journeys.flatMap((journey) => journey.steps).some((step) => step.outcome === 'released')).toBe(true);
    expect(readState(inFile.file, sandboxModules)!.outbox).toEqual(state.outbox);
  });

  it("read a contact's sends through the index: a filter on what the contact was sent decides as in memory", async () => {
    const email = (subject: string) => ({ typeName: 'SendEmailAction', emailMessageId: `msg_${subject}`, subject });
    const sent = (target: string, id: string) => ({
      typeName: 'AudienceFilter',
      audienceFilter: { match: 'all', conditions: [{ type: 'activity', action: 'sent', negate: false, target, id }] },
    });
    const workflows = [
      eventWorkflow('other', [['welcome', email('Welcome'), []]]),
      eventWorkflow('nudge', [
        ['wait', { typeName: 'TimerAction', amount: 1, unit: 'h' }, ['byEmail']],
        ['byEmail', sent('workflowEmail', 'welcome'), ['byWorkflow']],
        ['byWorkflow', sent('workflow', 'wf_other'), ['second']],
        ['second', email('Second'), []],
      ]),
    ];
    // Quinn got the other workflow's email, then moved address; a new contact took the old one. Ada got it too.
    const scenario = async (send: Send) => {
      const answers = [
        await send('POST', '/v1/contacts/create', { email: 'quinn@example.com', userId: 'quinn-1' }),
        await send('POST', '/v1/events/send', { email: 'quinn@example.com', eventName: 'other' }),
        await send('POST', '/v1/events/send', { email: 'ada@example.com', eventName: 'other' }),
        await send('PUT', '/v1/contacts/update', { email: 'Quinn@New.example.com', userId: 'quinn-1' }),
        await send('POST', '/v1/contacts/create', { email: 'quinn@example.com' }),
      ];
      for (const to of ['quinn@new.example.com', 'quinn@example.com', 'ada@example.com', 'bob@example.com'])
        answers.push(await send('POST', '/v1/events/send', { email: to, eventName: 'nudge' }));
      answers.push(await send('POST', '/_sandbox/clock', { advance: '1h' }));
      answers.push(await send('GET', '/_sandbox/journeys?workflow=wf_nudge'));
      return answers;
    };
    const { state } = sandboxWithWorkflows(...workflows);
    // Bob was sent the other workflow's email by a journey no longer kept (past those ended that are): found by address.
    (state.outbox as unknown[]).push({
      kind: 'workflow',
      at: '2024-10-01T08:00:00.000Z',
      to: 'bob@example.com',
      loopId: 'wf_other',
      loopName: 'other',
      nodeId: 'welcome',
      journeyId: 'jgone',
      emailMessageId: 'msg_Welcome',
      subject: 'Welcome',
      contact: {},
      eventProperties: {},
    });
    const inFile = await fileSandbox(structuredClone(state));
    const inMemory = await scenario(memorySandbox(state));
    expect(await scenario(inFile.send)).toEqual(inMemory);
    const outcomes = (inMemory.at(-1)!.body.journeys as Journey[]).map((journey) => [journey.email, journey.steps.at(-1)!.outcome]);
    expect(outcomes).toEqual([
      ['quinn@new.example.com', 'exited'],
      ['quinn@example.com', 'filtered-out'],
      ['ada@example.com', 'exited'],
      ['bob@example.com', 'exited'],
    ]);
  });

  it('are a row each, found through the index by contact, workflow and place', async () => {
    const state = seedState();
    freezeClock(state);
    const { send, file } = await fileSandbox(state);
    expect((await send('POST', '/v1/contacts/create', { email: 'pat@example.com', mailingLists: { [newsletter]: true } })).status).toBe(200);
    const rows = query(file, "SELECT key1, place FROM rows WHERE slice = 'journeys' ORDER BY position");
    // Grace held by the paused test (the seed's), and Pat waiting two days into the welcome series.
    expect(rows).toEqual([
      { key1: seedId('workflow/Beta onboarding subject test'), place: `h${seedId('workflow/Beta onboarding subject test')}` },
      { key1: seedId('workflow/Welcome series'), place: 't2024-11-03T08:00:00.000Z' },
    ]);
    expect(query(file, "SELECT count(*) AS members FROM members WHERE key IN ('journeys', 'outbox')")).toEqual([{ members: 0 }]);
    expect(query(file, 'SELECT key FROM row_slices ORDER BY key').map((row) => row.key)).toEqual(['contacts', 'journeys', 'outbox']);
  });

  it('are written a row at a time: a create that starts a journey adds one journey row and one outbox row, and a send one outbox row', async () => {
    const state = seedState();
    freezeClock(state);
    const waiting = { ...(state.journeys as { journeys: Record<string, Journey> }).journeys };
    const [grace] = Object.values(waiting);
    const setting = state.journeys as { journeys: Record<string, Journey>; held: Record<string, string[]> };
    for (let index = 0; index < 300; index += 1) {
      const id = `jheld${index}`;
      setting.journeys[id] = { ...grace!, id, contactId: `cheld${index}` };
      setting.held[grace!.workflowId]!.push(id);
    }
    const { send, file } = await fileSandbox(state);
    // Every write to the file, as SQLite itself sees it, written down beside it.
    query(file, 'CREATE TABLE writes (what TEXT)');
    for (const [event, row] of [
      ['INSERT', "'row added ' || new.slice"],
      ['UPDATE', "'row ' || new.slice || ' ' || new.id"],
      ['DELETE', "'row gone ' || old.slice || ' ' || old.id"],
    ])
      query(file, `CREATE TRIGGER logged_rows_${event} AFTER ${event} ON rows BEGIN INSERT INTO writes VALUES (${row}); END`);
    query(file, `CREATE TRIGGER logged_members AFTER UPDATE ON members BEGIN INSERT INTO writes VALUES ('member ' || new.key); END`);
    const writes = () => query(file, 'SELECT what FROM writes').map((write) => write.what);
    expect((await send('POST', '/v1/contacts/create', { email: 'pat@example.com', mailingLists: { [newsletter]: true } })).status).toBe(200);
    expect(
      writes()
        .filter((what) => String(what).startsWith('row'))
        .sort(),
    ).toEqual(['row added contacts', 'row added journeys', 'row added outbox']);
    query(file, 'DELETE FROM writes');
    const receipt = seedId('transactional/Order receipt');
    const dataVariables = { orderNumber: 1042, items: '2 mugs', total: '$24', invoiceUrl: 'https://acme.example/i' };
    expect((await send('POST', '/v1/transactional', { transactionalId: receipt, email: 'ada@example.com', dataVariables })).status).toBe(200);
    expect(writes().filter((what) => String(what).startsWith('row'))).toEqual(['row added outbox']);
    // A send's row is found by no recipient: only a workflow's emails are, for a filter on what a contact was sent.
    expect(query(file, "SELECT key1 FROM rows WHERE slice = 'outbox' ORDER BY position DESC LIMIT 1")).toEqual([{ key1: null }]);
    query(file, 'DELETE FROM writes');
    // Pat's wait ends: Pat's journey row is written, and no other.
    expect((await send('POST', '/_sandbox/clock', { advance: '3d' })).body.released).toBe(1);
    expect(writes().filter((what) => String(what).startsWith('row journeys'))).toHaveLength(1);
    expect(writes()).not.toContain('member journeys');
  });

  it('release the contacts a paused workflow held once it sends again', async () => {
    const state = seedState();
    freezeClock(state);
    const file = join(tempDir('loopsctl-state-journeys-'), 'state.db');
    writeState(file, state);
    const core = await openCore({ stateFile: file, rateLimit: false });
    try {
      const send = async (method: string, target: string, body?: unknown) =>
        core.answer(
          {
            method,
            target,
            headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
            body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
          },
          'http://sandbox.invalid',
        );
      const grace = async () => ((await send('GET', '/_sandbox/journeys?contact=grace%40example.com')).body as { journeys: Journey[] }).journeys[0]!;
      // Grace, held behind an email of the demo's paused beta test, while it stays paused.
      expect((await send('POST', '/_sandbox/clock', { advance: '1h' })).status).toBe(200);
      expect((await grace()).steps.at(-1)!.outcome).toBe('held');
      // The person resumes it in the app: the next request lets Grace go on, and she is sent its email.
      const workflows = stateIn(file).workflows as { name: string; status: string }[];
      workflows.find((workflow) => workflow.name === 'Beta onboarding subject test')!.status = 'Sending';
      setMember(file, 'workflows', JSON.stringify(workflows));
      expect((await send('POST', '/_sandbox/clock', { advance: '1m' })).status).toBe(200);
      const steps = (await grace()).steps.map((step) => step.outcome);
      expect(steps).toContain('released');
      expect(steps).toContain('sent');
    } finally {
      await core.close();
    }
  });

  it('keep the ended ones they keep in memory, the oldest going first', async () => {
    const state = seedState();
    freezeClock(state);
    const ended = (index: number): Journey => ({
      id: `jended${index}`,
      workflowId: 'wf_gone',
      workflowName: 'Gone',
      contactId: `c${index}`,
      email: `e${index}@example.com`,
      status: 'ended',
      nodeId: null,
      waitUntil: null,
      startedAt: '2024-01-01T00:00:00.000Z',
      endedAt: new Date(Date.UTC(2024, 0, 1) + index).toISOString(),
      eventName: null,
      eventProperties: {},
      downstreamFilters: [],
      steps: [],
    });
    const setting = state.journeys as { ended: Journey[] };
    for (let index = 0; index < KEPT_ENDED * 2; index += 1) setting.ended.push(ended(index));
    const { send, file } = await fileSandbox(state);
    // Sam waits in the welcome series, and Sam's journey ends when Sam is deleted: one ended more than twice those kept.
    expect((await send('POST', '/v1/contacts/create', { email: 'sam@example.com', mailingLists: { [newsletter]: true } })).status).toBe(200);
    expect((await send('POST', '/v1/contacts/delete', { email: 'sam@example.com' })).status).toBe(200);
    const count = (sql: string) => Number(query(file, sql)[0]!.count);
    expect(count("SELECT count(*) AS count FROM rows WHERE slice = 'journeys' AND place LIKE 'e%'")).toBe(KEPT_ENDED);
    expect(count("SELECT count(*) AS count FROM rows WHERE slice = 'journeys' AND id = 'jended0'")).toBe(0);
    // An ended journey is no longer found by its workflow, as those waiting are.
    expect(count("SELECT count(*) AS count FROM rows WHERE slice = 'journeys' AND place LIKE 'e%' AND key1 IS NOT NULL")).toBe(0);
    expect(count(`SELECT count(*) AS count FROM rows WHERE slice = 'journeys' AND id = 'jended${KEPT_ENDED * 2 - 1}'`)).toBe(1);
  });
});
