/**
 * A change above the write tier, asked for through `loopsctl mcp`, is made only on a person's yes:
 * asked through the client (MCP elicitation) when it can ask, else kept as "pending approval" for
 * `loopsctl approve <id>` at a terminal, then applied once with approved_apply. The client is the
 * protocol SDK's own, and what was sent is read back from the sandbox.
 */
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, tempDir, typedInput } from '../../../support/main.js';
import { type McpRun, type Person, startMcp } from '../../../support/mcp.js';
import { edit, workflowDir } from '../../../support/workflow-tree.js';

const PASSWORD_RESET = 'c1h3243uwicgpgajrgexlzdl5';
const SEND = { transactionalId: PASSWORD_RESET, to: 'ada@example.com', vars: { resetUrl: 'https://example.com/reset' } };

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

type Answer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

async function serve(person: Person, config = tempDir(), now?: () => Date) {
  const mcp = await startMcp(['--sandbox', '--allow-destructive'], { env: { LOOPSCTL_CONFIG_DIR: config }, person, ...(now === undefined ? {} : { now }) });
  running.push(mcp);
  return {
    ...mcp,
    config,
    call: async (name: string, input: Record<string, unknown> = {}) => (await mcp.client.callTool({ name, arguments: input })) as Answer,
  };
}

const outbox = async (config: string) =>
  (await run(['sandbox', 'outbox', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).json<{ to?: string; idempotencyKey?: string }[]>();

/** `loopsctl approve <id>` at a terminal where the person types the answer. */
async function approveAtTerminal(config: string, id: string, typed: string, now?: () => Date) {
  const input = typedInput();
  // Typed ahead: the answer waits in the terminal's buffer until the question reads it.
  input.write(typed);
  return run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: config }, input, tty: { columns: 100 }, ...(now === undefined ? {} : { now }) });
}

describe('a change above the write tier, through elicitation', () => {
  it('offers no input that approves: the yes of a command is the person’s', async () => {
    const mcp = await serve(false);
    expect(mcp.client.getInstructions()).toContain('a person runs `loopsctl approve <id>` in a terminal, then call approved_apply');
    const { tools } = await mcp.client.listTools();
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('yes');
    const given = await mcp.call('workflow_nodes_delete', { id: 'cw509z9tjxv56rte3vt30437u', nodeId: 'c3qbrs0pv0lkyjx2b5agp7gce', yes: true });
    expect(given.structuredContent.error).toMatchObject({ exitCode: 2, message: 'workflow_nodes_delete has no input "yes"' });
  });

  it('sends nothing when the person declines or cancels, and says so', async () => {
    const asked: string[] = [];
    for (const [action, why] of [
      ['decline', 'the person declined it'],
      ['cancel', 'the person cancelled the question'],
    ] as const) {
      const mcp = await serve((request) => {
        asked.push(request.message);
        return { action };
      });
      const answer = await mcp.call('transactional_send', SEND);
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent.error).toMatchObject({ code: 'not_approved', exitCode: 11, message: `not approved: ${why}; nothing was sent` });
      expect(await outbox(mcp.config)).toEqual([]);
    }
    // A client that answers the question with an error, as one whose person never answered in time: no yes was given.
    const unanswered = await serve(() => {
      throw new Error('the question timed out');
    });
    expect((await unanswered.call('transactional_send', SEND)).structuredContent.error).toMatchObject({
      code: 'not_approved',
      exitCode: 11,
      message: 'not approved: no answer came in time; nothing was sent',
    });
    expect(await outbox(unanswered.config)).toEqual([]);
    // An accept without approve: true is no yes.
    const unticked = await serve(() => ({ action: 'accept', content: { approve: false } }));
    expect((await unticked.call('transactional_send', SEND)).structuredContent.error.message).toBe('not approved: the person declined it; nothing was sent');
    expect(await outbox(unticked.config)).toEqual([]);
    // The person was shown the change in words: the command, and the account it goes to.
    expect(asked[0]).toContain('loopsctl-test (MCP) asks to change the sandbox (team "Acme Sandbox")');
    expect(asked[0]).toMatch(
      /printf '%s' '\{"resetUrl":"https:\/\/example\.com\/reset"\}' \| loopsctl transactional send c1h3243uwicgpgajrgexlzdl5 --to ada@example\.com --vars-file - --idempotency-key [0-9a-f-]{36}$/m,
    );
  });

  it('makes exactly the change asked about when the person approves', async () => {
    const mcp = await serve(() => ({ action: 'accept', content: { approve: true } }));
    const answer = await mcp.call('transactional_send', { ...SEND, 'idempotency-key': 'approved-once' });
    expect(answer.isError, answer.content[0]!.text).toBeFalsy();
    expect((await outbox(mcp.config)).map(({ to, idempotencyKey }) => [to, idempotencyKey])).toEqual([['ada@example.com', 'approved-once']]);
  });
});

