/**
 * `loopsctl undo`: an applied change taken back from the before-images its apply kept, through the
 * same plan-and-apply cycle, refused as a conflict when the record changed again since, and saying
 * so where the API cannot take it back.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imagesDirectory } from '../../../../src/config/before-images.js';
import { seedId } from '../../../../src/emulator/module.js';
import { emailMessages } from '../../../../src/emulator/routes/email-message-records.js';
import { workflows } from '../../../../src/emulator/routes/workflow-records.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';
import { plannedThemeEdit } from '../../../support/theme-plan.js';
import { edit, workflowDir } from '../../../support/workflow-tree.js';

const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const SCORE = 'cu46uqyjwgaeml2epsiw5a711';
const DORMANT = 'ccaupowsk6riuwqxc5jsidoxl';
const BILLING = seedId('transactional-group/Billing');
const PASSWORD_RESET = seedId('transactional/Password reset');
const PASSWORD_RESET_DRAFT = seedId('transactional/Password reset/draft');
const ONLY = ['--only', 'transactional,components,themes,workflows'];
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

function place(): { directory: string; plan: string; env: Record<string, string> } {
  const directory = tempDir('loopsctl-undo-');
  directories.push(directory);
  return { directory, plan: join(directory, 'change.json'), env: { LOOPSCTL_CONFIG_DIR: join(directory, 'config') } };
}

/** The account's content as a pull writes it, to compare with after an undo. */
async function pulled(sandbox: RecordingSandbox, directory: string, env: Record<string, string>): Promise<string> {
  const root = join(directory, 'before');
  const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY], { env });
  expect(pull.code, pull.stderr).toBe(0);
  return root;
}

async function applied(sandbox: RecordingSandbox, plan: string, env: Record<string, string>): Promise<string> {
  const apply = await sandbox.loopsctl(['apply', plan], { env });
  expect(apply.code, apply.stderr).toBe(0);
  return /`loopsctl undo (\S+)` puts it back/.exec(apply.stderr)![1]!;
}

const TEAMMATE_LMX = '<Paragraph>Edited in the app</Paragraph>\n';
const messageOf = (sandbox: RecordingSandbox) => emailMessages.of(sandbox.server.state()).find(({ message }) => message.id === PASSWORD_RESET_DRAFT)!.message;

function teammateEdits(sandbox: RecordingSandbox): void {
  sandbox.server.update((state) => {
    const stored = emailMessages.of(state).find(({ message }) => message.id === PASSWORD_RESET_DRAFT)!;
    stored.message.lmx = TEAMMATE_LMX;
    stored.message.contentRevisionId = 'edited-in-the-app';
  });
}

/** A plan of two records: the password reset's draft, then the win-back workflow. */
/** Runs `edit` as each request to a path under `prefix` is recorded (the moment it is answered), until the returned function is called. */
function onWrite(sandbox: RecordingSandbox, prefix: string, edit: () => void): () => void {
  const recorded = sandbox.requests;
  const push = recorded.push.bind(recorded);
  recorded.push = (...items: Recorded[]) => {
    if (items.some((request) => request.method === 'POST' && request.path.startsWith(prefix))) edit();
    return push(...items);
  };
  return () => {
    recorded.push = push;
  };
}

