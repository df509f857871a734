/**
 * Workflows as the platform documents them, through `content check`, `content push` and the
 * sandbox: the documented shapes round-trip, trigger queries are refused as the description says,
 * and a send-email node shows its email message's subject.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

/**
 * Every shape the platform documents and `content check` once refused: an "Immediately" timer
 * ("Set to `0` to move to the next node immediately"), emails as last nodes (the description's
 * SimplifiedWorkflow example ends at a SendEmailAction), an experiment without control ("A control
 * is optional"), a branch's default path, and `audienceFilter: null` (the type is object or null).
 */
const DOCUMENTED = `name: Documented shapes
root: signup
nodes:
  signup:
    type: SignupTrigger
    next: [now]
  now:
    type: TimerAction
    next: [split]
    amount: 0
    unit: m
  split:
    type: ExperimentBranchNode
    next: [variant-a, variant-b]
    samplingRate: 100
  variant-a:
    type: VariantNode
    next: [hello-a]
    isControl: false
  hello-a:
    type: SendEmailAction
    next: []
    email: emails/hello-a/email.json
  variant-b:
    type: VariantNode
    next: [hello-b]
    isControl: false
  hello-b:
    type: SendEmailAction
    next: [branch]
    email: emails/hello-b/email.json
  branch:
    type: BranchNode
    next: [pro, everyone]
  pro:
    type: AudienceFilter
    next: []
    audienceFilter:
      match: all
      conditions:
        - type: property
          key: plan
          operator: equals
          value: pro
  everyone:
    type: AudienceFilter
    next: []
    audienceFilter: null
    appliesDownstream: false
`;

const SUBJECTS = { 'hello-a': 'Welcome, variant A', 'hello-b': 'Welcome, variant B' };

function writeWorkflow(directory: string, yaml: string): void {
  writeFileSync(join(directory, 'workflow.yaml'), yaml);
  for (const [key, subject] of Object.entries(SUBJECTS)) {
    mkdirSync(join(directory, 'emails', key), { recursive: true });
    writeFileSync(
      join(directory, 'emails', key, 'email.json'),
      `${JSON.stringify({ subject, previewText: '', fromName: 'Acme', fromEmail: 'hi', languageCode: 'en' })}\n`,
    );
    writeFileSync(join(directory, 'emails', key, 'email.lmx'), '<Paragraph>Hi {contact.firstName}</Paragraph>\n');
  }
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

/** The pulled workflow's directory whose name starts with this slug. */
function workflowDir(root: string, slug: string): string {
  const name = readdirSync(join(root, 'workflows')).find((entry) => entry.startsWith(`${slug}--`));
  if (name === undefined) throw new Error(`no workflow ${slug} in ${root}`);
  return join(root, 'workflows', name);
}

/** A sandbox of its own (a config directory of its own) and a content directory pulled from it. */
async function pulled() {
  const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
  const loopsctl = (...args: string[]) => run(['--sandbox', ...args], { env });
  const root = join(tempDir('loopsctl-workflow-rules-'), 'loops');
  const pull = await loopsctl('content', 'pull', root, '--only', 'workflows');
  expect(pull.code, pull.stderr).toBe(0);
  return { loopsctl, root };
}

type Graph = { nodes: Record<string, { typeName: string; subject?: string; nextNodeIds: string[] }> };

describe('the shapes the platform documents', () => {
  it('push as a new draft, pull, check clean, and plan nothing', async () => {
    const { loopsctl, root } = await pulled();
    const directory = join(root, 'workflows', 'documented');
    mkdirSync(directory, { recursive: true });
    writeWorkflow(directory, DOCUMENTED);
    const checked = await loopsctl('content', 'check', directory, '--json');
    expect(checked.json()[0].errors, checked.stdout).toEqual([]);

    const push = await loopsctl('content', 'push', root, '--only', 'workflows', '--yes');
    expect(push.code, push.stdout + push.stderr).toBe(0);
    const listed = (await loopsctl('workflows', 'list', '--json')).json() as { id: string; name: string }[];
    const id = listed.find((workflow) => workflow.name === 'Documented shapes')!.id;
    const graph = (await loopsctl('workflows', 'get', id, '--json')).json() as Graph;
    const nodes = Object.values(graph.nodes);
    expect(nodes.map((node) => node.typeName).sort()).toEqual([
      'AudienceFilter',
      'AudienceFilter',
      'BranchNode',
      'ExperimentBranchNode',
      'SendEmailAction',
      'SendEmailAction',
      'SignupTrigger',
      'TimerAction',
      'VariantNode',
      'VariantNode',
    ]);
    // A node created by the push shows its email message's subject, which the push wrote.
    expect(
      nodes
        .filter((node) => node.typeName === 'SendEmailAction')
        .map((node) => node.subject)
        .sort(),
    ).toEqual(Object.values(SUBJECTS));

    const again = await loopsctl('content', 'pull', root, '--only', 'workflows');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    // The pull keeps the directory the push made the workflow from.
    const clean = await loopsctl('content', 'check', directory);
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stderr).toContain('0 errors, 0 warnings');
    const plan = await loopsctl('content', 'push', root, '--only', 'workflows', '--plan');
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).not.toMatch(/createWorkflowNode|updateWorkflowNode|deleteWorkflowNode|rerouteNodeConnection|addWorkflowBranch/);
    expect((await loopsctl('content', 'diff', root, '--only', 'workflows')).code).toBe(0);

    // `workflow test` of the account's workflow sends the subjects the files gave.
    const trial = await loopsctl('workflow', 'test', id, '--contact', JSON.stringify({ email: 'pat@example.com', plan: 'pro' }), '--json');
    expect(trial.code, trial.stderr).toBe(0);
    const sent = (trial.json() as { emails: { subject: string }[] }).emails.map((email) => email.subject);
    expect(sent.length).toBeGreaterThan(0);
    for (const subject of sent) expect(Object.values(SUBJECTS)).toContain(subject);
  });
});

