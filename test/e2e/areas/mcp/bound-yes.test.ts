/**
 * A person's yes binds the calls it was given for: on every road (the terminal's `apply --live`,
 * `loopsctl approve` then approved_apply, an MCP client's question), what is sent is exactly what
 * the person was shown, or nothing (exit 5, saying what changed) when the account moved since. A
 * change made in the tree after the yes is not carried by it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { run, tempDir, typedInput } from '../../../support/main.js';
import { type McpRun, type Person, startMcp } from '../../../support/mcp.js';
import { edit, workflowDir } from '../../../support/workflow-tree.js';

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

type Answer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

const WELCOME = 'cmypp2eo4jy28v8rq0khsjwhq';
const WAIT_2D = 'c7buikafyw3b5s87mgyg71nlb';
const NOVEMBER = seedId('campaign/November newsletter');

async function serve(person: Person, config: string, root?: string) {
  const mcp = await startMcp(['--sandbox', '--allow-destructive', ...(root === undefined ? [] : ['--root', root])], {
    env: { LOOPSCTL_CONFIG_DIR: config },
    person,
  });
  running.push(mcp);
  return async (name: string, input: Record<string, unknown> = {}) => (await mcp.client.callTool({ name, arguments: input })) as Answer;
}

async function approveAtTerminal(config: string, id: string) {
  const input = typedInput();
  input.write('y\r');
  const approved = await run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: config }, input, tty: { columns: 100 } });
  expect(approved.code, approved.stderr).toBe(0);
}

const sandbox = (config: string, args: string[]) => run(['--sandbox', ...args], { env: { LOOPSCTL_CONFIG_DIR: config } });
const timerOf = async (config: string) =>
  (await sandbox(config, ['workflow', 'show', WELCOME, '--json'])).json<{ nodes: Record<string, { amount?: number }> }>().nodes[WAIT_2D]?.amount;

describe("a live workflow's change approved through `loopsctl approve`", () => {
  it('applies the plan the person approved: a timer changed in the tree after the yes is not pushed under it', async () => {
    const config = tempDir();
    const root = tempDir();
    const tree = join(root, 'loops');
    expect((await sandbox(config, ['content', 'pull', tree, '--only', 'workflows'])).code).toBe(0);
    const welcome = workflowDir(tree, 'welcome-series');
    // The change the person reviews: the first email's subject.
    edit(join(welcome, 'emails', 'welcome-aboard-contact-firstname', 'email.json'), '"subject": "', '"subject": "Reviewed: ');
    const call = await serve(false, config, root);
    const asked = await call('content_push', { dir: 'loops', only: 'workflows', live: true });
    expect(asked.isError, asked.content[0]!.text).toBeFalsy();
    const id = asked.structuredContent.plan as string;
    expect(asked.structuredContent.change.join('\n')).not.toContain('amount');
    await approveAtTerminal(config, id);
    // After the yes, the two-day wait becomes thirty in the tree.
    edit(join(welcome, 'workflow.yaml'), '    amount: 2\n', '    amount: 30\n');
    const applied = await call('approved_apply', { plan: id });
    expect(applied.isError, applied.content[0]!.text).toBeFalsy();
    expect(await timerOf(config)).toBe(2);
    const email = (await sandbox(config, ['content', 'diff', tree, '--only', 'workflows'])).stdout;
    expect(email).not.toContain('Reviewed: ');
  });

  it('refuses, exit 5 and nothing sent, a plan whose record changed in the account after the yes', async () => {
    const config = tempDir();
    const call = await serve(false, config);
    const asked = await call('campaigns_update', { id: NOVEMBER, schedule: '2031-01-06T09:00:00Z' });
    const id = asked.structuredContent.plan as string;
    expect(id, asked.content[0]!.text).toMatch(/^p-/);
    await approveAtTerminal(config, id);
    // A teammate renames the campaign after the yes: the schedule approved was for the campaign as it was.
    expect((await sandbox(config, ['campaigns', 'update', NOVEMBER, '--name', 'December newsletter'])).code).toBe(0);
    const applied = await call('approved_apply', { plan: id });
    expect(applied.structuredContent.error, applied.content[0]!.text).toMatchObject({
      exitCode: 5,
      message: `campaign ${NOVEMBER}: /v1/campaigns/${NOVEMBER} changed in the account since the plan was made: the change approved was stopped there, and nothing after it was sent`,
    });
    const campaign = (await sandbox(config, ['campaigns', 'get', NOVEMBER, '--json'])).json<{ status: string; name: string }>();
    expect(campaign).toMatchObject({ name: 'December newsletter', status: 'Draft' });
  });

  it('refuses, exit 5, a call the command would now make otherwise than the person approved, and sends none of it', async () => {
    const config = tempDir();
    const call = await serve(false, config);
    // A delete that discards queued contacts, which no plan holds: bound by the call it makes, its workflow's revision in its body.
    const asked = await call('workflow_nodes_delete', { id: WELCOME, nodeId: WAIT_2D, 'queued-contacts': 'discard' });
    const id = asked.structuredContent.plan as string;
    expect(id, asked.content[0]!.text).toMatch(/^p-/);
    await approveAtTerminal(config, id);
    // A teammate edits the workflow after the yes: its revision moves.
    expect((await sandbox(config, ['workflow', 'update', WELCOME, '--description', 'Edited after the yes'])).code).toBe(0);
    const applied = await call('approved_apply', { plan: id });
    expect(applied.structuredContent.error).toMatchObject({ exitCode: 5, code: 'not_approved_call' });
    expect(applied.structuredContent.error.message).toContain(`the body of DELETE /v1/workflows/${WELCOME}/nodes/${WAIT_2D} is not the one approved`);
    expect(await timerOf(config)).toBe(2);
  });
});

describe('a change approved through the MCP client’s question', () => {
  it('is the plan shown: the account changed while the person read it is a conflict, exit 5, nothing sent', async () => {
    const config = tempDir();
    const call = await serve(async () => {
      // While the question is open, a teammate renames the campaign.
      expect((await sandbox(config, ['campaigns', 'update', NOVEMBER, '--name', 'Renamed while asked'])).code).toBe(0);
      return { action: 'accept', content: { approve: true } };
    }, config);
    const answer = await call('campaigns_update', { id: NOVEMBER, schedule: '2031-01-06T09:00:00Z' });
    expect(answer.structuredContent.error, answer.content[0]!.text).toMatchObject({
      exitCode: 5,
      message: expect.stringContaining(`/v1/campaigns/${NOVEMBER} changed in the account since the plan was made`),
    });
    expect((await sandbox(config, ['campaigns', 'get', NOVEMBER, '--json'])).json<{ status: string }>().status).toBe('Draft');
  });
});

describe("a live workflow's plan applied at the terminal with --live", () => {
  it('sends the plan reviewed, or, for a workflow changed since, nothing: exit 5', async () => {
    const config = tempDir();
    const plan = join(tempDir(), 'change.json');
    const planned = await sandbox(config, ['workflow', 'nodes', 'update', WELCOME, WAIT_2D, '--set', 'amount:=3', '--plan', '--out', plan]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(JSON.parse(readFileSync(plan, 'utf8')).units[0].calls[0].body).toMatchObject({ payload: { amount: 3 } });
    expect((await sandbox(config, ['workflow', 'update', WELCOME, '--description', 'Edited after the review'])).code).toBe(0);
    const applied = await sandbox(config, ['apply', plan, '--live']);
    expect(applied.code, applied.stderr).toBe(5);
    expect(applied.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(applied.stdout).toContain(`/v1/workflows/${WELCOME} changed in the account since the plan was made`);
    expect(await timerOf(config)).toBe(2);
  });
});