async function plannedTwo(sandbox: RecordingSandbox, directory: string, plan: string, env: Record<string, string>): Promise<void> {
  const root = join(directory, 'edited');
  expect((await sandbox.loopsctl(['content', 'pull', root, ...ONLY], { env })).code).toBe(0);
  writeFileSync(join(root, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx'), '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
  edit(join(workflowDir(root, 'win-back-draft'), 'workflow.yaml'), 'samplingRate: 20', 'samplingRate: 25');
  const made = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--out', plan], { env });
  expect(made.code, made.stderr).toBe(0);
}

describe('loopsctl undo', () => {
  it.each([
    ['a node update, by the plan file', ['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30'], 'plan'],
    ['a node added, by the id apply printed', ['workflow', 'nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--after', DORMANT], 'id'],
  ])('takes back a workflow edit (%s): the account holds the graph as it was, and a pull finds nothing changed', async (_name, args, by) => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    const before = await pulled(sandbox, directory, env);
    const made = await sandbox.loopsctl([...args, '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    const id = await applied(sandbox, plan, env);
    const changed = await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env });
    expect(changed.stdout).toContain('workflows/win-back-draft--');

    sandbox.requests.length = 0;
    const target = by === 'plan' ? plan : id;
    const undo = await sandbox.loopsctl(['undo', target, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain('would put back');
    // Its impact, as any plan's: the node the change added is deleted, with the contacts waiting there.
    if (by === 'id') expect(undo.stdout).toMatch(/\nImpact:\n {2}workflows\/Win-back \(draft\): deletes node \S+: nobody is waiting there\n/);
    // The impact's dry runs ask only, and are no change.
    const sent = writes(sandbox.requests).filter((request) => request.body?.dryRun !== true);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((request) => request.status === 200)).toBe(true);
    const diff = await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env });
    expect(diff.code, diff.stdout).toBe(0);
    const lines = readFileSync(join(env.LOOPSCTL_CONFIG_DIR, 'journal', 'changes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The undo's lines say they are an undo, and of what.
    const undoLines = lines.filter((line) => line.command === 'undo');
    expect(undoLines.length).toBe(sent.length);
    expect(undoLines.every((line) => JSON.stringify(line.files) === JSON.stringify([target]))).toBe(true);
  });

  it('takes back an email edit, applied from a plan or pushed: the draft holds its LMX as it was', async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    const before = await pulled(sandbox, directory, env);
    const root = join(directory, 'edited');
    expect((await sandbox.loopsctl(['content', 'pull', root, ...ONLY], { env })).code).toBe(0);
    writeFileSync(join(root, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx'), '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
    const made = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    await applied(sandbox, plan, env);
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    const diff = await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env });
    expect(diff.code, diff.stdout).toBe(0);

    // A push without --out plans and applies in one run, and keeps the same for undo.
    const again = join(directory, 'again');
    expect((await sandbox.loopsctl(['content', 'pull', again, ...ONLY], { env })).code).toBe(0);
    writeFileSync(join(again, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx'), '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
    const push = await sandbox.loopsctl(['content', 'push', again, ...ONLY], { env });
    expect(push.code, push.stderr).toBe(0);
    const id = /`loopsctl undo (\S+)` puts it back/.exec(push.stderr)![1]!;
    const pushedUndo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(pushedUndo.code, pushedUndo.stderr).toBe(0);
    const afterPush = await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env });
    expect(afterPush.code, afterPush.stdout).toBe(0);
    // Nine runs of loopsctl, the plan's among them reading the account again for its review of the emails.
  });

  it('takes back a workflow edit pushed without a plan file', async () => {
    const sandbox = await sandboxes();
    const { directory, env } = place();
    const before = await pulled(sandbox, directory, env);
    const root = join(directory, 'edited');
    expect((await sandbox.loopsctl(['content', 'pull', root, ...ONLY], { env })).code).toBe(0);
    edit(join(workflowDir(root, 'win-back-draft'), 'workflow.yaml'), 'samplingRate: 20', 'samplingRate: 25');
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY], { env });
    expect(push.code, push.stderr).toBe(0);
    const id = /What it changed in workflows was kept as it was before: `loopsctl undo (\S+)` puts it back/.exec(push.stderr)![1]!;
    const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    const diff = await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env });
    expect(diff.code, diff.stdout).toBe(0);
  });

  it('is refused as a conflict when the record changed again since the change, sending nothing after it', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    const made = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    await applied(sandbox, plan, env);
    const again = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=40'], { env });
    expect(again.code, again.stderr).toBe(0);
    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code).toBe(5);
    expect(undo.stderr).toContain('changed in the account since; nothing was sent');
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('finds a record changed since before the first write: refused whole, nothing put back, where it once put back the workflow and stopped half done', async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    await plannedTwo(sandbox, directory, plan, env);
    await applied(sandbox, plan, env);
    // The email, written first, is undone last: the workflow before it would have gone back already.
    teammateEdits(sandbox);
    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(5);
    expect(undo.stderr).toContain(`transactional/password-reset--${PASSWORD_RESET} changed in the account since; nothing was sent`);
    expect(writes(sandbox.requests)).toEqual([]);
    expect(messageOf(sandbox).lmx).toBe(TEAMMATE_LMX);
  });

  it("compares with where each record's own write left it: a teammate's edit made while the apply went on is a conflict, never overwritten", async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    await plannedTwo(sandbox, directory, plan, env);
    // The email is written first; while the workflow is written after it, a teammate edits the email in the app.
    const stop = onWrite(sandbox, `/v1/workflows/${WIN_BACK}/nodes/`, () => teammateEdits(sandbox));
    await applied(sandbox, plan, env);
    stop();
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code).toBe(5);
    expect(undo.stderr).toContain('changed in the account since; nothing was sent');
    expect(messageOf(sandbox).lmx).toBe(TEAMMATE_LMX);
  });

  it("compares with the revision the write's answer gave: a teammate's edit made the moment after the write is a conflict too", async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    await plannedTwo(sandbox, directory, plan, env);
    // The workflow's write is answered; at once, before anything could read it again, a teammate edits it in the app.
    const stop = onWrite(sandbox, `/v1/workflows/${WIN_BACK}/nodes/`, () =>
      sandbox.server.update((state) => {
        // A new record: the answer being sent keeps the one it was made of.
        const held = workflows.of(state);
        const at = held.findIndex((each) => each.id === WIN_BACK);
        const nodes = held[at]!.nodes.map((node) => (node.id === SCORE ? { ...node, samplingRate: 35 } : node));
        held[at] = { ...held[at]!, nodes, workflowRevisionId: 'edited-in-the-app' } as (typeof held)[number];
      }),
    );
    await applied(sandbox, plan, env);
    stop();
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code).toBe(5);
    expect(undo.stderr).toContain('changed in the account since; nothing was sent');
    const score = await sandbox.loopsctl(['workflow', 'nodes', 'get', WIN_BACK, SCORE, '--json'], { env });
    expect(JSON.parse(score.stdout).samplingRate).toBe(35);
  });

  it("takes where a push left an email from its write's answer: a teammate's edit made the moment after the write is a conflict", async () => {
    const sandbox = await sandboxes();
    const { directory, env } = place();
    const root = join(directory, 'edited');
    expect((await sandbox.loopsctl(['content', 'pull', root, ...ONLY], { env })).code).toBe(0);
    writeFileSync(join(root, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx'), '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
    // The draft's write is answered; at once, before anything could read it again, a teammate edits it in the app.
    let edited = false;
    const stop = onWrite(sandbox, `/v1/email-messages/${PASSWORD_RESET_DRAFT}`, () => {
      if (edited) return;
      edited = true;
      // A new message: the answer being sent keeps the one it was made of.
      sandbox.server.update((state) => {
        const held = emailMessages.of(state);
        const at = held.findIndex(({ message }) => message.id === PASSWORD_RESET_DRAFT);
        held[at] = { ...held[at]!, message: { ...held[at]!.message, lmx: TEAMMATE_LMX, contentRevisionId: 'edited-in-the-app' } };
      });
    });
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY], { env });
    stop();
    expect(push.code, push.stderr).toBe(0);
    const id = /`loopsctl undo (\S+)` puts it back/.exec(push.stderr)![1]!;
    const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code).toBe(5);
    expect(undo.stderr).toContain('changed in the account since; nothing was sent');
    expect(messageOf(sandbox).lmx).toBe(TEAMMATE_LMX);
  });

  it('takes back what a partly applied change did, and ends with the conflict, not exit 70', async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    const before = await pulled(sandbox, directory, env);
    await plannedTwo(sandbox, directory, plan, env);
    // Once the email is written, a teammate edits the workflow in the app: the plan's second record conflicts, and is never reached.
    const stop = onWrite(sandbox, '/v1/email-messages/', () =>
      sandbox.server.update((state) => {
        const workflow = workflows.of(state).find((each) => each.id === WIN_BACK)!;
        (workflow.nodes.find((node) => node.id === SCORE) as { samplingRate?: number }).samplingRate = 35;
        workflow.workflowRevisionId = 'edited-in-the-app';
      }),
    );
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    stop();
    expect(apply.code).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    const id = /`loopsctl undo (\S+)` puts it back/.exec(apply.stderr)![1]!;
    const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    const diff = await sandbox.loopsctl(['content', 'diff', before, '--only', 'transactional'], { env });
    expect(diff.code, diff.stdout).toBe(0);
    // The workflow the change never reached is left as the teammate made it.
    const score = await sandbox.loopsctl(['workflow', 'nodes', 'get', WIN_BACK, SCORE, '--json'], { env });
    expect(JSON.parse(score.stdout).samplingRate).toBe(35);
  });

  it('refuses to take back a theme changed in the app since the change, sending nothing', async () => {
    const sandbox = await sandboxes();
    const { directory, env } = place();
    const { id, plan } = await plannedThemeEdit(sandbox, directory, env);
    await applied(sandbox, plan, env);
    const changed = await sandbox.loopsctl(['themes', 'update', id, '--style', 'buttonBorderRadius=12'], { env });
    expect(changed.code, changed.stderr).toBe(0);
    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code).toBe(5);
    expect(undo.stderr).toMatch(new RegExp(`themes/\\S+--${id} changed in the account since; nothing was sent`));
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('leaves the tree pushable after an apply and its undo: the account holds what it was pulled from', async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    const root = join(directory, 'edited');
    expect((await sandbox.loopsctl(['content', 'pull', root, '--only', 'transactional'], { env })).code).toBe(0);
    writeFileSync(join(root, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx'), '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
    expect((await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional', '--plan', '--out', plan], { env })).code).toBe(0);
    await applied(sandbox, plan, env);
    expect((await sandbox.loopsctl(['undo', plan, '--yes'], { env })).code).toBe(0);
    const push = await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional'], { env });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).not.toContain('campaign');
    expect(messageOf(sandbox).lmx).toBe('<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
  });

  it('writes the undo as a plan with --out, and takes back a group edit', async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    await applied(sandbox, plan, env);
    const inverse = join(directory, 'undo.json');
    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', plan, '--out', inverse], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(writes(sandbox.requests)).toEqual([]);
    const written = JSON.parse(readFileSync(inverse, 'utf8'));
    expect(written.command).toBe(`undo ${plan}`);
    expect(written.units[0].calls[0]).toMatchObject({ operation: 'updateTransactionalGroup', body: { name: 'Billing' } });
    const apply = await sandbox.loopsctl(['apply', inverse], { env });
    expect(apply.code, apply.stderr).toBe(0);
    const got = await sandbox.loopsctl(['groups', 'get', BILLING, '--json'], { env });
    expect(JSON.parse(got.stdout).name).toBe('Billing');
  });

  it('says a created record cannot be deleted through the API, and what to do instead', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    const made = await sandbox.loopsctl(['groups', 'create', '--name', 'Receipts', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    await applied(sandbox, plan, env);
    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code).toBe(5);
    expect(undo.stderr).toMatch(
      /transactional group "Receipts": not undone: the change created it, and the API cannot delete a transactional group; delete it in the Loops app \(its id: \w+\)/,
    );
    expect(undo.stderr).toContain(`Nothing of ${plan} can be undone through the API.`);
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('names a record whose after-state was never kept (the apply ended before it could), and puts nothing back blind', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = place();
    const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--name', 'Bills', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    const id = await applied(sandbox, plan, env);
    // As a process ended between the write and the record of where it left the group keeps it: no `after`.
    const image = join(imagesDirectory(env.LOOPSCTL_CONFIG_DIR!), `${id}.json`);
    const kept = JSON.parse(readFileSync(image, 'utf8')) as { records: { after?: unknown }[] };
    expect(kept.records).toHaveLength(1);
    delete kept.records[0]!.after;
    writeFileSync(image, JSON.stringify(kept));
    sandbox.requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(5);
    expect(undo.stderr).toContain('not undone: where the change left it was never kept');
    expect(undo.stderr).toContain(image);
    expect(undo.stderr).toContain(`Nothing of ${id} can be undone through the API.`);
    expect(writes(sandbox.requests)).toEqual([]);
  });
});
