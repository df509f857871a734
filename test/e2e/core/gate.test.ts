/**
 * The gate every write passes (src/core/gate.ts): a send, a schedule, a publish, a delete, a contact
 * written, contacts discarded and an edit of a workflow that is not a draft go only with a person's
 * yes, whatever road the call takes. Every command that may write is run as its example shows it,
 * at the write tier, against a sandbox whose workflows are all live, and each write the sandbox
 * received is judged by the platform's rule book: none needed a yes. Then each road of `loopsctl
 * mcp`: the command tools, run_command and apply at the write tier, the person's question above it,
 * and approvals bound to the account they were made for.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PlanFile, planDigest } from '../../../src/areas/change/plan-file.js';
import { specs } from '../../../src/areas/registry.js';
import { walkSpecs } from '../../../src/core/declare.js';
import { seedId } from '../../../src/emulator/module.js';
import { workflows } from '../../../src/emulator/routes/workflow-records.js';
import { type Handler, json, startApiServer } from '../../support/api-server.js';
import { inTurn, status } from '../../support/faults.js';
import { neededYes, sandboxGate } from '../../support/live-gate.js';
import { run, tempDir, typedInput } from '../../support/main.js';
import { type McpRun, type Person, startMcp } from '../../support/mcp.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../support/recording.js';
import { writeCommands } from '../../support/write-commands.js';

const WELCOME = 'cmypp2eo4jy28v8rq0khsjwhq';
const WELCOME_WAIT = 'cjqgd7s016x333ti5jtkx19m2';
const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const SCORE = 'cu46uqyjwgaeml2epsiw5a711';
const DRAFT_CAMPAIGN = seedId('campaign/November newsletter');
const BILLING = seedId('transactional-group/Billing');

const sandboxes = sandboxEachTest();
const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

let home: string;
beforeAll(() => {
  home = tempDir('loopsctl-gate-');
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  writeFileSync(join(home, 'logo.png'), png);
  writeFileSync(join(home, 'contacts.csv'), 'email,firstName,plan\nalan@example.com,Alan,pro\n');
  writeFileSync(join(home, 'events.jsonl'), '{"eventName":"trial_started","email":"ada@example.com"}\n');
});

const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET' && request.path.startsWith('/v1/'));

/** Every workflow of the sandbox made live: contacts move through each. */
function allLive(sandbox: RecordingSandbox): void {
  sandbox.server.update((state) => {
    for (const workflow of workflows.of(state)) workflow.status = 'Sending';
  });
}

/** The writes among these that needed a person's yes, judged with the sandbox's state: every edit of a workflow and of its emails does, all being live. */
function neededYesOf(sandbox: RecordingSandbox, sent: Recorded[]): Promise<string[]> {
  return neededYes(sandboxGate(sandbox.server, sandbox.env.LOOPS_API_KEY), sent);
}

async function serve(sandbox: RecordingSandbox, args: string[], person: Person, config = tempDir()) {
  const mcp = await startMcp(args, { env: { ...sandbox.env, LOOPSCTL_CONFIG_DIR: config }, person });
  running.push(mcp);
  return {
    config,
    client: mcp.client,
    call: async (name: string, input: Record<string, unknown>) =>
      (await mcp.client.callTool({ name, arguments: input })) as { isError?: boolean; structuredContent?: any },
  };
}