describe('a send-email node and its email message are one record', () => {
  it('a subject changed by content push is what the node and workflow show show', async () => {
    const { loopsctl, root } = await pulled();
    const winBack = workflowDir(root, 'win-back-draft');
    edit(join(winBack, 'emails', 'we-saved-your-workspace', 'email.json'), 'We saved your workspace', 'Your workspace is waiting');
    const push = await loopsctl('content', 'push', root, '--only', 'workflows', '--yes');
    expect(push.code, push.stdout + push.stderr).toBe(0);
    const id = winBack.split('--').at(-1)!;
    const graph = (await loopsctl('workflows', 'get', id, '--json')).json() as Graph;
    expect(Object.values(graph.nodes).flatMap((node) => (node.typeName === 'SendEmailAction' ? [node.subject] : []))).toEqual(['Your workspace is waiting']);
    expect((await loopsctl('workflow', 'show', id)).stdout).toContain('"Your workspace is waiting"');
  });
});

describe('content check of a contact-property trigger query', () => {
  const upgrade = (root: string) => join(workflowDir(root, 'upgrade-thank-you'), 'workflow.yaml');
  const FROM = 'key: plan\n      was:\n        value: free\n        operator: equal\n      is:\n        value: pro\n        operator: equal';

  it('refuses the key createdAt offline, naming the file, the node, the rule and what to write instead', async () => {
    const { loopsctl, root } = await pulled();
    edit(upgrade(root), FROM, FROM.replace('key: plan', 'key: createdAt'));
    const result = await loopsctl('content', 'check', upgrade(root), '--json');
    expect(result.code).toBe(1);
    const [check] = result.json();
    expect(check.file).toBe(upgrade(root));
    expect(check.errors).toEqual([
      expect.objectContaining({
        rule: 'trigger-query',
        message: expect.stringContaining('node "when-plan": contactPropertyQuery.key "createdAt" is not available for Contact Updated triggers'),
        fix: expect.stringContaining('watch a property the team sets on its contacts'),
      }),
    ]);
  });

  it('stops content push before anything is sent: the account keeps its trigger', async () => {
    const { loopsctl, root } = await pulled();
    const id = workflowDir(root, 'upgrade-thank-you').split('--').at(-1)!;
    const before = (await loopsctl('workflows', 'get', id, '--json')).json();
    edit(upgrade(root), FROM, FROM.replace('key: plan', 'key: createdAt'));
    const push = await loopsctl('content', 'push', root, '--only', 'workflows', '--yes', '--live');
    expect(push.code, push.stdout).not.toBe(0);
    expect(push.stderr).toContain('content check');
    expect((await loopsctl('workflows', 'get', id, '--json')).json()).toEqual(before);
  });

  it.each([
    [
      'is: empty on a number property',
      'key: seats',
      'value: free\n        operator: equal\n      is:\n        value: pro\n        operator: equal',
      "value: ''\n        operator: any\n      is:\n        value: ''\n        operator: empty",
      'cannot be used with the number property "seats"',
    ],
    [
      'is: equal on a boolean property',
      'key: betaOptIn',
      'value: free\n        operator: equal',
      "value: ''\n        operator: any",
      'is not valid for the boolean property "betaOptIn"',
    ],
  ])('with --account, refuses %s by the property type the account gives', async (_what, key, from, to, message) => {
    const { loopsctl, root } = await pulled();
    edit(upgrade(root), FROM, FROM.replace('key: plan', key).replace(from, to));
    const result = await loopsctl('content', 'check', upgrade(root), '--account', '--json');
    expect(result.code).toBe(1);
    expect(result.json()[0].errors).toEqual([expect.objectContaining({ rule: 'trigger-query', message: expect.stringContaining(message) })]);
  });
});
