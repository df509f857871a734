/**
 * A plan's impact, from the API's own answers against the sandbox's real state: the contacts its
 * journeys have waiting at a node the plan deletes (the API's dry run), the sends of a send-email
 * node it changes, Guardian's findings on each email, and a transactional email's new data variable
 * named with the app's send that lacks it (`--code`). Printed by `content push --plan`, kept in the
 * plan file under its digest, and shown by `loopsctl apply` before it sends.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedId } from '../../../../../src/emulator/module.js';
import { tempDir } from '../../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../../support/recording.js';
import { edit, emailOf, pulledWorkflowsInto, workflowDir } from '../../../../support/workflow-tree.js';

const PASSWORD_RESET = seedId('transactional/Password reset');
const PAYMENT_FAILED = seedId('transactional/Payment failed');
const PRODUCT_UPDATES = seedId('mailing-list/Product updates');
const BETA_TESTERS = seedId('mailing-list/Beta testers');
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();

function directory(): string {
  const made = tempDir('loopsctl-impact-');
  directories.push(made);
  return made;
}

/** The requests that could change something: none may, but a dry run, which asks only. */
const changing = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET' && request.body?.dryRun !== true);

async function createContact(sandbox: RecordingSandbox, email: string, lists: string[]): Promise<void> {
  const response = await fetch(`${sandbox.env.LOOPS_BASE_URL}/v1/contacts/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.env.LOOPS_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, mailingLists: Object.fromEntries(lists.map((list) => [list, true])) }),
  });
  expect(response.status).toBe(200);
}

/**
 * The Welcome series with three contacts waiting at its two-day timer (each welcomed when it signed
 * up, one on the beta list too), and the tree's edit: the timer deleted, the list changed to the
 * beta testers', and the tips email given a button that goes nowhere.
 */
async function welcomeSeriesEdited(sandbox: RecordingSandbox): Promise<string> {
  const root = await pulledWorkflowsInto(sandbox, join(directory(), 'loops'));
  await createContact(sandbox, 'ana@example.com', [PRODUCT_UPDATES]);
  await createContact(sandbox, 'bo@example.com', [PRODUCT_UPDATES]);
  await createContact(sandbox, 'cy@example.com', [PRODUCT_UPDATES, BETA_TESTERS]);
  const welcome = workflowDir(root, 'welcome-series');
  const yaml = join(welcome, 'workflow.yaml');
  edit(yaml, 'mailingList: Product updates', 'mailingList: Beta testers');
  edit(yaml, '    next: [wait-2d]\n', '    next: [paying-customers]\n');
  edit(yaml, '  wait-2d:\n    type: TimerAction\n    next: [paying-customers]\n    amount: 2\n    unit: d\n', '');
  const tips = join(welcome, 'emails', 'five-tips-for-your', 'email.lmx');
  writeFileSync(tips, `${readFileSync(tips, 'utf8')}<Button>Read the tips</Button>\n`);
  sandbox.requests.length = 0;
  return root;
}

describe('the impact of a workflow edit', () => {
  it("shows the contacts the sandbox has waiting at a node it deletes, those a list change drops, a node's sends and Guardian's findings", async () => {
    const sandbox = await sandboxes();
    const root = await welcomeSeriesEdited(sandbox);
    const plan = join(root, '..', 'change.json');
    const made = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan', '--live', '--out', plan]);
    expect(made.code, made.stderr).toBe(0);
    const record = made.stdout.match(/workflows\/welcome-series--\w+/)![0];
    const impact = made.stdout.slice(made.stdout.indexOf('Impact:\n'));
    expect(impact).toBe(
      [
        'Impact:',
        // ana and bo are not on the beta list; cy is.
        `  ${record}: changes the mailing list to "Beta testers": 2 queued contacts not on it would leave the workflow`,
        `  ${record}: deletes node wait-2d: 3 contacts waiting there would leave the workflow`,
        // The seed's 1,200 sends: the three contacts wait before it.
        `  ${record}: changes the email of send-email node five-tips-for-your, which has sent 1,200 emails so far (480 opened)`,
        `  ${record}: Guardian on the email as planned: 1 error: Missing button link`,
        "      Guardian on the email as saved now (the API's check): nothing",
        // What the apply's gate will ask for, said before it is asked.
        `  ${record}: needs --live: it edits a workflow that is Sending: contacts move through it`,
        '',
      ].join('\n'),
    );
    // Asked, never changed: every request but the reads is a dry run, each as the published description has it.
    expect(changing(sandbox.requests)).toEqual([]);
    expect(sandbox.problems()).toEqual([]);
    const dryRuns = sandbox.requests.filter((request) => request.body?.dryRun === true);
    expect(dryRuns.map((request) => [request.method, request.path.replace(/c[a-z0-9]{24}/g, '<id>')])).toEqual([
      ['POST', '/v1/workflows/<id>/mailing-list'],
      ['DELETE', '/v1/workflows/<id>/nodes/<id>'],
    ]);

    // The plan file keeps the impact, the API's answers as they came, under its digest.
    const written = JSON.parse(readFileSync(plan, 'utf8'));
    expect(written.impact[1]).toEqual({
      kind: 'queued-contacts',
      record,
      op: 'deleteWorkflowNode',
      node: 'wait-2d',
      removes: ['wait-2d'],
      answer: dryRuns[1]!.answer,
    });
    expect(dryRuns[1]!.answer).toEqual({ status: 'dryRun', nodeIds: [seedId('workflow/Welcome series/wait-2d')], queuedContactCount: 3 });
    writeFileSync(plan, JSON.stringify({ ...written, impact: [] }));
    const edited = await sandbox.loopsctl(['apply', plan, '--live']);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain('was changed after it was written');
    writeFileSync(plan, JSON.stringify(written));

    // apply shows what the reviewed plan said before it sends; the API then holds the list change back for the queued contacts.
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan, '--live']);
    expect(apply.stdout.startsWith(impact)).toBe(true);
    expect(apply.code).toBe(5);
    expect(apply.stderr).toContain('2 contacts queued would be discarded; nothing of it was sent');
  });

  it('prints the impact as JSON under --json, beside the plan', async () => {
    const sandbox = await sandboxes();
    const root = await welcomeSeriesEdited(sandbox);
    // The welcome email too: its node has sent the seed's 2,000 and one to each contact that signed up.
    const welcome = join(workflowDir(root, 'welcome-series'), 'emails', 'welcome-aboard-contact-firstname', 'email.lmx');
    writeFileSync(welcome, `${readFileSync(welcome, 'utf8')}<Paragraph>See you soon.</Paragraph>\n`);
    const made = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan', '--live', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const document = JSON.parse(made.stdout);
    expect(document.plan[0].steps.map((step: { op: string }) => step.op)).toContain('deleteWorkflowNode');
    const tipsNode = seedId('workflow/Welcome series/tips');
    const guardianAnswer = sandbox.requests.find((request) => request.path === `/v1/email-messages/${seedId('email-message/welcome-2')}/guardian`)!.answer;
    const metricsAnswer = sandbox.requests.find((request) => request.path.endsWith(`${tipsNode}/metrics`))!.answer;
    expect(document.impact).toEqual([
      expect.objectContaining({
        kind: 'queued-contacts',
        op: 'changeWorkflowMailingList',
        mailingList: 'Beta testers',
        answer: { status: 'dryRun', mailingListId: BETA_TESTERS, queuedContactCount: 2 },
      }),
      expect.objectContaining({
        kind: 'queued-contacts',
        op: 'deleteWorkflowNode',
        node: 'wait-2d',
        answer: expect.objectContaining({ queuedContactCount: 3 }),
      }),
      expect.objectContaining({ kind: 'sends', node: 'welcome-aboard-contact-firstname', answer: expect.objectContaining({ sends: 2_003 }) }),
      { kind: 'sends', record: document.plan[0].path, node: 'five-tips-for-your', nodeId: tipsNode, change: 'email', answer: metricsAnswer },
      expect.objectContaining({ kind: 'guardian', email: 'emails/welcome-aboard-contact-firstname/email.json' }),
      {
        kind: 'guardian',
        record: document.plan[0].path,
        email: 'emails/five-tips-for-your/email.json',
        messageId: seedId('email-message/welcome-2'),
        saved: guardianAnswer,
        planned: {
          errors: [
            {
              rule: 'missingButtonHrefs',
              title: 'Missing button link',
              description: "Buttons won't work without an href value",
              items: [{ label: 'Read the tips' }],
            },
          ],
          warnings: [],
        },
      },
      { kind: 'needs-live', record: document.plan[0].path, does: 'edits a workflow that is Sending: contacts move through it' },
    ]);
  });
});

describe("the impact of an edit of an experiment's variant", () => {
  it("says that the results before and after the change are not comparable, for the variant's email alone", async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflowsInto(sandbox, join(directory(), 'loops'));
    const experiment = workflowDir(root, 'beta-onboarding-subject-test');
    const variantEmail = join(experiment, 'emails', 'your-early-access-is', 'email.lmx');
    writeFileSync(variantEmail, `${readFileSync(variantEmail, 'utf8')}<Paragraph>One more thing.</Paragraph>\n`);
    sandbox.requests.length = 0;
    const made = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan', '--live']);
    expect(made.code, made.stderr).toBe(0);
    const record = made.stdout.match(/workflows\/beta-onboarding-subject-test--\w+/)![0];
    expect(made.stdout).toContain(
      `  ${record}: changes the email of send-email node your-early-access-is in variant variant of experiment experiment: results before and after this change are not comparable\n`,
    );
    expect(made.stdout.match(/not comparable/g)).toHaveLength(1);
    expect(changing(sandbox.requests)).toEqual([]);
  });
});

describe('the impact of an edit of a draft workflow', () => {
  it("shows Guardian's findings on its email, no sends (nobody moves through a draft), and is printed and returned by apply", async () => {
    const sandbox = await sandboxes();
    const root = await pulledWorkflowsInto(sandbox, join(directory(), 'loops'));
    const winBack = workflowDir(root, 'win-back-draft');
    writeFileSync(emailOf(winBack), `${readFileSync(emailOf(winBack), 'utf8')}<Paragraph>As {contact.jobTitle}, you will like it</Paragraph>\n`);
    const plan = join(root, '..', 'change.json');
    const made = await sandbox.loopsctl(['content', 'push', root, '--only', 'workflows', '--plan', '--out', plan]);
    expect(made.code, made.stderr).toBe(0);
    const impact = JSON.parse(readFileSync(plan, 'utf8')).impact;
    expect(impact.map((record: { kind: string }) => record.kind)).toEqual(['guardian']);
    expect(impact[0].planned.warnings).toEqual([
      expect.objectContaining({ rule: 'missingFallbackContactProperties', items: [{ label: 'jobTitle', codeName: 'jobTitle' }] }),
    ]);
    expect(made.stdout).toContain('Guardian on the email as planned: 1 warning: Contact property without fallback (jobTitle)');

    const applied = await sandbox.loopsctl(['apply', plan, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ applied: [expect.objectContaining({ status: 'updated' })], impact });
  });
});

describe('the impact of a transactional email whose data variables change', () => {
  it("names the app's send that lacks a variable the draft adds, and one it gives that the draft drops", async () => {
    const sandbox = await sandboxes();
    const home = directory();
    const root = join(home, 'loops');
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'transactional']);
    expect(pull.code, pull.stderr).toBe(0);
    const draft = join(root, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx');
    writeFileSync(
      draft,
      [
        '<H1>Reset your password</H1>',
        '<Paragraph>Hi {data.firstName}, someone asked to reset the password of your Acme account.</Paragraph>',
        '<Button href="{data.resetUrl}">Choose a new password</Button>',
        '<Paragraph>Or type this code: {data.resetCode}</Paragraph>',
        '',
      ].join('\n'),
    );
    const app = join(home, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'reset.ts'),
      [
        "import { LoopsClient } from 'loops';",
        'const loops = new LoopsClient(process.env.LOOPS_API_KEY!);',
        'export async function sendReset(email: string, url: string) {',
        '  await loops.sendTransactionalEmail({',
        `    transactionalId: '${PASSWORD_RESET}',`,
        '    email,',
        "    dataVariables: { firstName: 'Ana', resetUrl: url, expiresInMinutes: 30 },",
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    sandbox.requests.length = 0;
    const made = await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional', '--plan', '--code', app]);
    expect(made.code, made.stderr).toBe(0);
    const record = `transactional/password-reset--${PASSWORD_RESET}`;
    const site = `${join(app, 'reset.ts')}:5:22`;
    expect(made.stdout.slice(made.stdout.indexOf('Impact:\n'))).toBe(
      [
        'Impact:',
        `  ${record}: Guardian on the email as planned: nothing`,
        "      Guardian on the email as saved now (the API's check): nothing",
        `  ${record}: once its draft is published: adds data variable resetCode (no fallback); removes data variable expiresInMinutes`,
        `      ${site} sends it without resetCode: it would start failing, unless the email marks it optional`,
        `      ${site} gives expiresInMinutes, which the email would no longer use`,
        '',
      ].join('\n'),
    );
    expect(changing(sandbox.requests)).toEqual([]);

    const json = await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional', '--plan', '--code', app, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).impact[1]).toEqual({
      kind: 'data-variables',
      record,
      transactionalId: PASSWORD_RESET,
      publishes: false,
      published: ['firstName', 'resetUrl', 'expiresInMinutes'],
      planned: ['firstName', 'resetUrl', 'resetCode'],
      added: ['resetCode'],
      removed: ['expiresInMinutes'],
      withoutFallback: ['resetCode'],
      callSites: [
        {
          file: join(app, 'reset.ts'),
          line: 5,
          column: 22,
          gives: ['firstName', 'resetUrl', 'expiresInMinutes'],
          missing: ['resetCode'],
          noLongerUsed: ['expiresInMinutes'],
        },
      ],
    });
  });

  it('plans a draft the account does not have yet without an impact for it, which only a plan file refuses', async () => {
    const sandbox = await sandboxes();
    const root = join(directory(), 'loops');
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'transactional']);
    expect(pull.code, pull.stderr).toBe(0);
    // "Welcome" is published and has no draft: the push makes one from what is published.
    const welcome = join(root, 'transactional', `welcome--${seedId('transactional/Welcome')}`);
    writeFileSync(join(welcome, 'draft.lmx'), readFileSync(join(welcome, 'published.lmx'), 'utf8').replace('</H1>', ' and welcome back</H1>'));
    const planned = await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional', '--plan']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('would update');
    expect(planned.stdout).not.toContain('Impact:');
    const filed = await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional', '--plan', '--out', join(root, '..', 'change.json')]);
    expect(filed.code).toBe(2);
    expect(filed.stderr).toContain('has no draft in the account, which a plan file cannot name beforehand');
  });

  it('takes --code only with --plan', async () => {
    const sandbox = await sandboxes();
    const pushed = await sandbox.loopsctl(['content', 'push', join(directory(), 'loops'), '--code', 'app']);
    expect(pushed.code).toBe(2);
    expect(pushed.stderr).toContain("--code shows the plan's impact on the app: give --plan with it");
  });
});

describe('the impact of a write command planned to a file', () => {
  it('shows the contacts waiting at a node `workflow nodes delete --plan` would delete, and keeps it in the plan', async () => {
    const sandbox = await sandboxes();
    await createContact(sandbox, 'ana@example.com', [PRODUCT_UPDATES]);
    await createContact(sandbox, 'bo@example.com', [PRODUCT_UPDATES]);
    const listed = await sandbox.loopsctl(['workflow', 'list', '--json']);
    const welcome = (JSON.parse(listed.stdout) as { id: string; name: string }[]).find((workflow) => workflow.name === 'Welcome series')!;
    const shown = await sandbox.loopsctl(['workflow', 'show', welcome.id, '--json']);
    const nodes = Object.entries((JSON.parse(shown.stdout) as { nodes: Record<string, { typeName: string }> }).nodes);
    const timer = { id: nodes.find(([, node]) => node.typeName === 'TimerAction')![0] };
    const plan = join(directory(), 'change.json');
    sandbox.requests.length = 0;
    const made = await sandbox.loopsctl(['workflow', 'nodes', 'delete', welcome.id, timer.id, '--plan', '--out', plan]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(
      `Impact:\n  workflow node ${welcome.id}/${timer.id}: deletes node ${timer.id}: 2 contacts waiting there would leave the workflow\n` +
        `  workflow node ${welcome.id}/${timer.id}: needs --live: it edits a workflow that is Sending: contacts move through it\n`,
    );
    expect(changing(sandbox.requests)).toEqual([]);
    const written = JSON.parse(readFileSync(plan, 'utf8'));
    expect(written.impact).toEqual([
      expect.objectContaining({ kind: 'queued-contacts', op: 'deleteWorkflowNode', node: timer.id }),
      { kind: 'needs-live', record: `workflow node ${welcome.id}/${timer.id}`, does: 'edits a workflow that is Sending: contacts move through it' },
    ]);
    const dry = sandbox.requests.find((request) => request.method === 'DELETE')!;
    expect(written.impact[0].answer).toEqual(dry.answer);
  });

  it('shows the data variables `transactional publish --plan` would add, from the draft the account holds', async () => {
    const sandbox = await sandboxes();
    const plan = join(directory(), 'change.json');
    const made = await sandbox.loopsctl(['transactional', 'publish', PASSWORD_RESET, '--plan', '--out', plan]);
    expect(made.code, made.stderr).toBe(0);
    const written = JSON.parse(readFileSync(plan, 'utf8'));
    expect(written.impact).toEqual([
      expect.objectContaining({ kind: 'data-variables', transactionalId: PASSWORD_RESET }),
      { kind: 'needs-live', record: `transactional email ${PASSWORD_RESET}`, does: 'publishes a transactional email (the next sends use it)' },
    ]);
    expect(made.stdout).toMatch(/Impact:\n {2}transactional email \w+: .*\n {2}transactional email \w+: needs --live: it publishes a transactional email/);
  });

  it("names the app's send that lacks the variable `transactional publish --plan --code` would add", async () => {
    const sandbox = await sandboxes();
    const home = directory();
    const app = join(home, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'billing.ts'),
      [
        "import { LoopsClient } from 'loops';",
        'const loops = new LoopsClient(process.env.LOOPS_API_KEY!);',
        'export async function paymentFailed(email: string) {',
        `  await loops.sendTransactionalEmail({ transactionalId: '${PAYMENT_FAILED}', email, dataVariables: {} });`,
        '}',
        '',
      ].join('\n'),
    );
    const plan = join(home, 'change.json');
    sandbox.requests.length = 0;
    const made = await sandbox.loopsctl(['transactional', 'publish', PAYMENT_FAILED, '--plan', '--out', plan, '--code', app]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(
      [
        'Impact:',
        `  transactional email ${PAYMENT_FAILED}: publishes it: adds data variable amount (no fallback)`,
        `      ${join(app, 'billing.ts')}:4:57 sends it without amount: it would start failing, unless the email marks it optional`,
        '',
      ].join('\n'),
    );
    expect(changing(sandbox.requests)).toEqual([]);
    expect(JSON.parse(readFileSync(plan, 'utf8')).impact[0].callSites).toEqual([expect.objectContaining({ missing: ['amount'] })]);
    const alone = await sandbox.loopsctl(['transactional', 'publish', PAYMENT_FAILED, '--code', app]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--code shows the plan's impact on the app: give --plan with it");
    expect(changing(sandbox.requests)).toEqual([]);
  });
});
