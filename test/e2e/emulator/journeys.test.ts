/**
 * Workflows run in the sandbox through its clock: the demo team's "Trial conversion" and "Welcome
 * series" walked through every branch with a frozen clock, asserting the exact emails, their
 * order and their times; an experiment's split; paused and not-sending workflows; and the clock's
 * refusals.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freezeClock } from '../../../src/emulator/clock.js';
import { seedId } from '../../../src/emulator/module.js';
import { type Sandbox, type SandboxOutboxEntry, startSandbox } from '../../../src/emulator/public.js';
import { outbox } from '../../../src/emulator/routes/sandbox.js';
import { workflows } from '../../../src/emulator/routes/workflow-records.js';
import { type SandboxServer, startServer } from '../../../src/emulator/server.js';

const started: Sandbox[] = [];
const servers: SandboxServer[] = [];
afterEach(async () => {
  await Promise.all([...started.splice(0), ...servers.splice(0)].map((sandbox) => sandbox.close()));
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ seed: 'demo', clock: 'frozen', rateLimit: false, ...options });
  started.push(sandbox);
  return sandbox;
}

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The workflow emails the sandbox sent, oldest first: to whom, what, when. */
function workflowEmails(sandbox: Sandbox): string[] {
  return sandbox
    .outbox()
    .filter((entry): entry is Extract<SandboxOutboxEntry, { kind: 'workflow' }> => entry.kind === 'workflow')
    .map((entry) => `${entry.at} ${entry.to}: ${entry.subject}`);
}

