/**
 * Workflows edited through `loopsctl mcp` without a checkout: proposed inline, checked by the
 * content check rules, tested, and applied by plan id, a live one only on a person's yes. The
 * client is the protocol SDK's own; what changed is read back from the sandbox.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, tempDir, typedInput } from '../../../support/main.js';
import { type McpRun, type Person, startMcp } from '../../../support/mcp.js';

const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const WIN_BACK_EXPERIMENT = 'cu46uqyjwgaeml2epsiw5a711';
const WELCOME = 'cmypp2eo4jy28v8rq0khsjwhq';

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

type Answer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

async function serve(person: Person, config = tempDir(), tier = '--allow-destructive') {
  const mcp = await startMcp(['--sandbox', tier], { env: { LOOPSCTL_CONFIG_DIR: config }, person });
  running.push(mcp);
  return {
    ...mcp,
    config,
    call: async (name: string, input: Record<string, unknown> = {}) => (await mcp.client.callTool({ name, arguments: input })) as Answer,
  };
}

type Shown = { status: string; name: string; nodes: Record<string, Record<string, unknown>> };
const show = async (config: string, id: string) =>
  (await run(['--sandbox', 'workflow', 'show', id, '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).json<Shown>();

/** The welcome series' first wait, two days long, made three. */
const LONGER_WAIT = { workflow: WELCOME, edits: [{ node: 'wait-2d', set: { amount: 3 } }] };
const waitOf = async (config: string) => Object.values((await show(config, WELCOME)).nodes).filter((node) => node.typeName === 'TimerAction')[0];

