/**
 * Every write command that can plan (`--plan --out`): node edits, a workflow's list, a campaign's
 * schedule, a transactional publish, group and segment writes. Each writes the request it would
 * send to a plan file, guarded by the workflow's revision or by the digest of the record as read;
 * `loopsctl apply` sends exactly that request, or refuses with a conflict when the account moved.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { themes } from '../../../../src/emulator/routes/themes.js';
import { workflows } from '../../../../src/emulator/routes/workflow-records.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const SCORE = 'cu46uqyjwgaeml2epsiw5a711';
const DORMANT = 'ccaupowsk6riuwqxc5jsidoxl';
const DRAFT_CAMPAIGN = seedId('campaign/November newsletter');
const BILLING = seedId('transactional-group/Billing');
const NEWSLETTERS = seedId('campaign-group/Newsletters');
const PASSWORD_RESET = seedId('transactional/Password reset');
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

/** A directory for the test's plans, and one config directory for its runs (where the journal and the before-images are). */
function place(): { plan: string; env: Record<string, string> } {
  const directory = tempDir('loopsctl-plan-kinds-');
  directories.push(directory);
  return { plan: join(directory, 'change.json'), env: { LOOPSCTL_CONFIG_DIR: join(directory, 'config') } };
}

async function planned(sandbox: RecordingSandbox, args: string[], env: Record<string, string>, plan: string) {
  sandbox.requests.length = 0;
  const made = await sandbox.loopsctl([...args, '--plan', '--out', plan], { env });
  expect(made.code, made.stderr).toBe(0);
  expect(made.stderr).toMatch(/Wrote the plan to \S+change\.json: 1 call to Acme Sandbox, to apply before \S+ with `loopsctl apply /);
  expect(writes(sandbox.requests)).toEqual([]);
  return JSON.parse(readFileSync(plan, 'utf8'));
}

function journal(env: Record<string, string>): { command: string; operation: string; outcome: string; files?: string[] }[] {
  const text = readFileSync(join(env.LOOPSCTL_CONFIG_DIR!, 'journal', 'changes.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('write commands that plan', () => {
  it('each command writes the request it would send, with the revision or the digest it was planned against, and apply sends exactly it', async () => {
    const sandbox = await sandboxes();
    // A schedule and a publish reach people: the apply makes them only with --live, the yes a plan's apply takes.
    const cases: { args: string[]; operation: string; guard: 'revision' | 'digest' | 'none'; yes?: true }[] = [
      { args: ['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30'], operation: 'updateWorkflowNode', guard: 'revision' },
      { args: ['workflow', 'nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--after', DORMANT], operation: 'createWorkflowNode', guard: 'revision' },
      { args: ['campaigns', 'update', DRAFT_CAMPAIGN, '--schedule', '2031-01-06T09:00:00Z'], operation: 'updateCampaign', guard: 'digest', yes: true },
      { args: ['transactional', 'publish', PASSWORD_RESET], operation: 'publishTransactionalEmail', guard: 'digest', yes: true },
      { args: ['groups', 'update', BILLING, '--description', 'Receipts and invoices'], operation: 'updateTransactionalGroup', guard: 'digest' },
      { args: ['groups', 'create', '--name', 'Receipts'], operation: 'createTransactionalGroup', guard: 'none' },
      { args: ['campaign-groups', 'update', NEWSLETTERS, '--name', 'Letters'], operation: 'updateCampaignGroup', guard: 'digest' },
      { args: ['campaign-groups', 'create', '--name', 'Launches'], operation: 'createCampaignGroup', guard: 'none' },
    ];
    for (const { args, operation, guard, yes } of cases) {
      const { plan, env } = place();
      const written = await planned(sandbox, args, env, plan);
      const [unit] = written.units;
      const [call] = unit.calls;
      expect(call, args.join(' ')).toMatchObject({ op: 'request', operation });
      if (guard === 'revision') expect(call.body.expectedRevisionId).toEqual(expect.any(String));
      if (guard === 'digest') expect(call).toMatchObject({ read: expect.stringMatching(/^\/v1\//), expectedDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      if (guard === 'none') expect(call.read).toBeUndefined();

      sandbox.requests.length = 0;
      if (yes) {
        const refused = await sandbox.loopsctl(['apply', plan], { env });
        expect(refused.code, args.join(' ')).toBe(11);
        expect(refused.stderr).toContain("this needs a person's yes; nothing was sent");
        expect(writes(sandbox.requests)).toEqual([]);
      }
      const apply = await sandbox.loopsctl(['apply', plan, ...(yes ? ['--live'] : [])], { env });
      expect(apply.code, `${args.join(' ')}: ${apply.stderr}`).toBe(0);
      const sent = writes(sandbox.requests);
      expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([`${call.method} ${call.path}`]);
      // A call without a body (a publish) is sent without one, as the command sends it.
      expect(sent[0]!.body ?? null).toEqual(call.body);
      // One journal line for the one call, naming the plan applied.
      expect(journal(env)).toEqual([expect.objectContaining({ command: 'apply', operation, outcome: 'done', files: [plan] })]);
    }
  });

  it('a segment is created from a plan as the command creates it', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    const filter = join(env.LOOPSCTL_CONFIG_DIR!, '..', 'filter.json');
    writeFileSync(filter, '{"match":"all","conditions":[{"type":"property","key":"plan","operator":"equals","value":"pro"}]}');
    const written = await planned(sandbox, ['segments', 'create', '--name', 'Pro', '--filter-file', filter], env, plan);
    expect(written.units[0].calls[0]).toMatchObject({ op: 'request', operation: 'createAudienceSegment', method: 'POST', path: '/v1/audience-segments' });
    const apply = await sandbox.loopsctl(['apply', plan, '--json'], { env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(writes(sandbox.requests).map((request) => request.path)).toEqual(['/v1/audience-segments']);
    // The report names the record it made by the id the account gave it.
    const made = (await sandbox.loopsctl(['segments', 'list', '--json'], { env })).json() as { id: string; name: string }[];
    const pro = made.find((segment) => segment.name === 'Pro');
    expect(JSON.parse(apply.stdout).applied).toEqual([expect.objectContaining({ status: 'created', id: pro!.id })]);
  });

  it('refuses a plan that only creates in another account of the same team name at the same address, sending nothing', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    const written = await planned(sandbox, ['groups', 'create', '--name', 'Receipts'], env, plan);
    // Naming none of the account's records, the plan notes one it holds: its first theme.
    const witness = written.account.witness as string;
    expect(witness).toMatch(/^\/v1\/themes\/\w+$/);
    // The same sandbox without that theme stands for another account of the team's name, at the same base URL.
    sandbox.server.update((state) => {
      const all = themes.of(state);
      all.splice(
        all.findIndex((theme) => `/v1/themes/${theme.id}` === witness),
        1,
      );
    });
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code).toBe(11);
    expect(apply.stderr).toContain(`the plan was made in an account holding ${witness}, which the account this key reaches does not hold`);
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('refuses a workflow changed since the plan: the platform answers 409, and nothing after it is sent', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    await planned(sandbox, ['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30'], env, plan);
    sandbox.server.update((state) => {
      workflows.of(state).find((workflow) => workflow.id === WIN_BACK)!.workflowRevisionId = 'edited-in-the-app';
    });
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(writes(sandbox.requests).map((request) => request.status)).toEqual([409]);
    expect(apply.stdout).toContain(`/v1/workflows/${WIN_BACK} changed in the account since the plan was made: `);
  });

  it('refuses a record without a revision that changed since the plan, sending nothing', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    await planned(sandbox, ['campaigns', 'update', DRAFT_CAMPAIGN, '--schedule', '2031-01-06T09:00:00Z'], env, plan);
    const renamed = await sandbox.loopsctl(['campaigns', 'update', DRAFT_CAMPAIGN, '--name', 'December newsletter'], { env });
    expect(renamed.code, renamed.stderr).toBe(0);
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan, '--live'], { env });
    expect(apply.code).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(apply.stdout).toContain(`changed in the account since the plan was made`);
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('refuses a transactional publish whose draft a teammate edited since the plan: the unreviewed draft is never published', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    await planned(sandbox, ['transactional', 'publish', PASSWORD_RESET], env, plan);
    const draft = (await sandbox.loopsctl(['transactional', 'get', PASSWORD_RESET, '--json'], { env })).json<{ draftEmailMessageId: string }>()
      .draftEmailMessageId;
    // The teammate's edit, in the app: the draft's subject, the record itself as it was.
    const edited = await sandbox.loopsctl(['email-messages', 'update', draft, '--subject', 'Not reviewed', '--force'], { env });
    expect(edited.code, edited.stderr).toBe(0);
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan, '--live'], { env });
    expect(apply.code, apply.stderr).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(apply.stdout).toContain(`/v1/transactional-emails/${PASSWORD_RESET} or its draft changed in the account since the plan was made`);
    expect(writes(sandbox.requests)).toEqual([]);
    const after = (await sandbox.loopsctl(['transactional', 'get', PASSWORD_RESET, '--json'], { env })).json<{ draftEmailMessageId: string | null }>();
    expect(after.draftEmailMessageId).toBe(draft);
  });

  it('takes --expires, shows a plan without --out as content push --plan does, refuses --out without --plan, and a plan that would discard queued contacts', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    const bare = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan'], { env });
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toContain(`# transactional group ${BILLING}: would change`);
    expect(bare.stderr).toContain('Nothing was sent: 1 call to Acme Sandbox planned; give --out <file> to keep the plan');
    expect(existsSync(plan)).toBe(false);
    const lastingAlone = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan', '--expires', '2d'], { env });
    expect(lastingAlone.code).toBe(2);
    expect(lastingAlone.stderr).toContain('--expires is the expiry of a plan file: give --out <file> with it');
    const outAlone = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--out', plan], { env });
    expect(outAlone.code).toBe(2);
    expect(outAlone.stderr).toContain('--out and --expires are those of a plan file: give --plan with them');
    const lasting = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan', '--out', plan, '--expires', '2d'], { env });
    expect(lasting.code, lasting.stderr).toBe(0);
    const written = JSON.parse(readFileSync(plan, 'utf8'));
    expect(Date.parse(written.expiresAt) - Date.parse(written.createdAt)).toBe(2 * 86_400_000);
    const discard = await sandbox.loopsctl(['workflow', 'nodes', 'delete', WIN_BACK, SCORE, '--queued-contacts', 'discard', '--plan', '--out', plan], { env });
    expect(discard.code).toBe(2);
    expect(discard.stderr).toContain('a plan never discards queued contacts');
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('exits with the failure of a command that fails before its write, and writes no plan', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    const failed = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, 'no-such-node', '--set', 'samplingRate:=30', '--plan', '--out', plan], {
      env,
    });
    expect(failed.code).toBe(4);
    expect(failed.stderr).toContain('no-such-node');
    expect(existsSync(plan)).toBe(false);
  });

  it('shows the impact of a transactional publish with --plan --code and no --out, as content push --plan does', async () => {
    const sandbox = await sandboxes();
    const { env } = place();
    const directory = tempDir('loopsctl-code-');
    writeFileSync(
      join(directory, 'reset.ts'),
      `await loops.sendTransactionalEmail({ transactionalId: '${PASSWORD_RESET}', email, dataVariables: { resetUrl } });\n`,
    );
    const shown = await sandbox.loopsctl(['transactional', 'publish', PASSWORD_RESET, '--plan', '--code', directory], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`# transactional email ${PASSWORD_RESET}: would change`);
    expect(writes(sandbox.requests)).toEqual([]);
  });
});
