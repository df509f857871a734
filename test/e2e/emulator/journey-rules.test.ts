/**
 * The rules of the sandbox's clock and of journeys that a change could break unseen, each checked
 * through what an app sees (the `loopsctl/sandbox` API, the sandbox's routes, `workflow test`): a
 * week is seven days and one move at most 400; a wait is released at its exact end, and waits of
 * several contacts in time order; a trigger that is not re-eligible never starts a contact again;
 * an unsubscribed contact is sent nothing and enters nothing; each email sent counts once; an
 * experiment puts a contact in the same variant whatever the case of its email.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../src/emulator/module.js';
import { type Sandbox, type SandboxOutboxEntry, startSandbox } from '../../../src/emulator/public.js';
import { run } from '../../support/main.js';
import { callSandbox } from '../../support/sandbox-http.js';

const started: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

async function start(): Promise<Sandbox> {
  const sandbox = await startSandbox({ seed: 'demo', clock: 'frozen', rateLimit: false });
  started.push(sandbox);
  return sandbox;
}

const call = callSandbox;

type WorkflowEmail = Extract<SandboxOutboxEntry, { kind: 'workflow' }>;
const workflowEntries = (sandbox: Sandbox) => sandbox.outbox().filter((entry): entry is WorkflowEmail => entry.kind === 'workflow');
const workflowEmails = (sandbox: Sandbox) => workflowEntries(sandbox).map((entry) => `${entry.at} ${entry.to}: ${entry.subject}`);

const T0 = '2024-11-01T08:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NEWSLETTER = seedId('mailing-list/Product updates');

/** A paying contact on the Welcome series' list: welcomed at once, tipped two days later, asked five days after that. */
async function payer(sandbox: Sandbox, email: string, fields: Record<string, unknown> = {}) {
  const created = await call(sandbox, 'POST', '/v1/contacts/create', { email, firstName: 'Pat', plan: 'pro', mailingLists: { [NEWSLETTER]: true }, ...fields });
  expect(created.status).toBe(200);
}

describe("the sandbox's clock", () => {
  it('takes a week as seven days', async () => {
    const sandbox = await start();
    expect((await call(sandbox, 'POST', '/_sandbox/clock', { advance: '1w' })).body.now).toBe(later(7 * DAY));
    await sandbox.advanceClock('2w1d');
    expect(sandbox.now().toISOString()).toBe(later(22 * DAY));
  });

  it('moves 400 days at once, and not a millisecond more, by a duration or to a time', async () => {
    const sandbox = await start();
    const tooFar = await call(sandbox, 'POST', '/_sandbox/clock', { advance: '400d1ms' });
    expect([tooFar.status, tooFar.body.message]).toEqual([400, expect.stringMatching(/^advance is at most 400 days at once, not "400d1ms"/)]);
    expect((await call(sandbox, 'POST', '/_sandbox/clock', { advance: '400d' })).body.now).toBe(later(400 * DAY));
    const to = (days: number, ms = 0) => new Date(Date.parse(T0) + days * DAY + ms).toISOString();
    expect((await call(sandbox, 'POST', '/_sandbox/clock', { to: to(800, 1) })).status).toBe(400);
    expect((await call(sandbox, 'POST', '/_sandbox/clock', { to: to(800) })).body.now).toBe(to(800));
  });
});

describe('releases', () => {
  it('release a wait at its exact end, not a millisecond before', async () => {
    const sandbox = await start();
    await payer(sandbox, 'pat@example.com');
    await sandbox.advanceClock(`${2 * DAY - 1}ms`);
    expect(workflowEmails(sandbox)).toEqual([`${T0} pat@example.com: Welcome aboard, Pat`]);
    await sandbox.advanceClock('1ms');
    expect(workflowEmails(sandbox)).toEqual([`${T0} pat@example.com: Welcome aboard, Pat`, `${later(2 * DAY)} pat@example.com: Five tips for your first week`]);
  });

  it('release the waits of several contacts in the order of their ends, across contacts', async () => {
    const sandbox = await start();
    await payer(sandbox, 'first@example.com');
    await sandbox.advanceClock('1d');
    await payer(sandbox, 'second@example.com');
    await sandbox.setClock(later(10 * DAY));
    expect(workflowEmails(sandbox)).toEqual([
      `${T0} first@example.com: Welcome aboard, Pat`,
      `${later(DAY)} second@example.com: Welcome aboard, Pat`,
      `${later(2 * DAY)} first@example.com: Five tips for your first week`,
      `${later(3 * DAY)} second@example.com: Five tips for your first week`,
      `${later(7 * DAY)} first@example.com: How is it going so far?`,
      `${later(8 * DAY)} second@example.com: How is it going so far?`,
    ]);
  });
  it('release a wait that a release began before a wait already pending that ends later', async () => {
    const sandbox = await start();
    // Pat's tips go out at 2 days; the question then waits until 7 days.
    await payer(sandbox, 'pat@example.com');
    await sandbox.advanceClock('2d');
    // Sam starts a trial at 2 days: an hour's wait, an email, then three days' wait, ending before Pat's.
    expect((await call(sandbox, 'POST', '/v1/contacts/create', { email: 'sam@example.com', projectsCreated: 3 })).status).toBe(200);
    expect((await call(sandbox, 'POST', '/v1/events/send', { email: 'sam@example.com', eventName: 'trial_started' })).status).toBe(200);
    await sandbox.setClock(later(10 * DAY));
    const times = workflowEntries(sandbox).map((entry) => entry.at);
    expect(times).toEqual([...times].sort());
    expect(workflowEmails(sandbox)).toEqual(
      expect.arrayContaining([
        `${later(5 * DAY + HOUR)} sam@example.com: Your trial ends in 4 days`,
        `${later(7 * DAY)} pat@example.com: How is it going so far?`,
      ]),
    );
  });
});