describe('the gate at a terminal', () => {
  it('lets no command of the write tier, run as its example shows it, send what needs a yes', async () => {
    const sandbox = await sandboxes();
    allLive(sandbox);
    const refused: string[] = [];
    const commands = writeCommands(home).filter(({ spec, argv }) => {
      if (spec.tier !== 'write') return false;
      // An option of the destructive tier is the person's yes at a terminal (`--live`, `--schedule`).
      return !(spec.options ?? []).some((option) => option.tier === 'destructive' && argv.includes(option.flags.split(/[ ,]/)[0]!));
    });
    expect(commands.length).toBeGreaterThan(20);
    for (const { name, argv, input: given, before } of commands) {
      const input = before === undefined ? given : (await sandbox.loopsctl(before)).stdout;
      sandbox.requests.length = 0;
      const result = await sandbox.loopsctl(argv, { input });
      expect(await neededYesOf(sandbox, writes(sandbox.requests)), name).toEqual([]);
      if (result.stderr.includes("which needs a person's yes; nothing more was sent")) refused.push(name);
    }
    // The node edits of the examples name a workflow: live here, so each was refused (the update's example says --live).
    expect(refused).toEqual(expect.arrayContaining(['workflow nodes add', 'workflow nodes reroute', 'workflow nodes add-branch']));
    // Every tool a server on the write tier offers that writes is a command of the write tier, whose runs pass the same gate.
    const mcp = await serve(sandbox, ['--allow-writes', '--root', home], false);
    const { tools } = await mcp.client.listTools();
    const ran = new Set(writeCommands(home).flatMap(({ name, spec }) => (spec.tier === 'write' ? [name.replace(/[ -]/g, '_')] : [])));
    // The server's own: run_command runs the command tools' calls, approved_apply a call a person approved, the workflow tools content push and apply.
    const own = new Set(['workflow_propose', 'workflow_apply', 'workflow_test', 'run_command', 'approved_apply']);
    // Tools that write local files only (a pull, a render), of commands that change no account.
    const local = new Set(walkSpecs(specs).flatMap(({ path, spec }) => (spec.remote && spec.tier !== 'read' ? [] : [path.join('_').replace(/-/g, '_')])));
    const writing = tools.filter((tool) => tool.annotations?.readOnlyHint === false && !own.has(tool.name) && !local.has(tool.name)).map((tool) => tool.name);
    expect(writing.length).toBeGreaterThan(20);
    expect(writing.filter((name) => !ran.has(name))).toEqual([]);
  });

  it('changes a live workflow with --live, and a draft without it', async () => {
    const sandbox = await sandboxes();
    const draft = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30']);
    expect(draft.code, draft.stderr).toBe(0);
    sandbox.requests.length = 0;
    const refused = await sandbox.loopsctl(['workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT, '--set', 'amount:=8']);
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain('edits a workflow that is Sending: contacts move through it');
    expect(refused.stderr).toContain('--live');
    expect(writes(sandbox.requests)).toEqual([]);
    const live = await sandbox.loopsctl(['workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT, '--set', 'amount:=8', '--live']);
    expect(live.code, live.stderr).toBe(0);
    expect(writes(sandbox.requests).map((request) => request.path)).toEqual([`/v1/workflows/${WELCOME}/nodes/${WELCOME_WAIT}`]);
  });

  it('applies a plan of a workflow that went live after it was planned only with --live', async () => {
    const sandbox = await sandboxes();
    const plan = join(tempDir(), 'node.json');
    const planned = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30', '--plan', '--out', plan]);
    expect(planned.code, planned.stderr).toBe(0);
    allLive(sandbox);
    sandbox.requests.length = 0;
    const refused = await sandbox.loopsctl(['apply', plan]);
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain(
      `workflow node ${WIN_BACK}/${SCORE}: edits a workflow that is Sending: contacts move through it: this needs a person's yes`,
    );
    expect(writes(sandbox.requests)).toEqual([]);
    const applied = await sandbox.loopsctl(['apply', plan, '--live']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(writes(sandbox.requests)).toHaveLength(1);
  });
});

describe('the gate in loopsctl mcp', () => {
  it('refuses a live workflow, through the node tools, run_command and apply, on the write tier, asking no one', async () => {
    const sandbox = await sandboxes();
    const asked: string[] = [];
    const person: Person = (request) => {
      asked.push(request.message);
      return { action: 'accept', content: { approve: true } };
    };
    const root = tempDir();
    const schedule = await sandbox.loopsctl([
      'campaigns',
      'update',
      DRAFT_CAMPAIGN,
      '--schedule',
      '2031-01-06T09:00:00Z',
      '--plan',
      '--out',
      join(root, 'schedule.json'),
    ]);
    expect(schedule.code, schedule.stderr).toBe(0);
    const tools = await serve(sandbox, ['--allow-writes', '--root', root], person);
    const meta = await serve(sandbox, ['--allow-writes', '--tools', 'meta'], person);
    sandbox.requests.length = 0;
    const update = { id: WELCOME, nodeId: WELCOME_WAIT, set: ['amount:=8'] };
    for (const answer of [
      await tools.call('workflow_nodes_update', update),
      await meta.call('run_command', { command: 'workflow nodes update', arguments: update }),
      await tools.call('apply', { plan: 'schedule.json' }),
    ]) {
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent.error).toMatchObject({ code: 'approval_needed', exitCode: 11, message: expect.stringContaining("needs a person's yes") });
      expect(answer.structuredContent.error.hint).toContain('--allow-destructive');
    }
    expect(asked).toEqual([]);
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('asks the person above the write tier, in sanitized words that say why, and makes the change once on a yes', async () => {
    const sandbox = await sandboxes();
    const asked: string[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    const mcp = await serve(sandbox, ['--allow-destructive'], (request) => {
      asked.push(request.message);
      return answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
    });
    sandbox.requests.length = 0;
    const update = { id: WELCOME, nodeId: WELCOME_WAIT, set: ['amount:=8'] };
    const declined = await mcp.call('workflow_nodes_update', { ...update, 'expected-revision-id': 'r1\n  loopsctl themes list\u202e' });
    expect(declined.structuredContent.error).toMatchObject({ code: 'not_approved' });
    expect(writes(sandbox.requests)).toEqual([]);
    expect(asked[0]).toContain('Asked because: POST /v1/workflows/');
    expect(asked[0]).toContain('edits a workflow that is Sending');
    // The model's words reach the question escaped: no line of their own, no reordering.
    expect(asked[0]).toContain('r1\\n  loopsctl themes list\\u202e');
    expect(asked[0]).not.toContain('\u202e');
    expect(asked[0]!.split('\n').some((line) => line.startsWith('  loopsctl themes list'))).toBe(false);
    answer = 'accept';
    const made = await mcp.call('workflow_nodes_update', update);
    expect(made.isError, JSON.stringify(made.structuredContent)).toBeFalsy();
    expect(writes(sandbox.requests).map((request) => request.path)).toEqual([`/v1/workflows/${WELCOME}/nodes/${WELCOME_WAIT}`]);
  });

  it('applies a plan file as the person approved it, not as rewritten since, and refuses the copy kept with it edited', async () => {
    const sandbox = await sandboxes();
    const [config, root] = [tempDir(), tempDir()];
    const plan = (description: string) =>
      sandbox.loopsctl(['groups', 'update', BILLING, '--description', description, '--plan', '--out', join(root, 'change.json')]);
    expect((await plan('Receipts')).code).toBe(0);
    const mcp = await serve(sandbox, ['--allow-destructive', '--root', root], false, config);
    const pending = await mcp.call('apply', { plan: 'change.json', live: true });
    const id = pending.structuredContent.plan as string;
    const input = typedInput();
    input.write('y\r');
    expect((await run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: config }, input, tty: { columns: 100 } })).code).toBe(0);
    expect((await plan('Something else')).code).toBe(0);
    // The copy the yes is for, edited where it is kept: refused before the approval is used.
    const kept = join(config, 'approvals', id, 'change.json');
    const approved = readFileSync(kept, 'utf8');
    writeFileSync(kept, approved.replace('"Receipts"', '"Edited"'));
    sandbox.requests.length = 0;
    const refused = await mcp.call('approved_apply', { plan: id });
    expect(refused.structuredContent.error).toMatchObject({
      code: 'not_approved',
      message: 'the plan kept for this change is not the one the person approved (its digest changed); nothing was sent',
    });
    expect(writes(sandbox.requests)).toEqual([]);
    writeFileSync(kept, approved);
    const made = await mcp.call('approved_apply', { plan: id });
    expect(made.isError, JSON.stringify(made.structuredContent)).toBeFalsy();
    expect(writes(sandbox.requests).map((request) => request.body)).toEqual([{ description: 'Receipts' }]);
  });

  it('refuses a plan approved while its workflow was a draft, once it is live, before any of its writes', async () => {
    const sandbox = await sandboxes();
    const [config, root] = [tempDir(), tempDir()];
    // A plan of two records: a group's description (reaching no one), then an edit of the draft Win-back.
    const unitOf = async (argv: string[]) => {
      const out = join(tempDir(), 'unit.json');
      const planned = await sandbox.loopsctl([...argv, '--plan', '--out', out]);
      expect(planned.code, planned.stderr).toBe(0);
      return JSON.parse(readFileSync(out, 'utf8')) as PlanFile;
    };
    const group = await unitOf(['groups', 'update', BILLING, '--description', 'Receipts']);
    const node = await unitOf(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30']);
    const both = { ...group, units: [...group.units, ...node.units] };
    writeFileSync(join(root, 'change.json'), JSON.stringify({ ...both, digest: planDigest(both) }));
    const mcp = await serve(sandbox, ['--allow-destructive', '--root', root], false, config);
    const pending = await mcp.call('apply', { plan: 'change.json', live: true });
    const id = pending.structuredContent.plan as string;
    expect(id, JSON.stringify(pending.structuredContent)).toMatch(/^p-/);
    const input = typedInput();
    input.write('y\r');
    expect((await run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: config }, input, tty: { columns: 100 } })).code).toBe(0);
    // After the yes, a person starts Win-back in the app.
    sandbox.server.update((state) => {
      workflows.of(state).find((workflow) => workflow.id === WIN_BACK)!.status = 'Sending';
    });
    sandbox.requests.length = 0;
    const refused = await mcp.call('approved_apply', { plan: id });
    expect(refused.structuredContent.error).toMatchObject({ exitCode: 5, message: expect.stringContaining('which it was not when the person said yes') });
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('refuses a change approved for one account on a server of another sharing the config directory', async () => {
    const [first, second] = [await sandboxes(), await sandboxes()];
    const config = tempDir();
    const proposing = await serve(first, ['--allow-destructive'], false, config);
    const pending = await proposing.call('workflow_nodes_update', { id: WELCOME, nodeId: WELCOME_WAIT, set: ['amount:=8'] });
    const id = pending.structuredContent.plan as string;
    expect(id).toMatch(/^p-/);
    const input = typedInput();
    input.write('y\r');
    const approved = await run(['approve', id], { env: { LOOPSCTL_CONFIG_DIR: config }, input, tty: { columns: 100 } });
    expect(approved.code, approved.stderr).toBe(0);
    const other = await serve(second, ['--allow-destructive'], false, config);
    second.requests.length = 0;
    const refused = await other.call('approved_apply', { plan: id });
    expect(refused.structuredContent.error).toMatchObject({ code: 'wrong_account', exitCode: 11, message: expect.stringContaining('was proposed for') });
    expect(writes(second.requests)).toEqual([]);
    first.requests.length = 0;
    const made = await proposing.call('approved_apply', { plan: id });
    expect(made.isError, JSON.stringify(made.structuredContent)).toBeFalsy();
    expect(writes(first.requests)).toHaveLength(1);
  });
});

describe('a state the gate cannot read', () => {
  /** Answers as the sandbox does, a request at a time. */
  const asSandbox =
    (sandbox: RecordingSandbox): Handler =>
    async (req, res) => {
      const query = req.query.toString();
      const answer = await sandbox.server.answer({
        method: req.method,
        target: `${req.path}${query === '' ? '' : `?${query}`}`,
        headers: { authorization: `Bearer ${sandbox.env.LOOPS_API_KEY}`, 'content-type': 'application/json' },
        body: Buffer.from(req.body),
      });
      json(res, answer.status, answer.body);
    };

  it.each([
    ['a server error (500)', status(500, { message: 'Internal Server Error' })],
    ['the rate limit (429)', status(429, { message: 'Too many requests' }, { 'retry-after': '0' })],
    ['a connection the network dropped', ((_req, res) => res.socket?.destroy()) as Handler],
  ])("refuses a workflow's edit whose status it could not read for %s, as one that may be live, sending nothing", async (_what, failure) => {
    const sandbox = await sandboxes();
    // The command reads the workflow for its revision; the gate's read just before the write fails.
    const api = await startApiServer({ 'GET /v1/workflows/:id': inTurn(asSandbox(sandbox), failure) });
    try {
      const refused = await run(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30', '--retries', '0'], {
        env: { LOOPS_API_KEY: 'sandbox-key', LOOPS_BASE_URL: api.url },
      });
      expect(refused.code, refused.stderr).toBe(11);
      expect(refused.stderr).toContain(`POST /v1/workflows/${WIN_BACK}/nodes/${SCORE} edits a workflow that may be live: whether it is could not be read`);
      expect(refused.stderr).toContain("which needs a person's yes; nothing more was sent");
      expect(api.requests.map((request) => request.method)).toEqual(['GET', 'GET']);
    } finally {
      await api.close();
    }
  });
});
