/**
 * The guards that keep `content push` (and `content diff`) of workflows from overwriting or hiding
 * an edit made in the app: each test fails when its guard is taken out.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readState, STATE_FILE } from '../../../../src/areas/content/shared/files.js';
import { emailMessages } from '../../../../src/emulator/routes/email-message-records.js';
import { workflows } from '../../../../src/emulator/routes/workflow-records.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';
import { edit, emailOf, pulledWorkflowsInto, waitTwoDaysBeforeTheExperiment, workflowDir } from '../../../support/workflow-tree.js';

const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));

const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

async function pulledWorkflows(sandbox: RecordingSandbox): Promise<string> {
  const directory = tempDir('loopsctl-push-guards-');
  directories.push(directory);
  return pulledWorkflowsInto(sandbox, join(directory, 'loops'));
}

const pathOf = (directory: string) => `workflows/${directory.split('/').at(-1)}`;

/**
 * A push of the win-back draft (a wait inserted, its email edited) stopped by Ctrl-C once its graph
 * calls were answered and before its email was written; `meanwhile` runs at that moment, as a
 * teammate's edit in the app would.
 */
async function stoppedPush(sandbox: RecordingSandbox, root: string, meanwhile: (workflowId: string) => void = () => {}) {
  const winBack = workflowDir(root, 'win-back-draft');
  const id = winBack.split('--').at(-1)!;
  waitTwoDaysBeforeTheExperiment(join(winBack, 'workflow.yaml'));
  edit(emailOf(winBack), '<Paragraph>Hi {contact.firstName},</Paragraph>', '<Paragraph>Welcome back, {contact.firstName}.</Paragraph>');
  const stop = new AbortController();
  let reachedRevision: string | null | undefined;
  let wrote = false;
  const recorded = sandbox.requests;
  const push = recorded.push.bind(recorded);
  recorded.push = (...items: Recorded[]) => {
    const count = push(...items);
    wrote ||= items.some((item) => item.method !== 'GET');
    // The email's write begins by reading its node, after the graph's calls: every one of them has been answered.
    if (wrote && !stop.signal.aborted && items.some((item) => item.method === 'GET' && /\/nodes\/[^/]+$/.test(item.path))) {
      reachedRevision = workflows.of(sandbox.server.state()).find((workflow) => workflow.id === id)!.workflowRevisionId;
      meanwhile(id);
      stop.abort();
    }
    return count;
  };
  const stopped = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows'], { signal: stop.signal });
  recorded.push = push;
  expect(stopped.code, stopped.stderr).toBe(130);
  expect(stopped.stderr).toContain('interrupted');
  const marker = (readState(root)!.accounts['Acme Sandbox']![pathOf(winBack)] as { pushing?: { workflowRevisionId: string } }).pushing;
  expect(marker?.workflowRevisionId).toBe(reachedRevision);
  sandbox.requests.length = 0;
  return winBack;
}

describe('a workflow push that stopped half-way', () => {
  it('is finished by the next push when the account is where its own writes left it', async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    await stoppedPush(sandbox, root);
    const plan = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/ {2}1\. updateEmailMessage we-saved-your-workspace/);
    expect(plan.stdout).not.toContain('createWorkflowNode');
    const finished = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows']);
    expect(finished.code, finished.stderr).toBe(0);
    const diff = await sandbox.loopsctl(['content', 'diff', root, '--only', 'workflows']);
    expect(diff.code, diff.stdout).toBe(0);
  });

  it('takes an edit made in the app after it stopped for a conflict, and overwrites it only with --force', async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    const winBack = await stoppedPush(sandbox, root, (id) =>
      sandbox.server.update((state) => {
        // A teammate's edit in the app: the workflow moves past the revision the push reached.
        const workflow = workflows.of(state).find((candidate) => candidate.id === id)!;
        workflow.description = 'Edited in the app';
        workflow.workflowRevisionId = 'edited-in-the-app';
      }),
    );
    const push = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows']);
    expect(push.code).toBe(5);
    expect(push.stderr).toContain('Not pushed: 1 workflow conflict');
    expect(push.stdout).toContain(pathOf(winBack));
    expect(push.stdout).toMatch(/changed in the account/);
    expect(writes(sandbox.requests)).toEqual([]);
    const forced = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(writes(sandbox.requests).length).toBeGreaterThan(0);
  });

  it("takes an edit of the workflow's email made in the app after it stopped for a conflict, though the workflow's revision is the one it reached", async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    const winBack = await stoppedPush(sandbox, root, () =>
      sandbox.server.update((state) => {
        // A teammate's edit of the email the push had not written yet: its content revision moves, the workflow's does not.
        const stored = emailMessages.of(state).find(({ message }) => message.subject === 'We saved your workspace')!;
        stored.message.lmx = '<Paragraph>Edited in the app</Paragraph>\n';
        stored.message.contentRevisionId = 'edited-in-the-app';
      }),
    );
    const push = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows']);
    expect(push.code).toBe(5);
    expect(push.stderr).toContain('Not pushed: 1 workflow conflict');
    expect(push.stdout).toContain(pathOf(winBack));
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

describe('a workflow push, guarded by revisions', () => {
  it("sends each email's update with the content revision it was pulled at", async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    const winBack = workflowDir(root, 'win-back-draft');
    const pulled = (readState(root)!.accounts['Acme Sandbox']![pathOf(winBack)] as unknown as { emails: Record<string, string> }).emails[
      'we-saved-your-workspace'
    ];
    expect(pulled).toEqual(expect.any(String));
    edit(emailOf(winBack), '<Paragraph>Hi {contact.firstName},</Paragraph>', '<Paragraph>Welcome back, {contact.firstName}.</Paragraph>');
    const push = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows']);
    expect(push.code, push.stderr).toBe(0);
    const update = writes(sandbox.requests).find((request) => request.path.startsWith('/v1/email-messages/'));
    expect(update?.body).toMatchObject({ expectedRevisionId: pulled });
  });

  it('takes a workflow the state has no record of for a conflict, and writes nothing of it', async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    const winBack = workflowDir(root, 'win-back-draft');
    const stateFile = join(root, STATE_FILE);
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    delete state.accounts['Acme Sandbox'][pathOf(winBack)];
    writeFileSync(stateFile, JSON.stringify(state));
    edit(join(winBack, 'workflow.yaml'), 'samplingRate: 20', 'samplingRate: 25');
    const push = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows']);
    expect(push.code).toBe(5);
    expect(push.stderr).toContain('Not pushed: 1 workflow conflict');
    expect(push.stdout).toContain('never pulled from');
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('pairs a directory by name with no workflow when the account has two of that name', async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    const winBack = workflowDir(root, 'win-back-draft');
    sandbox.server.update((state) => {
      const original = workflows.of(state).find((workflow) => workflow.name === 'Win-back (draft)')!;
      workflows.of(state).push({ ...structuredClone(original), id: 'cwinbacktwin000000000000' });
    });
    // A directory of no account: named by hand, known to no state.
    const copy = join(root, 'workflows', 'win-back');
    cpSync(winBack, copy, { recursive: true });
    rmSync(winBack, { recursive: true });
    const stateFile = join(root, STATE_FILE);
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    delete state.accounts['Acme Sandbox'][pathOf(winBack)];
    writeFileSync(stateFile, JSON.stringify(state));
    edit(join(copy, 'workflow.yaml'), 'samplingRate: 20', 'samplingRate: 25');
    const plan = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = plan.json().plan.find((entry: { path: string }) => entry.path === 'workflows/win-back');
    expect(planned).toMatchObject({ action: 'create' });
    expect(planned.id).toBeUndefined();
  });
});