const T0 = '2024-11-01T08:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('Trial conversion, through the clock', () => {
  async function trialSandbox() {
    const sandbox = await start();
    // The demo team has the property the workflow's branch filters on.
    const properties = (await call(sandbox, 'GET', '/v1/contacts/properties?list=custom')).body as { key: string; type: string }[];
    expect(properties).toContainEqual(expect.objectContaining({ key: 'projectsCreated', type: 'number' }));
    for (const [email, projectsCreated] of [
      ['active@example.com', 3],
      ['idle@example.com', 0],
    ] as const) {
      expect((await call(sandbox, 'POST', '/v1/contacts/create', { email, projectsCreated })).status).toBe(200);
    }
    expect((await call(sandbox, 'POST', '/v1/contacts/create', { email: 'unknown@example.com' })).status).toBe(200);
    for (const email of ['active@example.com', 'idle@example.com', 'unknown@example.com']) {
      const sent = await call(sandbox, 'POST', '/v1/events/send', { email, eventName: 'trial_started', eventProperties: { plan: 'pro' } });
      expect(sent.status).toBe(200);
    }
    return sandbox;
  }

  it('sends each branch its emails, in order, at the times its timers give', async () => {
    const sandbox = await trialSandbox();
    expect(sandbox.now().toISOString()).toBe(T0);
    // Every contact waits an hour before the branch: nothing yet.
    expect(workflowEmails(sandbox)).toEqual([]);
    await sandbox.advanceClock('1h');
    expect(workflowEmails(sandbox)).toEqual([`${later(HOUR)} active@example.com: Keep your projects: 20% off your first year`]);
    // Moved far at once, each wait ends at its own time, in order.
    expect((await sandbox.advanceClock('7d')).toISOString()).toBe(later(HOUR + 7 * DAY));
    expect(workflowEmails(sandbox)).toEqual([
      `${later(HOUR)} active@example.com: Keep your projects: 20% off your first year`,
      `${later(HOUR + 30 * MINUTE)} idle@example.com: Your first project in 5 minutes`,
      `${later(HOUR + 3 * DAY)} active@example.com: Your trial ends in 4 days`,
      `${later(HOUR + 30 * MINUTE + 3 * DAY)} idle@example.com: Your trial ends in 4 days`,
    ]);
  });

  it('keeps each contact’s journey: the steps, their times, and why', async () => {
    const sandbox = await trialSandbox();
    await sandbox.advanceClock('5d');
    const trial = seedId('workflow/Trial conversion');
    const [idle] = await sandbox.journeys({ contact: 'idle@example.com', workflow: trial });
    expect(idle!.status).toBe('ended');
    expect(idle!.steps.map((step) => [step.typeName, step.outcome, step.at])).toEqual([
      ['EventTrigger', 'entered', T0],
      ['TimerAction', 'waiting', T0],
      ['TimerAction', 'released', later(HOUR)],
      ['BranchNode', 'branched', later(HOUR)],
      ['AudienceFilter', 'matched', later(HOUR)],
      ['TimerAction', 'waiting', later(HOUR)],
      ['TimerAction', 'released', later(HOUR + 30 * MINUTE)],
      ['SendEmailAction', 'sent', later(HOUR + 30 * MINUTE)],
      ['TimerAction', 'waiting', later(HOUR + 30 * MINUTE)],
      ['TimerAction', 'released', later(HOUR + 30 * MINUTE + 3 * DAY)],
      ['SendEmailAction', 'sent', later(HOUR + 30 * MINUTE + 3 * DAY)],
      ['ExitAction', 'exited', later(HOUR + 30 * MINUTE + 3 * DAY)],
    ]);
    expect(idle!.steps[3]!.why).toBe('took branch 2 of 2, the first whose filter matches');
    const [unknown] = await sandbox.journeys({ contact: 'unknown@example.com' });
    expect(unknown!.steps.at(-1)).toMatchObject({ typeName: 'BranchNode', outcome: 'exited', why: 'no branch matched the contact', at: later(HOUR) });
  });

  it('checks a filter that applies downstream again at each later step', async () => {
    const sandbox = await trialSandbox();
    await sandbox.advanceClock('1h');
    // The idle contact creates a project while waiting for its first email: its branch's filter no longer matches.
    expect((await call(sandbox, 'PUT', '/v1/contacts/update', { email: 'idle@example.com', projectsCreated: 1 })).status).toBe(200);
    await sandbox.advanceClock('4d');
    expect(workflowEmails(sandbox).filter((line) => line.includes('idle@'))).toEqual([]);
    const [idle] = await sandbox.journeys({ contact: 'idle@example.com' });
    expect(idle!.steps.at(-1)).toMatchObject({ outcome: 'filtered-out', at: later(HOUR + 30 * MINUTE) });
  });

  it('enters a contact once: the trigger is not re-eligible', async () => {
    const sandbox = await trialSandbox();
    await call(sandbox, 'POST', '/v1/events/send', { email: 'active@example.com', eventName: 'trial_started' });
    expect(await sandbox.journeys({ contact: 'active@example.com' })).toHaveLength(1);
  });
});

