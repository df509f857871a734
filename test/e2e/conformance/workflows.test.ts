/**
 * The conformance suite: every scenario of workflow-scenarios.ts (each a sentence the platform
 * published about how it runs workflows) through the three places loopsctl says what a workflow
 * does: `content check` (whether the platform takes it), `workflow test --file` (the emails a
 * contact gets, offline) and a running sandbox (the workflow pushed with `content push`, started,
 * and the contacts run through it on its clock). The three answer alike, or this fails.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freezeClock } from '../../../src/emulator/clock.js';
import { type StateCore, seedId } from '../../../src/emulator/module.js';
import { findMessage } from '../../../src/emulator/routes/email-message-records.js';
import { outbox } from '../../../src/emulator/routes/sandbox.js';
import { type StoredWorkflow, workflows } from '../../../src/emulator/routes/workflow-records.js';
import { contentTree } from '../../support/content-tree.js';
import { run, tempDir } from '../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../support/recording.js';
import { type ContactRun, type SandboxStep, SCENARIOS, type Scenario } from './workflow-scenarios.js';

const sandboxes = sandboxEachTest();
const LISTS: Record<string, string> = { 'Product updates': seedId('mailing-list/Product updates'), 'Beta testers': seedId('mailing-list/Beta testers') };

const slugOf = (scenario: Scenario) =>
  scenario.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The scenario's workflow and its emails, as files under a content tree's root. */
function filesOf(scenario: Scenario): Record<string, string> {
  const dir = `workflows/${slugOf(scenario)}`;
  const files: Record<string, string> = { [`${dir}/workflow.yaml`]: scenario.workflow };
  for (const [slug, subject] of Object.entries(scenario.subjects)) {
    files[`${dir}/emails/${slug}/email.json`] = `${JSON.stringify({ subject, fromName: 'Acme', fromEmail: 'hi' })}\n`;
    files[`${dir}/emails/${slug}/email.lmx`] = '<Paragraph>Hello</Paragraph>\n';
  }
  return files;
}

/** A content tree holding the scenario's workflow and its emails; the workflow's directory. */
function treeOf(scenario: Scenario): { root: string; dir: string } {
  const root = contentTree(filesOf(scenario));
  return { root, dir: join(root, 'workflows', slugOf(scenario)) };
}

/** The scenario's workflow pushed into a sandbox (beside the workflows a pull wrote) as a new draft, then started, with the sandbox's clock stopped. */
async function pushedAndStarted(scenario: Scenario): Promise<{ sandbox: RecordingSandbox; workflow: () => StoredWorkflow }> {
  const sandbox = await sandboxes();
  sandbox.server.update((state) => freezeClock(state));
  const root = join(tempDir('loopsctl-conformance-'), 'loops');
  const pulled = await sandbox.loopsctl(['content', 'pull', root, '--only', 'workflows']);
  expect(pulled.code, pulled.stderr).toBe(0);
  for (const [path, text] of Object.entries(filesOf(scenario))) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const pushed = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--yes']);
  expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
  const name = /^name: (.+)$/m.exec(scenario.workflow)![1]!;
  const workflow = () => workflows.of(sandbox.server.state()).find((each) => each.name === name)!;
  sandbox.server.update((state) => void (workflows.of(state).find((each) => each.name === name)!.status = 'Sending'));
  return { sandbox, workflow };
}

