/**
 * The attack suite on the roads that are not one command's: a plan's units of each kind (a
 * command's held request, a content push's email and workflow), applied after their target went
 * live, at a terminal and by the `apply` tool (`workflow_apply` of a proposed edit: binding.test.ts); `undo` of a
 * change whose record went live since; a restore (`content push --only <record> --force`); a clone
 * (a push to an account the tree was never in step with); and the previews `content review` sends.
 * Without the yes a live target is left as it was; with it the call goes.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plans } from '../../src/core/declare.js';
import { workflows } from '../../src/emulator/routes/workflow-records.js';
import { neededYes, sandboxGate } from '../support/live-gate.js';
import { recordingSandbox } from '../support/recording.js';
import { commitWorkingTree } from '../support/review-tree.js';
import { arenaForFile, expectRefused, expectThrough, type Target, WIN_BACK } from './arena.js';
import { commandAttacks, named, placeFor } from './attacks.js';
import { argvOf, recordOf } from './roads.js';

const arena = arenaForFile();
let plansMade = 0;

/** A plan file of the command's request for the target, written in the arena's root. */
async function planned(argv: string[]): Promise<string> {
  const ground = arena();
  const plan = join(ground.root, `plan-${++plansMade}.json`);
  const made = await ground.sandbox.loopsctl([...argv, '--plan', '--out', plan]);
  expect(made.code, made.stderr).toBe(0);
  return plan;
}

/** The tree of the account's content, pulled into the root. */
async function pulled(only: string): Promise<string> {
  const ground = arena();
  const tree = join(ground.root, `tree-${++plansMade}`);
  const pull = await ground.sandbox.loopsctl(['content', 'pull', tree, '--only', only]);
  expect(pull.code, pull.stderr).toBe(0);
  return tree;
}

/** A content push's plan of the tree's `only` part, pulled with the target a draft, edited by `edit` (the emails it names get a paragraph more). */
async function pushPlanned(draft: Target, only: string, edit: (tree: string) => string[]): Promise<string> {
  const ground = arena();
  ground.set(draft);
  const tree = await pulled(only);
  for (const email of edit(tree)) writeFileSync(email, `${readFileSync(email, 'utf8')}<Paragraph>One more thing.</Paragraph>\n`);
  const plan = join(ground.root, `plan-${++plansMade}.json`);
  const made = await ground.sandbox.loopsctl(['content', 'push', tree, '--only', only, '--plan', '--out', plan]);
  expect(made.code, made.stderr).toBe(0);
  return plan;
}

/** The plan applied after its target went live: refused without the yes, at a terminal and by the tool of the write tier; let through with it. */
async function applyAfterLive(plan: string, target: Target, operation: string, what: string): Promise<void> {
  const ground = arena();
  const record = recordOf(operation, ground.ids(target));
  ground.set(target, true);
  const before = ground.state();
  expectRefused(ground, await ground.cli(['apply', plan]), before, `${what}: apply`);
  expectRefused(ground, await ground.tool('write', 'apply', { plan: relative(ground.root, plan) }), before, `${what}: the apply tool`);
  ground.set(target, true);
  expectThrough(await ground.cli(['apply', plan, '--live']), operation, record, `${what}: apply --live`);
}