describe('Welcome series, through the clock', () => {
  it('welcomes at once, then tips the paying contacts after two days and asks all of them five days later', async () => {
    const sandbox = await start();
    const newsletter = seedId('mailing-list/Product updates');
    await call(sandbox, 'POST', '/v1/contacts/create', { email: 'payer@example.com', firstName: 'Pat', plan: 'pro', mailingLists: { [newsletter]: true } });
    await call(sandbox, 'POST', '/v1/contacts/create', { email: 'free@example.com', firstName: 'Fran', plan: 'free', mailingLists: { [newsletter]: true } });
    // Not on the workflow's list: enters nothing.
    await call(sandbox, 'POST', '/v1/contacts/create', { email: 'outsider@example.com', plan: 'pro' });
    expect(workflowEmails(sandbox)).toEqual([`${T0} payer@example.com: Welcome aboard, Pat`, `${T0} free@example.com: Welcome aboard, Fran`]);
    await sandbox.setClock(later(10 * DAY));
    expect(workflowEmails(sandbox)).toEqual([
      `${T0} payer@example.com: Welcome aboard, Pat`,
      `${T0} free@example.com: Welcome aboard, Fran`,
      `${later(2 * DAY)} payer@example.com: Five tips for your first week`,
      `${later(7 * DAY)} payer@example.com: How is it going so far?`,
    ]);
    const [free] = await sandbox.journeys({ contact: 'free@example.com' });
    expect(free!.steps.at(-1)).toMatchObject({ typeName: 'AudienceFilter', outcome: 'filtered-out', why: 'does not match segment "Paying customers"' });
    expect(await sandbox.journeys({ contact: 'outsider@example.com' })).toEqual([]);
  });

  // "When paused, email sending is stopped and contacts are queued behind their respective nodes as expected. All contacts
  // that were scheduled to receive an email during the pause will receive it once you resume the Loop."
  // (loops.so/docs/loop-builder/experiments): a timer's wait ends while paused, and the contact is held at the next email.
  it('holds contacts behind their next email while the workflow is paused, and sends it once it sends again', async () => {
    const server = await serverWithClockFrozen();
    const newsletter = seedId('mailing-list/Product updates');
    await inProcess(server, 'POST', '/v1/contacts/create', { email: 'payer@example.com', plan: 'pro', mailingLists: { [newsletter]: true } });
    // The API cannot pause a workflow; the app does, as the state holds it.
    setStatus(server, 'Welcome series', 'Paused');
    await inProcess(server, 'POST', '/_sandbox/clock', { advance: '3d' });
    const journeys = async () => (await inProcess(server, 'GET', '/_sandbox/journeys?contact=payer@example.com')).body.journeys;
    expect((await journeys())[0].steps.slice(-3)).toMatchObject([
      { outcome: 'released', at: later(2 * DAY) },
      { outcome: 'matched', at: later(2 * DAY) },
      { typeName: 'SendEmailAction', outcome: 'held', at: later(2 * DAY) },
    ]);
    setStatus(server, 'Welcome series', 'Sending');
    await inProcess(server, 'POST', '/_sandbox/clock', { advance: '1h' });
    expect((await journeys())[0].steps.slice(-3)).toMatchObject([
      // It goes on with the first request after the workflow sends again, at its time: that move of the clock's, before it moves.
      { outcome: 'released', why: 'the workflow sends again', at: later(3 * DAY) },
      { outcome: 'sent', subject: 'Five tips for your first week', at: later(3 * DAY) },
      { outcome: 'waiting', at: later(3 * DAY) },
    ]);
  });

  it('starts nothing while the workflow is not sending', async () => {
    const server = await serverWithClockFrozen();
    setStatus(server, 'Welcome series', 'Draft');
    const newsletter = seedId('mailing-list/Product updates');
    await inProcess(server, 'POST', '/v1/contacts/create', { email: 'payer@example.com', plan: 'pro', mailingLists: { [newsletter]: true } });
    expect((await inProcess(server, 'GET', '/_sandbox/journeys?contact=payer@example.com')).body.journeys).toEqual([]);
  });
});

/** A sandbox whose state the test changes as the app would (a workflow's status), with its clock frozen at the seed's date. */
async function serverWithClockFrozen(): Promise<SandboxServer> {
  const server = await startServer({ seed: 'demo', rateLimit: false });
  servers.push(server);
  server.update((state) => freezeClock(state));
  return server;
}

function setStatus(server: SandboxServer, name: string, status: string): void {
  server.update((state) => void (workflows.of(state).find((workflow) => workflow.name === name)!.status = status));
}

async function inProcess(server: SandboxServer, method: string, target: string, body?: unknown) {
  const answer = await server.answer({
    method,
    target,
    headers: { authorization: 'Bearer sandbox-key' },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });
  return answer as { status: number; body: any };
}

describe('an experiment', () => {
  it('splits 1,000 contacts by its sampling rate, the same way on every run', async () => {
    const split = async () => {
      const server = await serverWithClockFrozen();
      setStatus(server, 'Beta onboarding subject test', 'Sending');
      const beta = seedId('mailing-list/Beta testers');
      for (let n = 0; n < 1_000; n += 1) {
        expect((await inProcess(server, 'POST', '/v1/contacts/create', { email: `beta${n}@example.com`, mailingLists: { [beta]: true } })).status).toBe(200);
      }
      // Grace, whom the seed holds behind variant B's email, goes on too once the test sends again: only the new contacts are counted.
      return outbox.of(server.state()).flatMap((entry) => (entry.kind === 'workflow' && entry.to !== 'grace@example.com' ? [entry.subject] : []));
    };
    const first = await split();
    expect(first).toHaveLength(1_000);
    const variant = first.filter((subject) => subject === 'Your early access is ready').length;
    // The sampling rate is 50%: the variant gets within 2% of half.
    expect(Math.abs(variant / 1_000 - 0.5)).toBeLessThanOrEqual(0.02);
    expect(await split()).toEqual(first);
  });
});