describe('entering and leaving', () => {
  it('never starts a contact again by a trigger that is not re-eligible, even once its journey has ended', async () => {
    const sandbox = await start();
    expect((await call(sandbox, 'POST', '/v1/contacts/create', { email: 'sam@example.com', projectsCreated: 3 })).status).toBe(200);
    expect((await call(sandbox, 'POST', '/v1/events/send', { email: 'sam@example.com', eventName: 'trial_started' })).status).toBe(200);
    await sandbox.advanceClock('60d');
    const [ended] = await sandbox.journeys({ contact: 'sam@example.com' });
    expect(ended!.status).toBe('ended');
    const sent = workflowEntries(sandbox).length;
    expect((await call(sandbox, 'POST', '/v1/events/send', { email: 'sam@example.com', eventName: 'trial_started' })).status).toBe(200);
    await sandbox.advanceClock('60d');
    expect(await sandbox.journeys({ contact: 'sam@example.com' })).toHaveLength(1);
    expect(workflowEntries(sandbox)).toHaveLength(sent);
  });

  it('sends nothing more to a contact who unsubscribes while waiting', async () => {
    const sandbox = await start();
    await payer(sandbox, 'pat@example.com');
    await sandbox.advanceClock('1d');
    expect((await call(sandbox, 'PUT', '/v1/contacts/update', { email: 'pat@example.com', subscribed: false })).status).toBe(200);
    await sandbox.advanceClock('10d');
    expect(workflowEmails(sandbox)).toEqual([`${T0} pat@example.com: Welcome aboard, Pat`]);
    const [journey] = await sandbox.journeys({ contact: 'pat@example.com' });
    expect(journey!.steps.filter((step) => step.outcome === 'skipped').map((step) => step.why)).toEqual([
      'not sent: the contact is unsubscribed',
      'not sent: the contact is unsubscribed',
    ]);
  });

  it('starts no journey for a contact made unsubscribed', async () => {
    const sandbox = await start();
    await payer(sandbox, 'quiet@example.com', { subscribed: false });
    await sandbox.advanceClock('10d');
    expect(await sandbox.journeys({ contact: 'quiet@example.com' })).toEqual([]);
    expect(workflowEmails(sandbox)).toEqual([]);
  });
});

describe('send counts', () => {
  it('count each email a workflow node sent once, in the node metrics', async () => {
    const sandbox = await start();
    await payer(sandbox, 'first@example.com');
    await sandbox.advanceClock('3d');
    // The welcome and the tips: the nodes, and what their metrics say now (the seed's sends, and this one).
    const nodes = [...new Set(workflowEntries(sandbox).map((entry) => `/v1/workflows/${entry.loopId}/nodes/${entry.nodeId}/metrics`))];
    expect(nodes).toHaveLength(2);
    const sends = async () => Promise.all(nodes.map(async (node) => (await call(sandbox, 'GET', node)).body.sends as number));
    const before = await sends();
    await payer(sandbox, 'second@example.com');
    await payer(sandbox, 'third@example.com');
    await sandbox.advanceClock('3d');
    expect(await sends()).toEqual(before.map((count) => count + 2));
  });
});

describe('an experiment', () => {
  it('puts a contact in the same variant whatever the case of its email', async () => {
    const beta = seedId('workflow/Beta onboarding subject test');
    const subjectFor = async (email: string) => {
      const result = await run(['--sandbox', 'workflow', 'test', beta, '--contact', email, '--json']);
      expect(result.code).toBe(0);
      return (result.json() as { emails: { subject: string }[] }).emails.map((email) => email.subject);
    };
    const names = Array.from({ length: 16 }, (_, index) => `Tester.${index}@Example.COM`);
    const mixed = await Promise.all(names.map(subjectFor));
    // Both subject lines come up: the split is not the same for every contact.
    expect(new Set(mixed.flat()).size).toBe(2);
    expect(await Promise.all(names.map((name) => subjectFor(name.toLowerCase())))).toEqual(mixed);
  });
});
