/**
 * A plan written as a file (`content push --plan --out`) and played by `loopsctl apply`: exactly
 * its calls, guarded by the revisions it was planned against, to the account it was made for, once.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { takeFileLock } from '../../../../src/base/lock.js';
import { journalFiles } from '../../../../src/config/change-journal-files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { workflows } from '../../../../src/emulator/routes/workflow-records.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';
import { plannedThemeEdit } from '../../../support/theme-plan.js';
import { edit, workflowDir } from '../../../support/workflow-tree.js';

const PASSWORD_RESET = seedId('transactional/Password reset');
const PASSWORD_RESET_DRAFT = seedId('transactional/Password reset/draft');
const BILLING = seedId('transactional-group/Billing');
const ONLY = ['--only', 'transactional,components,themes,workflows'];
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

/**
 * A tree pulled from the sandbox with two edits (an email's draft, then a workflow's field, or with
 * `emails` another email's draft), and its plan written.
 */
async function planned(sandbox: RecordingSandbox, { creates = false } = {}): Promise<{ root: string; plan: string }> {
  const directory = tempDir('loopsctl-apply-');
  directories.push(directory);
  const root = join(directory, 'loops');
  const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
  expect(pull.code, pull.stderr).toBe(0);
  const reset = join(root, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx');
  writeFileSync(reset, '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
  if (creates) {
    const shipping = join(root, 'transactional', 'shipping-update');
    mkdirSync(shipping);
    writeFileSync(join(shipping, 'transactional.json'), '{ "name": "Shipping update" }\n');
    writeFileSync(join(shipping, 'draft.lmx'), '<Paragraph>Your order is on its way.</Paragraph>\n');
  } else edit(join(workflowDir(root, 'win-back-draft'), 'workflow.yaml'), 'samplingRate: 20', 'samplingRate: 25');
  const plan = join(directory, 'change.json');
  sandbox.requests.length = 0;
  const made = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--out', plan]);
  expect(made.code, made.stderr).toBe(0);
  expect(made.stderr).toMatch(/Wrote the plan to \S+change\.json: 2 calls to Acme Sandbox, to apply before \S+ with `loopsctl apply /);
  expect(writes(sandbox.requests)).toEqual([]);
  return { root, plan };
}

/** `loopsctl apply` interrupted (as by Ctrl-C) once the sandbox has answered a request `at` picks. */
async function applyStoppedAt(sandbox: RecordingSandbox, plan: string, at: (request: Recorded) => boolean) {
  const stop = new AbortController();
  const recorded = sandbox.requests;
  const push = recorded.push.bind(recorded);
  recorded.push = (...items: Recorded[]) => {
    const count = push(...items);
    if (items.some(at)) stop.abort();
    return count;
  };
  try {
    return await sandbox.loopsctl(['apply', plan], { signal: stop.signal });
  } finally {
    recorded.push = push;
  }
}

describe('loopsctl apply', () => {
  it('plays exactly the calls of the plan with their revisions, leaves the account equal to the tree, and sends nothing the second time', async () => {
    const sandbox = await sandboxes();
    const { root, plan } = await planned(sandbox);
    const written = JSON.parse(readFileSync(plan, 'utf8'));
    expect(written.account).toEqual({ team: 'Acme Sandbox', baseUrl: sandbox.env.LOOPS_BASE_URL, profile: 'LOOPS_API_KEY' });
    const message = written.units.find((unit: { kind: string }) => unit.kind === 'transactional email').calls[0];
    expect(message).toMatchObject({ op: 'updateEmailMessage', messageId: PASSWORD_RESET_DRAFT, expectedRevisionId: expect.any(String) });
    const workflow = written.units.find((unit: { kind: string }) => unit.kind === 'workflow');
    expect(workflow.calls).toEqual([{ op: 'updateWorkflowNode', key: 'experiment', payload: { samplingRate: 25 } }]);

    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain('Applied 2 records of 2');
    // The email first, as a push sends it (a workflow's email may embed a component made before it), then the workflow.
    const sent = writes(sandbox.requests);
    expect(sent.map((request) => request.path.replace(/c[a-z0-9]{24}/g, '<id>'))).toEqual(['/v1/email-messages/<id>', '/v1/workflows/<id>/nodes/<id>']);
    expect(sent[0]!.body).toMatchObject({ expectedRevisionId: message.expectedRevisionId, lmx: '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n' });
    expect(sent[1]!.body).toMatchObject({ expectedRevisionId: workflow.workflowRevisionId, payload: { samplingRate: 25 } });
    const diff = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(diff.code, diff.stdout).toBe(0);

    sandbox.requests.length = 0;
    const again = await sandbox.loopsctl(['apply', plan]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('was applied already');
    expect(sandbox.requests).toEqual([]);
  });

  it("refuses a content push's plan whose workflow went live after it was planned before any of its writes, the email's first among them", async () => {
    const sandbox = await sandboxes();
    const { plan } = await planned(sandbox);
    const winBack = seedId('workflow/Win-back (draft)');
    sandbox.server.update((state) => {
      workflows.of(state).find((workflow) => workflow.id === winBack)!.status = 'Sending';
    });
    sandbox.requests.length = 0;
    const refused = await sandbox.loopsctl(['apply', plan]);
    expect(refused.code, refused.stderr).toBe(11);
    expect(refused.stderr).toMatch(
      /workflows\/win-back-draft--\S+: edits a workflow that is Sending: contacts move through it: this needs a person's yes; nothing was sent/,
    );
    // Judged before the first write of the plan, not at the workflow's own: the email's draft, which comes first, is not sent either.
    expect(writes(sandbox.requests)).toEqual([]);
    const applied = await sandbox.loopsctl(['apply', plan, '--live']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(sandbox.requests)).toHaveLength(2);
  });

  it('refuses a plan edited by hand, an expired one, and one under way in another run, sending nothing', async () => {
    const sandbox = await sandboxes();
    const { plan } = await planned(sandbox);
    const original = readFileSync(plan, 'utf8');
    writeFileSync(plan, original.replace('samplingRate": 25', 'samplingRate": 90'));
    const edited = await sandbox.loopsctl(['apply', plan]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain('was changed after it was written');
    writeFileSync(plan, original);
    const late = await sandbox.loopsctl(['apply', plan], { now: () => new Date(Date.parse(JSON.parse(original).expiresAt) + 1000) });
    expect(late.code).toBe(2);
    expect(late.stderr).toContain('expired at');
    const release = takeFileLock(plan, { waitMs: 0 });
    try {
      const locked = await sandbox.loopsctl(['apply', plan]);
      expect(locked.code).toBe(2);
      expect(locked.stderr).toContain('is being applied by another loopsctl run');
    } finally {
      release();
    }
    expect(writes(sandbox.requests)).toEqual([]);
    expect(existsSync(`${plan}.applied`)).toBe(false);
  });

  it('refuses to apply while the journal cannot keep the change, sending nothing, and applies the plan once it can', async () => {
    const sandbox = await sandboxes();
    const { plan } = await planned(sandbox);
    const config = join(plan, '..', 'config');
    const env = { LOOPSCTL_CONFIG_DIR: config };
    const [live] = journalFiles(config);
    const elsewhere = join(plan, '..', 'elsewhere.jsonl');
    writeFileSync(elsewhere, '');
    mkdirSync(join(config, 'journal'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, live!);
    sandbox.requests.length = 0;
    const refused = await sandbox.loopsctl(['apply', plan], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the journal of changes cannot be kept in \S+changes\.jsonl: it is a symbolic link; nothing was sent/);
    expect(writes(sandbox.requests)).toEqual([]);
    expect(readFileSync(elsewhere, 'utf8')).toBe('');

    // The journal moved aside: the refused record was never begun, and the whole plan is applied.
    renameSync(live!, `${live}.aside`);
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain('Applied 2 records of 2');
    expect(readFileSync(live!, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('stops at a record changed in the account since the plan: the platform refuses it (409), and nothing after it is sent', async () => {
    const sandbox = await sandboxes();
    const { plan } = await planned(sandbox);
    // The email, the plan's first record, is edited in the app meanwhile.
    const moved = await sandbox.loopsctl(['email-messages', 'update', PASSWORD_RESET_DRAFT, '--subject', 'Changed in the app', '--force']);
    expect(moved.code, moved.stderr).toBe(0);
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(apply.code).toBe(5);
    expect(apply.stdout).toMatch(/conflict\s+transactional\/password-reset--/);
    // In the words of its kind, then the platform's.
    expect(apply.stdout).toContain('the transactional email changed in the account since the plan was made: ');
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    // Nothing was changed, so there is nothing to undo.
    expect(apply.stderr).not.toContain('loopsctl undo');
    expect(writes(sandbox.requests).map((request) => request.status)).toEqual([409]);
    // The record of the apply says where it stopped.
    const progress = JSON.parse(readFileSync(`${plan}.applied`, 'utf8')) as { records: Record<string, { state: string }> };
    expect(Object.values(progress.records).map((record) => record.state)).toEqual(['conflict']);

    // Run again: the conflicting record is tried again and refused again, and still nothing after it is sent.
    sandbox.requests.length = 0;
    const again = await sandbox.loopsctl(['apply', plan]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(writes(sandbox.requests).map((request) => `${request.status} ${request.path}`)).toEqual([`409 /v1/email-messages/${PASSWORD_RESET_DRAFT}`]);
  });

  it('applies a new plan written to the --out path of an applied one, not "applied already"', async () => {
    const sandbox = await sandboxes();
    const plan = join(tempDir('loopsctl-apply-'), 'change.json');
    for (const description of ['Receipts', 'Receipts and invoices']) {
      const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--description', description, '--plan', '--out', plan]);
      expect(made.code, made.stderr).toBe(0);
      sandbox.requests.length = 0;
      const apply = await sandbox.loopsctl(['apply', plan]);
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stderr).not.toContain('applied already');
      expect(writes(sandbox.requests).map((request) => request.body)).toEqual([{ description }]);
    }
  });

  it('refuses to overwrite a component or theme changed in the app after the plan was made', async () => {
    const sandbox = await sandboxes();
    const { id, plan } = await plannedThemeEdit(sandbox, tempDir('loopsctl-apply-'));
    const changed = await sandbox.loopsctl(['themes', 'update', id, '--style', 'buttonBorderRadius=12']);
    expect(changed.code, changed.stderr).toBe(0);
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(apply.code).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(apply.stdout).toContain('the theme changed in the account since the plan was made');
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('refuses a plan made for another account of the same team name, sending nothing there', async () => {
    const first = await sandboxes();
    const second = await sandboxes({ initialState: (modules) => seedState(modules, 'empty') });
    const { plan } = await planned(first);
    const apply = await second.loopsctl(['apply', plan]);
    expect(apply.code).toBe(11);
    expect(apply.stderr).toContain(
      `the plan is for Acme Sandbox at ${first.env.LOOPS_BASE_URL}, and this key reaches Acme Sandbox at ${second.env.LOOPS_BASE_URL}`,
    );
    expect(writes(second.requests)).toEqual([]);
  });

  it('writes no plan file while a record is held back, and takes --out only with --plan', async () => {
    const sandbox = await sandboxes();
    const { root, plan } = await planned(sandbox);
    rmSync(plan);
    const moved = await sandbox.loopsctl(['email-messages', 'update', PASSWORD_RESET_DRAFT, '--subject', 'Changed in the app', '--force']);
    expect(moved.code, moved.stderr).toBe(0);
    const held = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--out', plan]);
    expect(held.code).toBe(5);
    expect(held.stderr).toContain(`No plan written to ${plan}: settle what was skipped first`);
    expect(existsSync(plan)).toBe(false);
    const alone = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--out', plan]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--out writes a plan: give --plan with it');
    const expiry = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--out', plan, '--expires', '90d']);
    expect(expiry.code).toBe(2);
    expect(expiry.stderr).toContain('at most 30d');
    expect(existsSync(plan)).toBe(false);
  });

  it('takes an account without a record the plan changes for another account, and sends nothing', async () => {
    const sandbox = await sandboxes();
    const { plan } = await planned(sandbox);
    sandbox.server.update((state) => {
      const all = workflows.of(state);
      all.splice(
        all.findIndex((workflow) => workflow.name === 'Win-back (draft)'),
        1,
      );
    });
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(apply.code).toBe(11);
    expect(apply.stderr).toMatch(/workflows\/win-back-draft--\S+ \(\S+\) is not in the account this key reaches/);
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('resumes an apply that stopped between records from the first record it had not begun', async () => {
    const sandbox = await sandboxes();
    // The password reset's draft, then a new email, whose namesakes are looked for just before its create.
    const { plan } = await planned(sandbox, { creates: true });
    // Stopped once the first is done: at that look, before anything of the second is sent.
    const stopped = await applyStoppedAt(
      sandbox,
      plan,
      (item) => item.method === 'GET' && item.path === '/v1/transactional-emails' && writes(sandbox.requests).length > 0,
    );
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('interrupted');
    expect(writes(sandbox.requests).map((request) => request.path)).toEqual([`/v1/email-messages/${PASSWORD_RESET_DRAFT}`]);
    sandbox.requests.length = 0;
    const again = await sandbox.loopsctl(['apply', plan]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('Applied 1 record of 1');
    expect(writes(sandbox.requests).map((request) => request.path.replace(/c[a-z0-9]{24}/g, '<id>'))).toEqual([
      '/v1/transactional-emails',
      '/v1/email-messages/<id>',
    ]);
  });

  it('names a record an apply that stopped had begun, rather than send it twice', async () => {
    const sandbox = await sandboxes();
    const { plan } = await planned(sandbox);
    const stopped = await applyStoppedAt(sandbox, plan, (item) => item.method !== 'GET');
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('interrupted');
    sandbox.requests.length = 0;
    const again = await sandbox.loopsctl(['apply', plan]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/transactional\/password-reset--\S+ was begun by an earlier apply/);
    expect(writes(sandbox.requests)).toEqual([]);
  });
});