describe("a plan's units of each kind, applied once their target is live", () => {
  const attacks = commandAttacks().filter((attack) => plans(attack.spec));
  it.each(attacks.map((attack) => [`a request unit of ${attack.command} (${attack.operation})`, attack] as const))('%s', async (_name, attack) => {
    const ground = arena();
    for (const target of attack.targets.filter((each) => each === undefined || each.live)) {
      // Planned while its target is a draft (a send: whenever), applied once it is live.
      const draft = target === undefined ? undefined : { ...target, live: false };
      ground.set(draft);
      const plan = await planned(argvOf(attack.command, attack.spec, attack.words(placeFor(ground, draft)), false));
      if (target === undefined) {
        const before = ground.state();
        expectRefused(ground, await ground.cli(['apply', plan]), before, named(attack, target, 'apply:'));
        ground.set(undefined, true);
        expectThrough(
          await ground.cli(['apply', plan, '--live']),
          attack.operation,
          recordOf(attack.operation, ground.ids()),
          named(attack, target, 'apply --live:'),
        );
        continue;
      }
      // A record whose write takes no revision is read again before it: one changed by going live is a conflict, so the yes is for a plan made live.
      ground.set(target, true);
      const before = ground.state();
      expectRefused(ground, await ground.cli(['apply', plan]), before, named(attack, target, 'apply:'));
      ground.set(target);
      const live = await planned(argvOf(attack.command, attack.spec, attack.words(placeFor(ground, target)), false));
      await applyAfterLive(live, target, attack.operation, named(attack, target, 'a plan made live,'));
    }
    ground.set();
  });

  it("refuses a content push's email unit of a campaign scheduled since the plan, and lets it through with --live", async () => {
    const draft: Target = { kind: 'campaign email', live: false };
    const plan = await pushPlanned(draft, 'campaigns', (tree) => [join(tree, 'campaigns', `november-newsletter--${arena().ids().campaign}`, 'email.lmx')]);
    await applyAfterLive(plan, { ...draft, live: true }, 'updateEmailMessage', 'an email unit');
    arena().set();
  });

  it.each([
    ['component', 'updateComponent'],
    ['theme', 'updateTheme'],
  ] as const)("refuses a content push's %s unit once a live email uses it, pushed or planned, and lets it through with --live", async (kind, operation) => {
    const ground = arena();
    const draft: Target = { kind, live: false };
    const dir = `${kind}s`;
    const edit = (tree: string) => {
      const record = join(tree, dir, readdirSync(join(tree, dir)).find((name) => name.endsWith(`--${ground.ids()[kind]}`))!);
      if (kind === 'component') return [join(record, 'component.lmx')];
      const file = join(record, 'theme.json');
      const theme = JSON.parse(readFileSync(file, 'utf8')) as { styles: Record<string, unknown> };
      writeFileSync(file, JSON.stringify({ ...theme, styles: { ...theme.styles, buttonBodyColor: '#ff0000' } }, null, 2));
      return [];
    };
    // Pushed straight from the tree while a live email uses it.
    ground.set(draft);
    const tree = await pulled(dir);
    for (const file of edit(tree)) writeFileSync(file, `${readFileSync(file, 'utf8')}<Paragraph>One more thing.</Paragraph>\n`);
    ground.set({ kind, live: true });
    const before = ground.state();
    expectRefused(ground, await ground.cli(['content', 'push', tree, '--only', dir]), before, `content push of a live ${kind}`);
    // Planned while no live email used it, applied once one does.
    const plan = await pushPlanned(draft, dir, edit);
    await applyAfterLive(plan, { kind, live: true }, operation, `a ${kind} unit`);
    ground.set();
  });

  it("refuses a content push's workflow unit of a workflow started since the plan, its email's edit with it, and lets it through with --live", async () => {
    const draft: Target = { kind: 'workflow', live: false };
    const dir = (tree: string) => join(tree, 'workflows', `win-back-draft--${WIN_BACK}`);
    const plan = await pushPlanned(draft, 'workflows', (tree) => {
      const yaml = join(dir(tree), 'workflow.yaml');
      writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('samplingRate: 20', 'samplingRate: 25'));
      return [join(dir(tree), 'emails', 'we-saved-your-workspace', 'email.lmx')];
    });
    await applyAfterLive(plan, { ...draft, live: true }, 'updateWorkflowNode', 'a workflow unit');
    expect(
      arena()
        .sent()
        .some((request) => request.path === `/v1/email-messages/${arena().ids().workflowEmail}`),
    ).toBe(true);
    arena().set();
  });
});