describe('fixtures that place contacts part-way through a workflow', () => {
  const trial = 'Trial conversion';
  const node = (label: string) => seedId(`workflow/${trial}/${label}`);

  it('starts a contact three days into the trial: its wait counts from the time given', async () => {
    const sandbox = await start({
      fixtures: {
        seed: 'demo',
        contacts: [{ email: 'late@example.com', firstName: 'Lee' }],
        journeys: [{ contact: 'late@example.com', workflow: trial, node: node('wait-3d'), since: later(-2 * DAY) }],
      },
    });
    const [placed] = await sandbox.journeys({ contact: 'late@example.com' });
    expect(placed).toMatchObject({ status: 'waiting', waitUntil: later(DAY) });
    expect(placed!.steps.map((step) => step.outcome)).toEqual(['placed', 'waiting']);
    await sandbox.advanceClock('1d');
    expect(workflowEmails(sandbox)).toEqual([`${later(DAY)} late@example.com: Your trial ends in 4 days`]);
    // A reset brings the fixtures back, the placed contact with them.
    await sandbox.reset();
    expect((await sandbox.journeys({ contact: 'late@example.com' }))[0]).toMatchObject({ status: 'waiting', waitUntil: later(DAY) });
  });

  it('refuses a node the workflow does not have, naming the fixture', async () => {
    const starting = startSandbox({
      clock: 'frozen',
      fixtures: { seed: 'demo', contacts: [{ email: 'late@example.com' }], journeys: [{ contact: 'late@example.com', workflow: trial, node: 'no-such-node' }] },
    });
    await expect(starting).rejects.toThrow(/journeys\[0\]: node: workflow "Trial conversion" has no node no-such-node; its nodes are c\w+ \(EventTrigger\)/);
  });
});

describe('the clock', () => {
  it('reads and moves forward over HTTP, and refuses what it cannot do, naming the field', async () => {
    const sandbox = await start();
    expect((await call(sandbox, 'GET', '/_sandbox/clock')).body).toEqual({ now: T0, frozen: true });
    expect((await call(sandbox, 'POST', '/_sandbox/clock', { advance: '1d12h' })).body).toEqual({ now: later(36 * HOUR), frozen: true, released: 0 });
    for (const [body, words] of [
      [{ advance: '-1d' }, /^advance must move the clock forward/],
      [{ advance: '10y' }, /^advance is at most 400 days at once/],
      [{ advance: 'soon' }, /^advance must be a duration/],
      [{ to: '2024-01-01T00:00:00Z' }, /^to must not move the clock back/],
      [{ to: 'tomorrow' }, /^to must be an ISO 8601 time/],
      [{}, /^give one of advance/],
    ] as const) {
      const refused = await call(sandbox, 'POST', '/_sandbox/clock', body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(words);
    }
    await expect(sandbox.advanceClock('-1d')).rejects.toThrow(RangeError);
    expect(sandbox.now().toISOString()).toBe(later(36 * HOUR));
  });

  it('runs with the system clock by default, and dates records with it', async () => {
    const sandbox = await start({ clock: 'system' });
    const before = Date.now();
    await sandbox.advanceClock('2d');
    const moved = sandbox.now().getTime();
    expect(moved).toBeGreaterThanOrEqual(before + 2 * DAY);
    await call(sandbox, 'POST', '/v1/events/send', { email: 'someone@example.com', eventName: 'anything' });
    expect(Date.parse(sandbox.outbox().at(-1)!.at)).toBeGreaterThanOrEqual(moved);
  });
});
