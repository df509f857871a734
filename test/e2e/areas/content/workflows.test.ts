import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readState } from '../../../../src/areas/content/files.js';
import { contentTree } from '../../../support/content-tree.js';
import { run, tempDir } from '../../../support/main.js';
import { sandboxEachTest, type Recorded } from '../../../support/recording.js';

const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
function contentDir(): string {
  const directory = tempDir('loopsctl-workflows-');
  directories.push(directory);
  return join(directory, 'loops');
}

const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

/** Every file under a directory, by path, with its text. */
function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (directory: string, prefix: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(join(directory, entry.name), `${path}/`);
      else files.set(path, readFileSync(join(directory, entry.name), 'utf8'));
    }
  };
  walk(root, '');
  return files;
}

describe('content pull of workflows', () => {
  it('writes the five seed workflows, and a second pull changes no key and no file', async () => {
    const sandbox = await sandboxes();
    const root = contentDir();
    const first = await sandbox.loopsctl(['content', 'pull', root, '--only', 'workflows']);
    expect(first.code, first.stderr).toBe(0);
    const directories = readdirSync(join(root, 'workflows'));
    expect(directories.map((name) => name.replace(/--.*$/, '')).sort()).toEqual([
      'beta-onboarding-subject-test',
      'trial-conversion',
      'upgrade-thank-you',
      'welcome-series',
      'win-back-draft',
    ]);
    const trial = directories.find((name) => name.startsWith('trial-conversion'))!;
    const yaml = readFileSync(join(root, 'workflows', trial, 'workflow.yaml'), 'utf8');
    expect(yaml).toContain('root: on-trial-started\n');
    expect(yaml).toContain('  wait-1h:\n    type: TimerAction\n    next: [branch]\n    amount: 1\n    unit: h\n');
    expect(yaml).toContain('  branch:\n    type: BranchNode\n    next: [filter, filter-2]\n');
    expect(yaml).toContain('status: Sending # as pulled; read-only');
    expect(yaml).toMatch(/email: emails\/keep-your-projects-20\/email\.json/);
    expect(readFileSync(join(root, 'workflows', trial, 'emails', 'your-trial-ends-in', 'email.lmx'), 'utf8')).toContain('<H1>');
    const welcome = readFileSync(join(root, 'workflows', directories.find((name) => name.startsWith('welcome-series'))!, 'workflow.yaml'), 'utf8');
    expect(welcome).toContain('mailingList: Product updates\n');
    expect(welcome).toContain('segment: Paying customers\n');
    const state = readState(root)!;
    expect(state.kinds).toEqual(['workflows']);
    const record = state.accounts['Acme Sandbox']![`workflows/${trial}`] as unknown as { nodes: Record<string, string> };
    expect(Object.keys(record.nodes)).toContain('wait-1h');

    const before = snapshot(root);
    const second = await sandbox.loopsctl(['content', 'pull', root, '--only', 'workflows']);
    expect(second.code, second.stderr).toBe(0);
    expect(snapshot(root)).toEqual(before);
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

const WORKFLOW = 'workflows/onboarding--wf1';
const EMAIL = '{"subject":"Hello","fromName":"Acme","fromEmail":"hi@acme.example"}\n';

/** A tree with one workflow, its workflow.yaml as given, and the email it names. */
function workflowTree(yaml: string, lmx = '<Paragraph>Hi {contact.firstName}</Paragraph>\n') {
  return contentTree({
    [`${WORKFLOW}/workflow.yaml`]: yaml,
    [`${WORKFLOW}/emails/hello/email.json`]: EMAIL,
    [`${WORKFLOW}/emails/hello/email.lmx`]: lmx,
  });
}

const GOOD = `name: Onboarding
root: signup
nodes:
  signup:
    type: SignupTrigger
    next: [wait-1h]
  wait-1h:
    type: TimerAction
    next: [hello]
    amount: 1
    unit: h
  hello:
    type: SendEmailAction
    next: [exit]
    email: emails/hello/email.json
  exit:
    type: ExitAction
    next: []
`;

describe('content check of workflows', () => {
  it('passes a sound workflow, with no key and no request', async () => {
    const root = workflowTree(GOOD);
    const result = await run(['content', 'check', root]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toContain('Checked 2 files: 0 errors, 0 warnings.');
  });

  it.each([
    ['a next naming a missing key', GOOD.replace('next: [hello]', 'next: [helo]'), 'next-exists', 'wait-1h'],
    ['a cycle', GOOD.replace('next: [exit]\n    email', 'next: [wait-1h]\n    email'), 'no-cycle', 'wait-1h'],
    ['a node no path reaches', `${GOOD}  orphan:\n    type: ExitAction\n    next: []\n`, 'reachable', 'orphan'],
    ['a wait of nothing', GOOD.replace('amount: 1', 'amount: 0'), 'timer-amount', 'wait-1h'],
    ['a type the API does not know', GOOD.replace('type: TimerAction', 'type: SleepAction'), 'node-type', 'wait-1h'],
    ['a root that is not a trigger', GOOD.replace('root: signup', 'root: hello'), 'root-trigger', 'hello'],
    ['a key used twice', `${GOOD}  exit:\n    type: ExitAction\n    next: []\n`, 'key-once', undefined],
    [
      'a branch with one path that is no filter',
      GOOD.replace('next: [hello]\n    amount: 1\n    unit: h', 'next: [split]\n    amount: 1\n    unit: h\n  split:\n    type: BranchNode\n    next: [hello]'),
      'branch-children',
      'split',
    ],
    ['an email whose files are missing', GOOD.replace('emails/hello/email.json', 'emails/bye/email.json'), 'email-file', 'hello'],
    ['a field the type does not have', GOOD.replace('unit: h', 'unit: h\n    colour: red'), 'node-fields', 'wait-1h'],
  ])('finds %s, naming the file, the key and the rule', async (_what, yaml, rule, key) => {
    const root = workflowTree(yaml);
    const result = await run(['content', 'check', root, '--json']);
    expect(result.code).toBe(1);
    const [workflow] = result.json();
    expect(workflow.file).toBe(join(root, WORKFLOW, 'workflow.yaml'));
    const problem = workflow.errors.find((found: { rule: string }) => found.rule === rule);
    expect(problem, JSON.stringify(workflow.errors)).toBeDefined();
    if (key !== undefined) expect(problem.message).toContain(`node "${key}"`);
    expect(problem.fix).not.toBe('');
    const text = await run(['content', 'check', root]);
    expect(text.stdout).toMatch(new RegExp(`workflow\\.yaml:\\d+:\\d+ ${rule} `));
  });

  it("checks a workflow's email as a workflow email: {data.*} is refused, {event.*} taken", async () => {
    const root = workflowTree(GOOD, '<Paragraph>{event.plan} {data.code}</Paragraph>\n');
    const result = await run(['content', 'check', join(root, WORKFLOW), '--json']);
    expect(result.code).toBe(1);
    const email = result.json().find((check: { file: string }) => check.file.endsWith('email.lmx'));
    expect(email.kind).toBe('workflow');
    expect(email.errors.map((problem: { rule: string }) => problem.rule)).toEqual(['variable-namespace']);
  });

  it('warns of a segment no pull has seen, which only the account can confirm', async () => {
    const root = workflowTree(
      GOOD.replace(
        'next: [hello]\n    amount: 1\n    unit: h',
        'next: [pro]\n    amount: 1\n    unit: h\n  pro:\n    type: AudienceFilter\n    next: [hello]\n    segment: Pro users',
      ),
    );
    const result = await run(['content', 'check', root, '--json']);
    expect(result.code).toBe(0);
    expect(result.json()[0].warnings).toEqual([expect.objectContaining({ rule: 'reference', message: expect.stringContaining('"Pro users"') })]);
  });
});