describe('the other roads', () => {
  it('refuses an undo of a change whose workflow went live since, and takes it back with --live', async () => {
    const ground = arena();
    const draft: Target = { kind: 'workflow', live: false };
    ground.set(draft);
    const plan = await planned(['workflow', 'nodes', 'update', WIN_BACK, ground.ids().experiment, '--set', 'samplingRate:=30']);
    const applied = await ground.cli(['apply', plan]);
    expect(applied.code, applied.message).toBe(0);
    ground.set({ ...draft, live: true }, true);
    const before = ground.state();
    expectRefused(ground, await ground.cli(['undo', plan, '--yes']), before, 'undo');
    ground.set({ ...draft, live: true }, true);
    expectThrough(await ground.cli(['undo', plan, '--yes', '--live']), 'updateWorkflowNode', WIN_BACK, 'undo --live');
    ground.set();
  });

  it('refuses an undo of a component change once a live email embeds it, and takes it back with --live', async () => {
    const ground = arena();
    const draft: Target = { kind: 'component', live: false };
    const plan = await pushPlanned(draft, 'components', (tree) => [
      join(tree, 'components', readdirSync(join(tree, 'components')).find((name) => name.endsWith(`--${ground.ids().component}`))!, 'component.lmx'),
    ]);
    const applied = await ground.cli(['apply', plan]);
    expect(applied.code, applied.message).toBe(0);
    ground.set({ ...draft, live: true }, true);
    const before = ground.state();
    expectRefused(ground, await ground.cli(['undo', plan, '--yes']), before, 'undo of a component');
    ground.set({ ...draft, live: true }, true);
    expectThrough(await ground.cli(['undo', plan, '--yes', '--live']), 'updateComponent', ground.ids().component, 'undo --live of a component');
    ground.set();
  });

  it('refuses a restore of a workflow from its tree once it is live, and restores it with --live', async () => {
    const ground = arena();
    ground.set({ kind: 'workflow', live: false });
    const tree = await pulled('workflows');
    // Changed in the account since the tree was pulled: the restore puts it back.
    const changed = await ground.cli(['workflow', 'nodes', 'update', WIN_BACK, ground.ids().experiment, '--set', 'samplingRate:=40']);
    expect(changed.code, changed.message).toBe(0);
    const restore = ['content', 'push', tree, '--only', `workflows/win-back-draft--${WIN_BACK}`, '--force'];
    ground.set({ kind: 'workflow', live: true }, true);
    const before = ground.state();
    expectRefused(ground, await ground.cli(restore), before, 'restore');
    ground.set({ kind: 'workflow', live: true }, true);
    expectThrough(await ground.cli([...restore, '--live']), 'updateWorkflowNode', WIN_BACK, 'restore --live');
    ground.set();
  });

  // The arena stands for both environments: two profiles on its one sandbox, whose values for a
  // text of the target's differ (Header's logo; the title of Upgrade thank-you's email, a workflow
  // the seed has sending), so that staging's record, read back, is production's to update.
  it.each([
    ['component a live email uses', { kind: 'component', live: true }, 'components', ['acme-logo', 'zenith-logo'], 'updateComponent'],
    ['email of a live workflow', undefined, 'workflows', ['Thank you for upgrading', 'Thanks for upgrading'], 'updateEmailMessage'],
  ] as const)(
    "refuses a promotion that changes a %s, and promotes it with --live, as a push's",
    async (what, target, only, [staging, production], operation) => {
      const ground = arena();
      const config = join(ground.root, `promote-config-${++plansMade}`);
      for (const profile of ['staging', 'production']) {
        const login = await ground.sandbox.loopsctl(['auth', 'login', '--with-key-stdin', '--profile', profile], {
          env: { LOOPSCTL_CONFIG_DIR: config },
          input: ground.sandbox.env.LOOPS_API_KEY,
        });
        expect(login.code, login.stderr).toBe(0);
      }
      ground.set(target === undefined ? undefined : { ...target, live: false });
      const tree = await pulled(only);
      const environments = { staging: { profile: 'staging', values: { text: staging } }, production: { profile: 'production', values: { text: production } } };
      writeFileSync(join(tree, 'environments.json'), JSON.stringify({ environments }));
      const promote = async (...more: string[]) => {
        const argv = ['content', 'promote', tree, '--from', 'staging', '--to', 'production', '--only', only, '--force', '--yes', ...more];
        const ran = await ground.sandbox.loopsctl(argv, { env: { LOOPSCTL_CONFIG_DIR: config, XDG_CACHE_HOME: join(config, 'cache') } });
        return { code: ran.code, message: `${ran.stderr}${ran.stdout}`, sent: ground.sent() };
      };
      ground.set(target);
      const before = ground.state();
      expectRefused(ground, await promote(), before, `content promote of a ${what}`);
      ground.set(target);
      const record = target === undefined ? undefined : ground.ids(target).component;
      expectThrough(await promote('--live'), operation, record, `content promote --live of a ${what}`);
      ground.set();
    },
  );

  it('clones an edited tree into an account it was never in step with, whose workflows are live, changing none of them', async () => {
    const ground = arena();
    ground.set();
    const tree = await pulled('workflows,transactional');
    const yaml = join(tree, 'workflows', `win-back-draft--${WIN_BACK}`, 'workflow.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('samplingRate: 20', 'samplingRate: 25'));
    const other = await recordingSandbox();
    try {
      other.server.update((state) => {
        for (const workflow of workflows.of(state)) workflow.status = 'Sending';
      });
      const live = () => JSON.stringify(workflows.of(other.server.state()));
      const before = live();
      // --force: the tree's side taken over the account's, as a clone over records of the same names would.
      const clone = await other.loopsctl(['content', 'push', tree, '--yes', '--force'], { env: { XDG_CACHE_HOME: join(ground.config, 'cache') } });
      expect(clone.code, clone.stderr).not.toBe(0);
      expect(clone.stderr).toContain('nothing of them was written');
      expect(clone.stdout).toContain('push with --live to change it anyway');
      const sent = other.requests.filter((request) => request.method !== 'GET');
      expect(await neededYes(sandboxGate(other.server, other.env.LOOPS_API_KEY), sent)).toEqual([]);
      expect(live() === before, 'a live workflow of the account changed').toBe(true);
    } finally {
      await other.close();
    }
  });

  it("sends a review's previews only on the person's yes: its option at a terminal, the person's answer through the server", async () => {
    const ground = arena();
    ground.set();
    // A change reviewed against the tree as committed, and pushed as a draft: what previews show.
    const repository = join(ground.root, `repository-${++plansMade}`);
    const tree = join(repository, 'loops');
    expect((await ground.cli(['content', 'pull', tree, '--only', 'transactional'])).code).toBe(0);
    commitWorkingTree(repository, 'pulled');
    const draft = join(tree, 'transactional', `password-reset--${ground.ids().transactional}`, 'draft.lmx');
    writeFileSync(draft, readFileSync(draft, 'utf8').replace('</Paragraph>', ' Thanks.</Paragraph>'));
    expect((await ground.cli(['content', 'push', tree, '--only', 'transactional'])).code).toBe(0);
    const pushed = ground.state();
    const review = { source: relative(ground.root, tree), base: 'HEAD', 'send-previews': 'alex@example.com' };
    const cli = ['content', 'review', tree, '--base', 'HEAD', '--send-previews', 'alex@example.com', '--yes'];
    const again = () => ground.set(undefined, true);
    again();
    expectThrough(await ground.cli(cli), 'previewEmailMessage', undefined, 'content review --send-previews');
    for (const [tier, answer] of [
      ['write', 'decline'],
      ['destructive', 'decline'],
    ] as const) {
      ground.answer = answer;
      again();
      const before = ground.state();
      expectRefused(ground, await ground.tool(tier, 'content_review', review), before, `content_review on the ${tier} tier, ${answer}d`);
    }
    ground.answer = 'accept';
    again();
    expectThrough(await ground.tool('destructive', 'content_review', review), 'previewEmailMessage', undefined, 'content_review, approved');
    ground.answer = 'decline';
    expect(pushed.length).toBeGreaterThan(0);
    ground.set();
  });
});