describe('workflow_propose, workflow_test and workflow_apply', () => {
  it('plan a draft’s edit, test the proposed graph, and apply exactly the plan', async () => {
    const mcp = await serve(false);
    // A node named by its id as well as by its key.
    const proposed = await mcp.call('workflow_propose', { workflow: WIN_BACK, edits: [{ node: WIN_BACK_EXPERIMENT, set: { samplingRate: 30 } }] });
    expect(proposed.isError, proposed.content[0]!.text).toBeFalsy();
    expect(proposed.structuredContent).toMatchObject({
      live: false,
      new: false,
      calls: expect.arrayContaining(['  1. updateWorkflowNode experiment samplingRate=30']),
    });
    const plan = proposed.structuredContent.plan as string;
    // Nothing changed yet.
    expect((await show(mcp.config, WIN_BACK)).nodes[WIN_BACK_EXPERIMENT]!.samplingRate).toBe(20);

    const tested = await mcp.call('workflow_test', { plan, contact: 'sam@example.com' });
    expect(tested.isError, tested.content[0]!.text).toBeFalsy();
    expect(tested.structuredContent).toMatchObject({ journeys: expect.any(Array), emails: expect.any(Array) });

    const applied = await mcp.call('workflow_apply', { plan });
    expect(applied.isError, applied.content[0]!.text).toBeFalsy();
    const after = await show(mcp.config, WIN_BACK);
    expect(after.nodes[WIN_BACK_EXPERIMENT]!.samplingRate).toBe(30);
    expect(after.status).toBe('Draft');
  });

  it('keep no pulled tree in approvals/ once a proposal is applied, planned nothing, or expired', async () => {
    let now = new Date('2026-11-25T10:00:00Z');
    const config = tempDir();
    const mcp = await startMcp(['--sandbox', '--allow-writes'], { env: { LOOPSCTL_CONFIG_DIR: config }, person: false, now: () => now });
    running.push(mcp);
    const call = async (name: string, input: Record<string, unknown>) => (await mcp.client.callTool({ name, arguments: input })) as Answer;
    const trees = () => readdirSync(join(config, 'approvals'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const edit = { workflow: WIN_BACK, edits: [{ node: WIN_BACK_EXPERIMENT, set: { samplingRate: 30 } }] };
    const applied = await call('workflow_apply', { plan: (await call('workflow_propose', edit)).structuredContent.plan });
    expect(applied.isError, applied.content[0]!.text).toBeFalsy();
    expect(trees()).toEqual([]);
    // The account holds that edit already: nothing is proposed, and nothing kept.
    expect((await call('workflow_propose', edit)).structuredContent).toEqual({ change: false });
    expect(trees()).toEqual([]);
    const waiting = await call('workflow_propose', { ...edit, edits: [{ node: WIN_BACK_EXPERIMENT, set: { samplingRate: 40 } }] });
    expect(trees().map((entry) => entry.name)).toEqual([waiting.structuredContent.plan]);
    now = new Date(now.getTime() + 2 * 60 * 60 * 1000);
    const next = await call('workflow_propose', { ...edit, edits: [{ node: WIN_BACK_EXPERIMENT, set: { samplingRate: 50 } }] });
    expect(trees().map((entry) => entry.name)).toEqual([next.structuredContent.plan]);
  });

  it('answer the rule book’s problems for a broken graph, and plan nothing', async () => {
    const mcp = await serve(false);
    const broken = await mcp.call('workflow_propose', { workflow: WIN_BACK, edits: [{ node: 'dormant', set: { next: ['nowhere'] } }] });
    expect(broken.isError).toBe(true);
    expect(broken.structuredContent.error).toMatchObject({ code: 'check', exitCode: 2 });
    expect(broken.structuredContent.output.errors).toContainEqual(
      expect.objectContaining({ rule: 'next-exists', message: 'node "dormant": next names "nowhere", which is not a node' }),
    );
    expect(broken.structuredContent.output.errors).toContainEqual(expect.objectContaining({ rule: 'reachable' }));
  });

  it('make a new workflow as a draft', async () => {
    const mcp = await serve(false);
    const yaml = [
      'name: Re-engagement',
      'root: trigger',
      'nodes:',
      '  trigger:',
      '    type: BlankTrigger',
      '    next: [exit]',
      '  exit:',
      '    type: ExitAction',
      '    next: []',
      '',
    ].join('\n');
    const proposed = await mcp.call('workflow_propose', { yaml });
    expect(proposed.isError, proposed.content[0]!.text).toBeFalsy();
    expect(proposed.structuredContent).toMatchObject({ new: true, live: false });
    const applied = await mcp.call('workflow_apply', { plan: proposed.structuredContent.plan });
    expect(applied.isError, applied.content[0]!.text).toBeFalsy();
    const listed = (await run(['--sandbox', 'workflow', 'list', '--json'], { env: { LOOPSCTL_CONFIG_DIR: mcp.config } })).json<
      { id: string; name: string }[]
    >();
    const made = listed.filter(({ name }) => name === 'Re-engagement');
    expect(made).toHaveLength(1);
    expect((await show(mcp.config, made[0]!.id)).status).toBe('Draft');
  });

  it('change a live workflow only on the person’s yes', async () => {
    const declining = await serve(() => ({ action: 'decline' }));
    const before = await waitOf(declining.config);
    const plan = (await declining.call('workflow_propose', LONGER_WAIT)).structuredContent;
    expect(plan).toMatchObject({ live: true });
    const declined = await declining.call('workflow_apply', { plan: plan.plan });
    expect(declined.structuredContent.error).toMatchObject({ code: 'not_approved', message: 'not approved: the person declined it; nothing was sent' });
    expect(await waitOf(declining.config)).toEqual(before);

    const approving = await serve(() => ({ action: 'accept', content: { approve: true } }));
    const approved = await approving.call('workflow_apply', { plan: (await approving.call('workflow_propose', LONGER_WAIT)).structuredContent.plan });
    expect(approved.isError, approved.content[0]!.text).toBeFalsy();
    expect(await waitOf(approving.config)).toMatchObject({ amount: 3 });
  });

  it('keep a live workflow’s change pending for a client that cannot ask, until a person approves it', async () => {
    const mcp = await serve(false);
    const before = await waitOf(mcp.config);
    const plan = (await mcp.call('workflow_propose', LONGER_WAIT)).structuredContent.plan as string;
    const waiting = await mcp.call('workflow_apply', { plan });
    expect(waiting.structuredContent).toMatchObject({
      status: 'pending approval',
      approveWith: `loopsctl approve ${plan}`,
      thenCall: { tool: 'workflow_apply' },
    });
    expect(await waitOf(mcp.config)).toEqual(before);
    const input = typedInput();
    input.write('y\r');
    const approved = await run(['approve', plan], { env: { LOOPSCTL_CONFIG_DIR: mcp.config }, input, tty: { columns: 100 } });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('updateWorkflowNode wait-2d amount=3');
    const applied = await mcp.call('workflow_apply', { plan });
    expect(applied.isError, applied.content[0]!.text).toBeFalsy();
    expect(await waitOf(mcp.config)).toMatchObject({ amount: 3 });
  });

  it('leave a live workflow as it is in a server that may only write, even with the person’s yes', async () => {
    const mcp = await serve(() => ({ action: 'accept', content: { approve: true } }), tempDir(), '--allow-writes');
    const before = await waitOf(mcp.config);
    const plan = (await mcp.call('workflow_propose', LONGER_WAIT)).structuredContent.plan as string;
    const refused = await mcp.call('workflow_apply', { plan });
    expect(refused.structuredContent.error).toMatchObject({
      exitCode: 11,
      message: expect.stringContaining('the server was started without --allow-destructive'),
    });
    expect(await waitOf(mcp.config)).toEqual(before);
  });

  it('answer the plan’s impact: the contacts waiting at a node the change removes', async () => {
    const config = tempDir();
    for (const email of ['ana@example.com', 'bo@example.com']) {
      const made = await run(['--sandbox', 'contacts', 'create', '--email', email, '--list', 'co0gnzwtbvun8n3amky3gzsp4=true'], {
        env: { LOOPSCTL_CONFIG_DIR: config },
      });
      expect(made.code, made.stderr).toBe(0);
    }
    const mcp = await serve(false, config);
    const proposed = await mcp.call('workflow_propose', { workflow: WELCOME, edits: [{ node: 'wait-2d', remove: true }] });
    expect(proposed.isError, proposed.content[0]!.text).toBeFalsy();
    expect(proposed.structuredContent.calls.join('\n')).toMatch(/deletes node \S+: 2 contacts waiting there would leave the workflow/);
  });

  it('remove a node by its key: what led to it leads where it led', async () => {
    const mcp = await serve(false);
    const proposed = await mcp.call('workflow_propose', { workflow: WIN_BACK, edits: [{ node: 'dormant', remove: true }] });
    expect(proposed.isError, proposed.content[0]!.text).toBeFalsy();
    expect(proposed.structuredContent.calls.join('\n')).toContain('deleteWorkflowNode dormant');
    expect((await mcp.call('workflow_apply', { plan: proposed.structuredContent.plan })).isError).toBeFalsy();
    const after = await show(mcp.config, WIN_BACK);
    expect(Object.values(after.nodes).map((node) => node.typeName)).not.toContain('AudienceFilter');
    expect(after.nodes[WIN_BACK_EXPERIMENT]).toBeDefined();
  });
});