describe('the impact a person is shown', () => {
  const WELCOME = 'cmypp2eo4jy28v8rq0khsjwhq';
  const WAIT_2D = 'c7buikafyw3b5s87mgyg71nlb';
  const WAITING = `deletes node ${WAIT_2D}: 2 contacts waiting there would leave the workflow`;

  /** A config whose sandbox has two contacts waiting at the Welcome series' two-day wait: signed up, welcomed, waiting. */
  async function withWaiting(): Promise<string> {
    const config = tempDir();
    for (const email of ['ana@example.com', 'bo@example.com']) {
      const made = await run(['--sandbox', 'contacts', 'create', '--email', email, '--list', 'co0gnzwtbvun8n3amky3gzsp4=true'], {
        env: { LOOPSCTL_CONFIG_DIR: config },
      });
      expect(made.code, made.stderr).toBe(0);
    }
    return config;
  }
  const nodeIds = async (config: string) =>
    Object.keys((await run(['--sandbox', 'workflow', 'show', WELCOME, '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).json<{ nodes: object }>().nodes);

  it('is the plan’s: the contacts waiting at a node a delete removes, asked through the client and at the terminal', async () => {
    const asked: string[] = [];
    const declining = await serve(
      (request) => {
        asked.push(request.message);
        return { action: 'decline' };
      },
      await withWaiting(),
    );
    const declined = await declining.call('workflow_nodes_delete', { id: WELCOME, nodeId: WAIT_2D, 'queued-contacts': 'discard' });
    expect(declined.structuredContent.error).toMatchObject({ code: 'not_approved' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`loopsctl workflow nodes delete ${WELCOME} ${WAIT_2D} --queued-contacts discard\n`);
    expect(asked[0]).toContain(`  Impact:\n    workflow node ${WELCOME}/${WAIT_2D}: ${WAITING}\n`);
    expect(await nodeIds(declining.config)).toContain(WAIT_2D);
    // Planned in a directory of its own, which is gone once asked.
    expect(readdirSync(join(declining.config, 'approvals'))).toEqual([]);

    const pending = await serve(false, await withWaiting());
    const answer = await pending.call('workflow_nodes_delete', { id: WELCOME, nodeId: WAIT_2D, 'queued-contacts': 'discard' });
    expect(answer.structuredContent.change).toContain(`  workflow node ${WELCOME}/${WAIT_2D}: ${WAITING}`);
    const shown = await approveAtTerminal(pending.config, answer.structuredContent.plan, 'n\r');
    expect(shown.stderr).toContain(WAITING);
    expect(await nodeIds(pending.config)).toContain(WAIT_2D);

    const approving = await serve(() => ({ action: 'accept', content: { approve: true } }), await withWaiting());
    const approved = await approving.call('workflow_nodes_delete', { id: WELCOME, nodeId: WAIT_2D, 'queued-contacts': 'discard' });
    expect(approved.isError, approved.content[0]!.text).toBeFalsy();
    expect(await nodeIds(approving.config)).not.toContain(WAIT_2D);
  });
});

describe('a plan file an agent asks to apply', () => {
  it('is shown to the person by its records and the impact written under its digest', async () => {
    const config = tempDir();
    const root = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: config };
    const tree = join(root, 'loops');
    expect((await run(['--sandbox', 'content', 'pull', tree, '--only', 'workflows'], { env })).code).toBe(0);
    // The Welcome series, which is live, without its two-day wait.
    const yaml = join(workflowDir(tree, 'welcome-series'), 'workflow.yaml');
    edit(yaml, '    next: [wait-2d]\n', '    next: [paying-customers]\n');
    edit(yaml, '  wait-2d:\n    type: TimerAction\n    next: [paying-customers]\n    amount: 2\n    unit: d\n', '');
    const planned = await run(['--sandbox', 'content', 'push', tree, '--only', 'workflows', '--plan', '--live', '--out', join(root, 'change.json')], { env });
    expect(planned.code, planned.stderr).toBe(0);
    const asked: string[] = [];
    const mcp = await startMcp(['--sandbox', '--allow-destructive', '--root', root], {
      env,
      person: (request) => {
        asked.push(request.message);
        return { action: 'decline' };
      },
    });
    running.push(mcp);
    const answer = (await mcp.client.callTool({ name: 'apply', arguments: { plan: 'change.json', live: true } })) as Answer;
    expect(answer.structuredContent.error).toMatchObject({ code: 'not_approved' });
    // What the plan does, from its calls, and the digest the person approves.
    expect(asked[0]).toMatch(
      /\n {2}loopsctl apply change\.json --live\n {2}The plan [0-9a-f]{64}, for Acme Sandbox:\n {4}workflows\/welcome-series--\w+: [^\n]*deleteWorkflowNode/,
    );
    expect(asked[0]).toMatch(/\n {2}Impact:\n {4}workflows\/welcome-series--\w+: deletes node wait-2d: nobody is waiting there\n/);
  });

  it("shows the person that an edit of an experiment's variant makes its results before and after not comparable", async () => {
    const config = tempDir();
    const root = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: config };
    const tree = join(root, 'loops');
    expect((await run(['--sandbox', 'content', 'pull', tree, '--only', 'workflows'], { env })).code).toBe(0);
    const lmx = join(workflowDir(tree, 'beta-onboarding-subject-test'), 'emails', 'your-early-access-is', 'email.lmx');
    writeFileSync(lmx, `${readFileSync(lmx, 'utf8')}<Paragraph>One more thing.</Paragraph>\n`);
    const planned = await run(['--sandbox', 'content', 'push', tree, '--only', 'workflows', '--plan', '--live', '--out', join(root, 'change.json')], { env });
    expect(planned.code, planned.stderr).toBe(0);
    const asked: string[] = [];
    const mcp = await startMcp(['--sandbox', '--allow-destructive', '--root', root], {
      env,
      person: (request) => {
        asked.push(request.message);
        return { action: 'decline' };
      },
    });
    running.push(mcp);
    await mcp.client.callTool({ name: 'apply', arguments: { plan: 'change.json', live: true } });
    expect(asked[0]).toMatch(
      /\n {4}workflows\/beta-onboarding-subject-test--\w+: changes the email of send-email node your-early-access-is in variant variant of experiment experiment: results before and after this change are not comparable\n/,
    );
  });
});

describe('a change from a client that cannot ask', () => {
  it('is pending until a person approves it at a terminal, then applied once', async () => {
    const mcp = await serve(false);
    const answer = await mcp.call('transactional_send', SEND);
    expect(answer.isError).toBeFalsy();
    const id = answer.structuredContent.plan as string;
    expect(answer.structuredContent).toMatchObject({ status: 'pending approval', approveWith: `loopsctl approve ${id}` });
    expect(answer.content[0]!.text).toContain('Pending approval: nothing was sent.');
    expect(await outbox(mcp.config)).toEqual([]);
    // Kept for the user alone.
    const dir = join(mcp.config, 'approvals');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(dir)) expect(statSync(join(dir, file)).mode & 0o777, file).toBe(0o600);

    // Not approved yet: nothing is sent.
    const early = await mcp.call('approved_apply', { plan: id });
    expect(early.structuredContent.error).toMatchObject({
      code: 'not_approved',
      exitCode: 11,
      message: `the change ${id} is waiting for a person's approval; nothing was sent`,
    });
    expect(await outbox(mcp.config)).toEqual([]);

    // Not on a terminal (an agent's shell), approve refuses and approves nothing.
    const piped = await run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: mcp.config } });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain(`a person must run \`loopsctl approve ${id}\` on a terminal`);
    const refused = await approveAtTerminal(mcp.config, id, 'n\r');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Error: cancelled; nothing was changed\n');
    expect((await mcp.call('approved_apply', { plan: id })).structuredContent.error.code).toBe('not_approved');

    const approved = await approveAtTerminal(mcp.config, id, 'y\r');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('loopsctl-test (MCP) asks to change the sandbox (team "Acme Sandbox"):');
    expect(approved.stderr).toContain('loopsctl transactional send c1h3243uwicgpgajrgexlzdl5 --to ada@example.com');
    expect(approved.stderr).toContain(`Approve ${id}? [y/N]`);

    // A send's change is no workflow's: workflow_apply plays plans of workflow_propose only.
    expect((await mcp.call('workflow_apply', { plan: id })).structuredContent.error).toMatchObject({ message: `${id} is not a proposed workflow` });
    const applied = await mcp.call('approved_apply', { plan: id });
    expect(applied.isError, applied.content[0]!.text).toBeFalsy();
    expect(await outbox(mcp.config)).toHaveLength(1);
    const again = await mcp.call('approved_apply', { plan: id });
    expect(again.structuredContent.error).toMatchObject({ message: `the change ${id} was applied already; nothing is sent twice` });
    expect(await outbox(mcp.config)).toHaveLength(1);
  });

  it('refuses an approval of another change, and one that expired', async () => {
    let now = new Date('2026-11-25T12:00:00Z');
    const clock = () => now;
    const mcp = await serve(false, tempDir(), clock);
    const first = (await mcp.call('transactional_send', SEND)).structuredContent.plan as string;
    const second = (await mcp.call('transactional_send', { ...SEND, to: 'bob@example.com' })).structuredContent.plan as string;
    expect((await approveAtTerminal(mcp.config, first, 'y\r', clock)).code).toBe(0);
    // The first one's approval put beside the second: it is for another digest.
    const dir = join(mcp.config, 'approvals');
    copyFileSync(join(dir, `${first}.approved.json`), join(dir, `${second}.approved.json`));
    const other = await mcp.call('approved_apply', { plan: second });
    expect(other.structuredContent.error).toMatchObject({
      code: 'not_approved',
      message: `the approval beside ${second} is for another change (another digest); nothing was sent`,
    });
    // An hour later, the approved change has expired with its approval.
    now = new Date('2026-11-25T13:00:00Z');
    const late = await mcp.call('approved_apply', { plan: first });
    expect(late.structuredContent.error).toMatchObject({ code: 'expired', message: `the change ${first} expired at 2026-11-25T13:00:00.000Z` });
    const stale = await approveAtTerminal(mcp.config, second, 'y\r', clock);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toContain(`the change ${second} expired`);
    expect(await outbox(mcp.config)).toEqual([]);
  });

  it('refuses a change edited after it was proposed, before asking anyone', async () => {
    const mcp = await serve(false);
    const id = (await mcp.call('transactional_send', SEND)).structuredContent.plan as string;
    const file = join(mcp.config, 'approvals', `${id}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('ada@example.com', 'eve@example.com'));
    const edited = await approveAtTerminal(mcp.config, id, 'y\r');
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain(`the change ${id} was edited after it was proposed: its digest does not match what it holds`);
    expect((await mcp.call('approved_apply', { plan: id })).structuredContent.error.message).toContain('was edited after it was proposed');
    expect(await outbox(mcp.config)).toEqual([]);
  });
});