async function call(sandbox: RecordingSandbox, method: string, target: string, body?: unknown) {
  const answer = await sandbox.server.answer({
    method,
    target,
    headers: { authorization: 'Bearer sandbox-key' },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });
  expect(answer.status, `${method} ${target}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body as any;
}

/** The contact created (on the workflow's list), and the event its trigger waits for sent. */
async function enter(
  sandbox: RecordingSandbox,
  workflow: StoredWorkflow,
  contact: ContactRun['contact'],
  event?: string,
  change?: ContactRun['change'],
): Promise<void> {
  const lists = workflow.mailingListId === null ? {} : { mailingLists: { [workflow.mailingListId]: true } };
  await call(sandbox, 'POST', '/v1/contacts/create', { ...contact, ...lists });
  if (change !== undefined) await call(sandbox, 'PUT', '/v1/contacts/update', { email: contact.email, ...change });
  const trigger = workflow.nodes.find((node) => node.id === workflow.rootNodeId)!;
  if (trigger.typeName === 'EventTrigger') await call(sandbox, 'POST', '/v1/events/send', { email: contact.email, eventName: event ?? trigger.eventName });
}

/** The subjects of the emails this workflow sent the contact, in order, as their email messages have them. */
function sentTo(state: StateCore, workflow: StoredWorkflow, to: string): string[] {
  return outbox
    .of(state)
    .flatMap((entry) =>
      entry.kind === 'workflow' && entry.to === to && entry.loopId === workflow.id ? [findMessage(state, entry.emailMessageId)!.message.subject] : [],
    );
}

async function step(sandbox: RecordingSandbox, workflow: () => StoredWorkflow, email: string, done: SandboxStep): Promise<void> {
  await call(sandbox, 'POST', '/_sandbox/clock', { advance: done.after });
  const current = workflow();
  switch (done.do) {
    case 'status':
      return sandbox.server.update((state) => void (workflows.of(state).find((each) => each.id === current.id)!.status = done.status));
    case 'unsubscribe':
      return void (await call(sandbox, 'PUT', '/v1/contacts/update', { email, subscribed: false }));
    case 'update':
      return void (await call(sandbox, 'PUT', '/v1/contacts/update', { email, ...done.fields }));
    case 'event': {
      const trigger = current.nodes.find((node) => node.id === current.rootNodeId)!;
      return void (await call(sandbox, 'POST', '/v1/events/send', { email, eventName: trigger.eventName }));
    }
    case 'set-list':
      return void (await call(sandbox, 'POST', `/v1/workflows/${current.id}/mailing-list`, {
        expectedRevisionId: current.workflowRevisionId,
        mailingListId: LISTS[done.list],
        queuedContactPolicy: 'discard',
      }));
    case 'delete-node': {
      const node = current.nodes.find((each) => each.typeName === done.type)!;
      return void (await call(sandbox, 'DELETE', `/v1/workflows/${current.id}/nodes/${node.id}`, {
        expectedRevisionId: current.workflowRevisionId,
        queuedContactPolicy: 'discard',
      }));
    }
  }
}

describe.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s', (_name, scenario) => {
  it(`content check: ${scenario.check === 'clean' ? 'takes it' : `refuses it (${scenario.check.join(', ')})`}, as the platform says: "${scenario.platform}" (${scenario.source})`, async () => {
    const result = await run(['content', 'check', treeOf(scenario).root, '--json']);
    const errors = (result.json() as { errors: { rule: string }[] }[]).flatMap((file) => file.errors.map((problem) => problem.rule));
    expect(errors).toEqual(scenario.check === 'clean' ? [] : scenario.check);
    expect(result.code).toBe(scenario.check === 'clean' ? 0 : 1);
  });

  it('workflow test --file: each contact gets the emails the platform sends it', async () => {
    const sandbox = await sandboxes();
    const { dir } = treeOf(scenario);
    for (const { contact, event, emails, notStarted } of scenario.runs) {
      const result = await sandbox.loopsctl([
        'workflow',
        'test',
        '--file',
        dir,
        '--contact',
        JSON.stringify(contact),
        ...(event === undefined ? [] : ['--event', event]),
        '--json',
      ]);
      expect(result.code, result.stderr).toBe(0);
      const trial = result.json() as { emails: { subject: string }[]; notStarted?: string };
      expect([contact.email, trial.emails.map(({ subject }) => subject), trial.notStarted !== undefined]).toEqual([contact.email, emails, notStarted === true]);
    }
  });

  it('the running sandbox: each contact gets the same emails, and what is done to a journey under way is done as the platform does it', async () => {
    const { sandbox, workflow } = await pushedAndStarted(scenario);
    for (const { contact, event, change, emails, notStarted } of scenario.runs) {
      await enter(sandbox, workflow(), contact, event, change);
      await call(sandbox, 'POST', '/_sandbox/clock', { advance: '30d' });
      const journeys = (await call(sandbox, 'GET', `/_sandbox/journeys?contact=${encodeURIComponent(contact.email)}&workflow=${workflow().id}`)).journeys;
      expect([contact.email, sentTo(sandbox.server.state(), workflow(), contact.email), journeys.length === 0]).toEqual([
        contact.email,
        emails,
        notStarted === true,
      ]);
    }
    if (scenario.sandbox === undefined) return;
    const { contact, steps, emails } = scenario.sandbox;
    await enter(sandbox, workflow(), contact);
    for (const done of steps) await step(sandbox, workflow, contact.email, done);
    await call(sandbox, 'POST', '/_sandbox/clock', { advance: '30d' });
    expect(sentTo(sandbox.server.state(), workflow(), contact.email)).toEqual(emails);
  });
});