describe('content diff and push of a graph edit', () => {
  it('content diff names a node removed from the file', async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    const yaml = join(workflowDir(root, 'win-back-draft'), 'workflow.yaml');
    edit(yaml, '  trigger:\n    type: BlankTrigger\n    next: [dormant]', '  trigger:\n    type: BlankTrigger\n    next: [experiment]');
    edit(yaml, '  dormant:\n    type: AudienceFilter\n    next: [experiment]\n    segment: Dormant\n    appliesDownstream: true\n', '');
    const diff = await sandbox.loopsctl(['content', 'diff', root, '--only', 'workflows']);
    expect(diff.code).toBe(1);
    expect(diff.stderr).toContain('1 record differs between');
    expect(diff.stdout).toContain('  - node dormant (AudienceFilter): segment "Dormant", appliesDownstream true; next [experiment]');
  });

  it('clears a segment and a filter left out of the file', async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    edit(join(workflowDir(root, 'win-back-draft'), 'workflow.yaml'), '    segment: Dormant\n', '');
    const trial = join(workflowDir(root, 'trial-conversion'), 'workflow.yaml');
    const text = readFileSync(trial, 'utf8');
    const filter = /( {2}filter:\n {4}type: AudienceFilter\n {4}next: \[keep-your-projects-20\]\n)( {4}audienceFilter:\n(?: {6}.*\n)+)/.exec(text)!;
    writeFileSync(trial, text.replace(filter[0], filter[1]!));
    const plan = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan', '--live', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const steps = Object.fromEntries(plan.json().plan.map((entry: { path: string; steps: unknown[] }) => [entry.path.replace(/--.*$/, ''), entry.steps]));
    expect(steps['workflows/win-back-draft']).toEqual([{ op: 'updateWorkflowNode', key: 'dormant', payload: { segment: null } }]);
    expect(steps['workflows/trial-conversion']).toEqual([{ op: 'updateWorkflowNode', key: 'filter', payload: { audienceFilter: null } }]);
    const push = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows']);
    expect(push.code, push.stderr).toBe(5);
    expect(push.stderr).toContain('1 workflow skipped');
    const sent = writes(sandbox.requests).filter((request) => request.path.includes('/nodes/'));
    expect(sent.map((request) => request.body)).toEqual([expect.objectContaining({ payload: { audienceSegmentId: null } })]);
  });

  it('refuses to delete a branch recursively while the file keeps a node only it leads to', async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflows(sandbox);
    const yaml = join(workflowDir(root, 'trial-conversion'), 'workflow.yaml');
    // The branch goes, and the wait leads straight to the first filter: the filter is kept, though only the branch leads to it.
    edit(yaml, '    next: [branch]\n', '    next: [filter]\n');
    edit(yaml, '  branch:\n    type: BranchNode\n    next: [filter, filter-2]\n', '');
    const text = readFileSync(yaml, 'utf8');
    writeFileSync(yaml, text.slice(0, text.indexOf('  filter-2:\n')));
    const plan = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan', '--live']);
    expect(plan.code).toBe(5);
    expect(plan.stderr).toContain('0 workflows to change, 1 skipped');
    expect(plan.stdout).toMatch(/branch leads to [^:]*filter, keep-your-projects-20, which the file keeps/);
    expect(plan.stdout).not.toContain('deleteWorkflowNodeRecursively');
  });
});
