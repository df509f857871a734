/**
 * Editing workflows end to end: a realistic sequence of edits against the sandbox with the tree
 * checked after each step, every request checked against the published description, each
 * documented failure from a purpose-built server, confirmations, dry runs and revisions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import { type StateCore, seedId } from '../../../../src/emulator/module.js';
import { graphProblems } from '../../../../src/emulator/routes/workflow-edits.js';
import type { StoredWorkflow } from '../../../../src/emulator/routes/workflow-records.js';
import { type ApiServer, type Handler, json, startApiServer } from '../../../support/api-server.js';
import { run, sandboxEnv, startTestSandbox, tempDir, typedInput } from '../../../support/main.js';
import { publishedDescription, requestProblems, responseProblems } from '../../../support/openapi.js';

// Seed ids: the draft win-back workflow and its nodes, and the welcome series.
const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const TRIGGER = 'cmk42c44bb7x955tb8kbw4d9l';
const DORMANT = 'ccaupowsk6riuwqxc5jsidoxl';
const DORMANT_SEGMENT = 'coxkzx57ct701w47s31p4jif0';
const SCORE = 'cu46uqyjwgaeml2epsiw5a711';
const HOLDOUT = 'c9y1bl219ch0v4444wv1ncklp';
const OFFER_VARIANT = 'c3qbrs0pv0lkyjx2b5agp7gce';
const OFFER = 'cjrpfq0ccanbsar20kjhn7aby';
const EXIT = 'cvleu6pw9obm3m8yhjezd16o3';
const WELCOME = 'cmypp2eo4jy28v8rq0khsjwhq';
const WELCOME_TIPS = 'cf8uwj4g3qinzp0w91rvhycex';
const WELCOME_WAIT_5D = 'cjqgd7s016x333ti5jtkx19m2';
const WELCOME_WAIT_2D = seedId('workflow/Welcome series/wait-2d');
const PRODUCT_UPDATES = seedId('mailing-list/Product updates');
const WELCOME_EMAIL = 'ccici4xko95ieqz5f9yoaysbw';
const TRIAL = 'cnm1gv0otq1z57mnend2pws3y';
const TRIAL_BRANCH = 'cvxrxvoz3umcxj5nj73mfj9vi';
const BETA_LIST = 'ccr5wuhgixvhysmch2s25o20h';

const description = publishedDescription();

/** The tree part of a change's output: from the trigger's line to the first blank line after it. */
function treeOf(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => /^([+~-] )?(BlankTrigger|SignupTrigger|EventTrigger|AddToListTrigger|ContactPropertyTrigger)\s/.test(line));
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

const workflowsOf = (state: StateCore) => state.workflows as StoredWorkflow[];

describe('a realistic sequence of edits against the sandbox', () => {
  it('inserts a timer, sets its duration, adds a branch, reroutes it and deletes a subtree after a dry run', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const loopsctl = (...args: string[]) => run(['--sandbox', 'workflow', ...args], { env });

    const inserted = await loopsctl('--debug', 'nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--between', DORMANT, SCORE);
    expect(inserted.code, inserted.stderr).toBe(0);
    expect(inserted.stderr).toMatch(/^Changing workflow cw509z9tjxv56rte3vt30437u at revision c\w+; a change made since is refused\.$/m);
    const timer = /^Added TimerAction (\w+) between/.exec(inserted.stdout)![1]!;
    expect(treeOf(inserted.stdout).slice(0, 4)).toEqual([
      `BlankTrigger  ${TRIGGER}`,
      `\`-- ~ AudienceFilter  ${DORMANT}  in segment ${DORMANT_SEGMENT}, applies downstream`,
      `    \`-- + TimerAction  ${timer}  wait 1 day`,
      `        \`-- ExperimentBranchNode  ${SCORE}  20% sampled`,
    ]);
    const firstRevision = /^revision (\w+)$/m.exec(inserted.stdout)![1]!;

    const timed = await loopsctl('nodes', 'update', WIN_BACK, timer, '--set', 'amount:=3', '--set', 'unit=d');
    expect(timed.code, timed.stderr).toBe(0);
    // The revision a change is made against is said only under --debug.
    expect(timed.stderr).not.toContain('Changing workflow');
    const timedRevision = /^revision (\w+)$/m.exec(timed.stdout)![1]!;
    expect(timedRevision).not.toBe(firstRevision);
    expect((await loopsctl('--debug', 'nodes', 'update', WIN_BACK, timer, '--set', 'amount:=3', '--set', 'unit=d')).stderr).toContain(
      `at revision ${timedRevision}`,
    );
    expect(treeOf(timed.stdout)[2]).toBe(`    \`-- ~ TimerAction  ${timer}  wait 3 days`);
    expect(timed.stdout).toContain('~ changed');
    expect(timed.stdout).not.toContain('+ added');

    const branched = await loopsctl('nodes', 'add-branch', WIN_BACK, SCORE);
    expect(branched.code, branched.stderr).toBe(0);
    const variant = /^Added a branch to \w+: VariantNode (\w+)\.$/m.exec(branched.stdout)![1]!;
    expect(treeOf(branched.stdout).slice(3)).toEqual([
      `        \`-- ~ ExperimentBranchNode  ${SCORE}  20% sampled`,
      `            |-- VariantNode  ${HOLDOUT}  control`,
      `            |   \`-- ExitAction  ${EXIT}`,
      `            |-- VariantNode  ${OFFER_VARIANT}  variant`,
      `            |   \`-- SendEmailAction  ${OFFER}  "We saved your workspace", email c8txx3tut8i572h85evnld9nf`,
      `            |       \`-- -> ExitAction ${EXIT} (shown above)`,
      `            \`-- + VariantNode  ${variant}  variant`,
      `                \`-- -> ExitAction ${EXIT} (shown above)`,
    ]);

    const rerouted = await loopsctl('nodes', 'reroute', WIN_BACK, variant, '--to', OFFER);
    expect(rerouted.code, rerouted.stderr).toBe(0);
    expect(treeOf(rerouted.stdout).slice(-2)).toEqual([
      `            \`-- ~ VariantNode  ${variant}  variant`,
      `                \`-- -> SendEmailAction ${OFFER} (shown above)`,
    ]);

    const preview = await loopsctl('nodes', 'delete', WIN_BACK, SCORE, '--recursive', '--dry-run');
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/^Would delete 6 nodes\.$/m);
    expect(treeOf(preview.stdout).filter((line) => / - \w+/.test(line))).toHaveLength(6);
    expect(preview.stdout).toContain(
      'Dry run: deleting node cu46uqyjwgaeml2epsiw5a711 and every node only it leads to would remove 6 nodes; 0 queued contacts would be discarded. Nothing was changed.',
    );
    expect(preview.stdout).not.toMatch(/^revision /m);
    const unchanged = await loopsctl('show', WIN_BACK, '--json');
    expect(Object.keys(unchanged.json().nodes)).toHaveLength(9);

    const deleted = await loopsctl('nodes', 'delete', WIN_BACK, SCORE, '--recursive', '--yes');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(treeOf(deleted.stdout)).toEqual([
      `BlankTrigger  ${TRIGGER}`,
      `\`-- AudienceFilter  ${DORMANT}  in segment ${DORMANT_SEGMENT}, applies downstream`,
      `    \`-- ~ TimerAction  ${timer}  wait 3 days`,
    ]);
    expect(deleted.stdout).toContain(`Removed:\n- ExperimentBranchNode  ${SCORE}`);
    expect(deleted.stdout.match(/^- \w+ {2}c\w+$/gm)).toHaveLength(6);

    const shown = await loopsctl('show', WIN_BACK);
    expect(shown.stdout).toContain(`    \`-- TimerAction  ${timer}  wait 3 days\n`);
  });
});

describe('the graph drawn after a change', () => {
  /** A tree without its change marks. */
  const unmarked = (tree: string[]) => tree.map((line) => line.replace(/^((?:[|`]-- |[| ] {3})*)[+~-] /, '$1'));

  it('has the conditions and branch rules that `show` draws, after every kind of node edit', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const loopsctl = (...args: string[]) => run(['--sandbox', 'workflow', ...args], { env });
    const shown = async (id: string) => treeOf((await loopsctl('show', id)).stdout);
    const FIRST_PATH = 'co85hlls9n60qzmbmdtdh561h';

    const added = await loopsctl('nodes', 'add', TRIAL, '--type', 'TimerAction', '--after', FIRST_PATH, '--live');
    expect(added.code, added.stderr).toBe(0);
    const timer = /^Added TimerAction (\w+) after/.exec(added.stdout)![1]!;
    expect(treeOf(added.stdout)).toContain(`        |-- ~ AudienceFilter  ${FIRST_PATH}  where projectsCreated greater than 0, applies downstream`);
    expect(treeOf(added.stdout)).toContain(`    \`-- BranchNode  ${TRIAL_BRANCH}  takes the first path whose filter matches`);
    expect(unmarked(treeOf(added.stdout))).toEqual(await shown(TRIAL));

    const edits = [
      ['nodes', 'update', TRIAL, timer, '--set', 'amount:=2', '--live'],
      ['nodes', 'add-branch', TRIAL, TRIAL_BRANCH, '--live'],
      ['nodes', 'delete', TRIAL, timer, '--yes'],
      ['set-list', WIN_BACK, BETA_LIST, '--yes'],
      ['nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--after', DORMANT],
    ];
    for (const edit of edits) {
      const result = await loopsctl(...edit);
      expect(result.code, result.stderr).toBe(0);
      const id = edit.includes(TRIAL) ? TRIAL : WIN_BACK;
      const tree = treeOf(result.stdout);
      expect(unmarked(tree), edit.join(' ')).toEqual(await shown(id));
      expect(result.stdout).toMatch(/(where|in segment) \w/);
    }
  });
});

describe('requests', () => {
  let sandbox: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('fit the published description, and so do the sandbox answers to them', async () => {
    const seen: { request: ApiRequest; status: number; body: unknown }[] = [];
    // Twenty-one commands in a row, each pacing only itself, would go over the rate limit, which this test is not about.
    sandbox = await startTestSandbox({ onRequest: (request, answer) => seen.push({ request, status: answer.status, body: answer.body }) });
    const env = sandboxEnv(sandbox);
    const commands = [
      ['workflow', 'create', '--name', 'Re-engagement', '--description', 'Quiet for 90 days', '--list', BETA_LIST],
      ['workflow', 'update', WIN_BACK, '--name', 'Win-back'],
      ['workflow', 'update', WIN_BACK, '--description', 'Dormant contacts'],
      ['workflow', 'set-list', WIN_BACK, BETA_LIST],
      ['workflow', 'set-list', WIN_BACK, 'none', '--dry-run'],
      ['workflow', 'nodes', 'get', WIN_BACK, DORMANT],
      ['workflow', 'nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--after', TRIGGER],
      ['workflow', 'nodes', 'add', WIN_BACK, '--type', 'SendEmailAction', '--before', OFFER],
      ['workflow', 'nodes', 'add', WIN_BACK, '--type', 'BranchNode', '--between', DORMANT, SCORE],
      ['workflow', 'nodes', 'add', WIN_BACK, '--type', 'ExperimentBranchNode', '--before', EXIT],
      ['workflow', 'nodes', 'update', WIN_BACK, DORMANT, '--set', 'appliesDownstream:=false', '--set', 'audienceSegmentId:=null'],
      ['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30'],
      ['workflow', 'nodes', 'update', WIN_BACK, TRIGGER, '--set', 'typeName=EventTrigger', '--set', 'eventName=went_quiet', '--set', 'reEligible:=true'],
      ['workflow', 'nodes', 'add-branch', WIN_BACK, SCORE],
      ['workflow', 'nodes', 'reroute', WIN_BACK, HOLDOUT, '--to', OFFER],
      ['workflow', 'nodes', 'delete', WIN_BACK, OFFER_VARIANT, '--yes'],
      ['workflow', 'nodes', 'delete', WELCOME, WELCOME_WAIT_5D, '--dry-run'],
      ['workflow', 'nodes', 'delete', WELCOME, WELCOME_WAIT_5D, '--queued-contacts', 'discard', '--yes', '--json'],
      ['workflow', 'set-list', WELCOME, BETA_LIST, '--queued-contacts', 'discard', '--yes'],
      ['workflow', 'nodes', 'delete', WIN_BACK, SCORE, '--recursive', '--dry-run', '--json'],
      ['workflow', 'nodes', 'delete', WIN_BACK, SCORE, '--recursive', '--yes'],
    ];
    for (const args of commands) {
      const result = await run(args, { env });
      expect([0, 5], `${args.join(' ')}: ${result.stderr}`).toContain(result.code);
    }
    const doc = description;
    const writes = seen.filter(({ request }) => request.method !== 'GET');
    expect(writes.length).toBeGreaterThanOrEqual(commands.length - 1);
    for (const { request, status, body } of seen) {
      const sent = request.body === '' ? undefined : JSON.parse(request.body);
      const what = `${request.method} ${request.path} ${request.body}`;
      expect(requestProblems(doc, request.method, request.path, sent), what).toEqual([]);
      expect(status, `${what} -> ${JSON.stringify(body)}`).toBe(200);
      expect(responseProblems(doc, request.method, request.path, status, body), what).toEqual([]);
    }
    for (const workflow of workflowsOf(sandbox.state())) expect(graphProblems(workflow), workflow.name).toEqual([]);
  });

  it('name the revision the command read, or the one given, and a given one spares the read in --json mode', async () => {
    const seen: ApiRequest[] = [];
    sandbox = await startTestSandbox({ onRequest: (request) => seen.push(request) });
    const env = sandboxEnv(sandbox);
    const revision = workflowsOf(sandbox.state()).find((workflow) => workflow.id === WIN_BACK)!.workflowRevisionId;
    // --live, the person's yes: the gate reads no workflow's status either.
    const result = await run(['workflow', 'nodes', 'add-branch', WIN_BACK, SCORE, '--expected-revision-id', revision!, '--json', '--live'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((request) => request.method)).toEqual(['POST']);
    expect(JSON.parse(seen[0]!.body)).toEqual({ expectedRevisionId: revision });
    const stale = await run(['workflow', 'nodes', 'add-branch', WIN_BACK, SCORE, '--expected-revision-id', revision!], { env });
    expect(stale.code).toBe(5);
    expect(stale.stderr).toContain(`Error: workflow ${WIN_BACK} has changed since revision ${revision}, so nothing was changed`);
    expect(stale.stderr).toContain(`Hint: see the new state with \`loopsctl workflow show ${WIN_BACK}\``);
  });

  it('--json prints the API answer of a change as it came', async () => {
    const answers: unknown[] = [];
    sandbox = await startTestSandbox({ onRequest: (request, answer) => request.method === 'POST' && answers.push(answer.body) });
    const result = await run(['workflow', 'nodes', 'add', WIN_BACK, '--type', 'BranchNode', '--after', DORMANT, '--json'], { env: sandboxEnv(sandbox) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toEqual(answers[0]);
    expect(result.json().node.createdChildNodes).toHaveLength(2);
    expect(result.stderr).toBe('');
  });
});

describe('destructive changes', () => {
  it('are not sent when unconfirmed off a terminal (exit 2)', async () => {
    const server = await startApiServer();
    try {
      const env = { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key-not-real' };
      const deleted = await run(['workflow', 'nodes', 'delete', WIN_BACK, SCORE], { env });
      expect(deleted.code).toBe(2);
      expect(deleted.stderr).toContain('not confirmed');
      const discarded = await run(['workflow', 'set-list', WELCOME, BETA_LIST, '--queued-contacts', 'discard'], { env });
      expect(discarded.code).toBe(2);
      expect(discarded.stderr).toContain(
        `Error: Change the mailing list of workflow ${WELCOME} and discard the contacts queued in it that the new list excludes: not confirmed\n`,
      );
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('ask on a terminal, and a no changes nothing', async () => {
    const input = typedInput();
    // Typed ahead: the answer waits in the terminal's buffer until the question reads it.
    input.write('n\r');
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const result = await run(['--sandbox', 'workflow', 'nodes', 'delete', WIN_BACK, OFFER_VARIANT], { env, input, tty: { columns: 100 } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Delete node ${OFFER_VARIANT} from workflow ${WIN_BACK}? [y/N]`);
    const after = await run(['--sandbox', 'workflow', 'show', WIN_BACK, '--json'], { env });
    expect(Object.keys(after.json().nodes)).toContain(OFFER_VARIANT);
  });

  it('report queued contacts instead of discarding them unless told to, and dry runs change nothing', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    // Three contacts welcomed and waiting two days in the welcome series, one of them on the beta list too.
    for (const [email, lists] of [
      ['one@example.com', [PRODUCT_UPDATES]],
      ['two@example.com', [PRODUCT_UPDATES]],
      ['both@example.com', [PRODUCT_UPDATES, BETA_LIST]],
    ] as const) {
      const created = await run(['--sandbox', 'contacts', 'create', '--email', email, ...lists.flatMap((list) => ['--list', `${list}=true`])], { env });
      expect(created.code, created.stderr).toBe(0);
    }
    const held = await run(['--sandbox', 'workflow', 'nodes', 'delete', WELCOME, WELCOME_WAIT_2D, '--yes'], { env });
    expect(held.code).toBe(5);
    // The report on stdout says why; stderr has nothing else to say.
    expect(held.stderr).toBe('');
    expect(held.stdout).toContain(
      `Not done: deleting node ${WELCOME_WAIT_2D} would remove 1 node, and 3 queued contacts would be discarded. Nothing was changed.`,
    );
    expect(held.stdout).toContain(`- TimerAction  ${WELCOME_WAIT_2D}  wait 2 days`);
    const listPreview = await run(['--sandbox', 'workflow', 'set-list', WELCOME, BETA_LIST, '--dry-run'], { env });
    expect(listPreview.code).toBe(0);
    expect(listPreview.stdout).toBe(
      `Dry run: the mailing list of workflow ${WELCOME} would change to ${BETA_LIST}; 2 queued contacts would be discarded. Nothing was changed.\n`,
    );
    const before = await run(['--sandbox', 'workflow', 'show', WELCOME, '--json'], { env });
    expect(before.json().mailingListId).not.toBe(BETA_LIST);
    expect(Object.keys(before.json().nodes)).toContain(WELCOME_WAIT_2D);
    const list = await run(['--sandbox', 'workflow', 'set-list', WELCOME, BETA_LIST, '--queued-contacts', 'discard', '--yes'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('2 queued contacts were discarded.');
    expect(list.stdout).toContain(`mailing list ${BETA_LIST}`);
    // The contact on both lists is still queued at the node, and only it.
    const stillHeld = await run(['--sandbox', 'workflow', 'nodes', 'delete', WELCOME, WELCOME_WAIT_2D, '--yes'], { env });
    expect(stillHeld.stdout).toContain('and 1 queued contact would be discarded');
    const discarded = await run(['--sandbox', 'workflow', 'nodes', 'delete', WELCOME, WELCOME_WAIT_5D, '--queued-contacts', 'discard', '--yes'], { env });
    expect(discarded.code, discarded.stderr).toBe(0);
    // The tips email now leads straight to the feedback email: the parent was reconnected.
    expect(discarded.stdout).toMatch(new RegExp(`~ SendEmailAction  ${WELCOME_TIPS}.*\\n\\s+\`-- SendEmailAction  c\\w+  "How is it going so far\\?"`));
  });

  it('refuses a mailing list the account does not have before the edit, pointing to where lists are listed', async () => {
    const missing = 'cnosuchlist00000000000000';
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const refused = await run(['--sandbox', 'workflow', 'set-list', WIN_BACK, missing, '--yes'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Error: the mailing list: the account has no mailing list "${missing}"`);
    expect(refused.stderr).toContain('see them with `loopsctl lists list`');
  });
});

describe('documented failures from a local API', () => {
  let server: ApiServer;
  const graph = {
    id: WIN_BACK,
    workflowRevisionId: 'crev1',
    status: 'Draft',
    mailingListId: null,
    rootNodeId: 'a',
    nodes: { a: { typeName: 'SignupTrigger', nextNodeIds: ['b'] }, b: { typeName: 'SendEmailAction', nextNodeIds: [], subject: 'Hi', emailMessageId: 'e' } },
  };
  const env = () => ({ LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key-not-real' });
  afterEach(async () => server.close());

  /** A server that reads the graph, and answers the changes a test makes (and only those) with the failure. */
  const failing = async (status: number, message: string, changes: string[], reads: string[] = []) => {
    const node: Handler = (req, res) =>
      json(res, 200, { id: req.params.nodeId, workflowId: WIN_BACK, workflowRevisionId: 'crev1', ...graph.nodes[req.params.nodeId as 'b'] });
    const routes: Record<string, Handler> = { 'GET /v1/workflows/:id': (_req, res) => json(res, 200, graph) };
    if (reads.includes('node')) routes['GET /v1/workflows/:id/nodes/:nodeId'] = node;
    for (const change of changes) routes[change] = (_req, res) => json(res, status, { message });
    server = await startApiServer(routes);
  };

  it.each([
    [400, 5, 'Invalid request body.'],
    [401, 3, 'Invalid API key'],
    [404, 4, 'Workflow not found.'],
    [409, 5, '`expectedRevisionId` is stale.'],
  ])('HTTP %i is exit %i with the API message', async (status, code, message) => {
    await failing(status, message, ['POST /v1/workflows/:id', 'POST /v1/workflows/:id/nodes', 'DELETE /v1/workflows/:id/nodes/:nodeId']);
    for (const args of [
      ['workflow', 'update', WIN_BACK, '--name', 'x'],
      ['workflow', 'nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--after', 'a'],
      ['workflow', 'nodes', 'delete', WIN_BACK, 'b', '--yes'],
    ]) {
      const result = await run(args, { env: env() });
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr).toContain(message);
    }
    const sent = server.requests.filter((request) => request.method !== 'GET');
    // One change sent by each of the three commands, each against the revision it read.
    expect(sent.map((request) => JSON.parse(request.body).expectedRevisionId)).toEqual(['crev1', 'crev1', 'crev1']);
    if (status === 409) expect(server.requests.at(-1)!.method).toBe('DELETE');
  });

  it('a 409 says what happened and how to see the new state', async () => {
    await failing(409, '`expectedRevisionId` is stale.', ['POST /v1/workflows/:id/nodes']);
    const result = await run(['workflow', 'nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--after', 'a'], { env: env() });
    expect(result.code).toBe(5);
    expect(result.stderr).toBe(
      `Error: workflow ${WIN_BACK} has changed since revision crev1, so nothing was changed (the API said: \`expectedRevisionId\` is stale.)\nHint: see the new state with \`loopsctl workflow show ${WIN_BACK}\`, then run the command again\n`,
    );
  });

  it('a 501 to a node update is explained, not reported as a server failure', async () => {
    await failing(501, 'This node update is not implemented.', ['POST /v1/workflows/:id/nodes/:nodeId'], ['node']);
    const result = await run(['workflow', 'nodes', 'update', WIN_BACK, 'b', '--set', 'subject=Hello'], { env: env() });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      'Error: the workflow API does not support updating a SendEmailAction node yet; nothing was changed (the API said: This node update is not implemented.)',
    );
    const asJson = await run(['--json', 'workflow', 'nodes', 'update', WIN_BACK, 'b', '--set', 'subject=Hello', '--expected-revision-id', 'crev1'], {
      env: env(),
    });
    expect(asJson.code).toBe(5);
    expect(JSON.parse(asJson.stderr).error).toMatchObject({
      code: 'not_implemented',
      status: 501,
      exitCode: 5,
      message: expect.stringContaining('the workflow API does not support updating a SendEmailAction node yet; nothing was changed'),
    });
  });

  it('checks an update against the node type before sending anything', async () => {
    await failing(200, 'unused', []);
    const timer = { ...graph, nodes: { ...graph.nodes, t: { typeName: 'TimerAction', nextNodeIds: [], amount: 1, unit: 'd' } } };
    server.route('GET /v1/workflows/:id', (_req, res) => json(res, 200, timer));
    const result = await run(['workflow', 'nodes', 'update', WIN_BACK, 't', '--set', 'amount=soon', '--set', 'colour=red'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'Error: cannot update TimerAction t: amount must be a number, not the text "soon"; colour: not a field a TimerAction update takes (it takes: amount, unit)',
    );
    // A refusal made locally is never preceded by the line about the revision, not even under --debug.
    expect(result.stderr).toContain('Hint: a TimerAction node takes: amount, unit');
    expect(server.requests.map((request) => request.method)).toEqual(['GET']);
    const debugged = await run(['--debug', 'workflow', 'nodes', 'update', WIN_BACK, 't', '--set', 'colour=red'], { env: env() });
    expect(debugged.code).toBe(2);
    expect(debugged.stderr).toContain('Error: cannot update TimerAction t: colour: not a field a TimerAction update takes (it takes: amount, unit)\n');
    expect(debugged.stderr).not.toContain('Changing workflow');
  });
});

describe('the examples in --help', () => {
  it('each run as written against a fresh sandbox', async () => {
    const { spec } = await import('../../../../src/areas/workflows/index.js');
    const { walkSpecs } = await import('../../../../src/core/declare.js');
    const examples = new Set<string>();
    const collect = (spec: { examples: string[]; kind: string; commands?: unknown[] }): void => {
      for (const example of spec.examples) examples.add(example);
      if (spec.kind === 'group') for (const child of spec.commands as (typeof spec)[]) collect(child);
    };
    collect(spec);
    expect(walkSpecs([spec]).length).toBe(14);
    for (const example of examples) {
      // Words as a shell would split them, without a redirection.
      const words = [...example.replace(/ > \S+$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
      expect(words[0]).toBe('loopsctl');
      const result = await run(['--sandbox', ...words.slice(1)], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
      expect(result.code, `${example}: ${result.stderr}`).toBe(0);
    }
  });
});

describe('the sandbox keeps to the API rules', () => {
  const env = () => ({ LOOPSCTL_CONFIG_DIR: tempDir() });
  const refused = async (args: string[], message: RegExp) => {
    const result = await run(
      ['--sandbox', 'workflow', ...args, '--yes'].filter((arg) => arg !== '--yes' || args[1] === 'delete'),
      { env: env() },
    );
    expect(result.code, `${args.join(' ')}: ${result.stdout}`).toBe(5);
    expect(result.stderr).toMatch(message);
  };

  it('refuses what the API refuses', async () => {
    // The API's field names come out as loopsctl's own flags.
    await refused(
      ['nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--after', SCORE],
      /^Error: --after needs a node with exactly one outgoing connection; \w+ has 2: use --between naming both nodes$/m,
    );
    await refused(['nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--before', TRIGGER], /before a trigger/);
    await refused(
      ['nodes', 'add', WIN_BACK, '--type', 'VariantNode', '--before', OFFER],
      /cannot be inserted with --before; use --between with the experiment branch as its first node$/m,
    );
    await refused(['nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--between', DORMANT, OFFER], /does not lead to/);
    await refused(['nodes', 'add', WIN_BACK, '--type', 'TimerAction', '--between', SCORE, HOLDOUT], /only a VariantNode/);
    await refused(
      ['nodes', 'reroute', TRIAL, 'c4890mni42uoutvajz8cfbwob', '--to', 'c9s9ou4jb05yb527ulqctzl3d', '--live'],
      /^Error: a node cannot be rerouted while the workflow is sending; pause the workflow first$/m,
    );
    // A variant belongs right under an experiment, wherever it is asked for.
    for (const place of [
      ['--after', 'cxmqckredvo540ymk1l23bmpf'],
      ['--between', TRIAL_BRANCH, 'co85hlls9n60qzmbmdtdh561h'],
    ]) {
      await refused(
        ['nodes', 'add', TRIAL, '--type', 'VariantNode', ...place, '--live'],
        /^Error: a VariantNode can only be inserted right after an experiment branch/m,
      );
    }
    await refused(['nodes', 'add', WIN_BACK, '--type', 'VariantNode', '--between', DORMANT, SCORE], /only be inserted right after an experiment branch/);
    await refused(['nodes', 'reroute', WIN_BACK, SCORE, '--to', OFFER], /cannot be rerouted/);
    await refused(['nodes', 'reroute', WIN_BACK, DORMANT, '--to', OFFER], /would have no incoming connection left/);
    await refused(['nodes', 'reroute', WIN_BACK, HOLDOUT, '--to', TRIGGER], /not a valid target/);
    await refused(['nodes', 'add-branch', WIN_BACK, DORMANT], /is an AudienceFilter; only a BranchNode or an ExperimentBranchNode/);
    await refused(['nodes', 'delete', WIN_BACK, SCORE], /delete it with its subtree/);
    await refused(['nodes', 'delete', WIN_BACK, TRIGGER], /trigger node cannot be deleted/);
    await refused(['nodes', 'update', TRIAL, TRIAL_BRANCH, '--set', 'evalStrategy=all', '--live'], /does not support updating a BranchNode node/);
  });

  it("inserts a missing variant before an experiment path's content, and lets a sending workflow take edits other than a reroute", async () => {
    const config = env();
    const loopsctl = (...args: string[]) => run(['--sandbox', 'workflow', ...args], { env: config });
    const unwrapped = await loopsctl('nodes', 'delete', WIN_BACK, OFFER_VARIANT, '--yes');
    expect(unwrapped.code, unwrapped.stderr).toBe(0);
    const inserted = await loopsctl('nodes', 'add', WIN_BACK, '--type', 'VariantNode', '--between', SCORE, OFFER);
    expect(inserted.code, inserted.stderr).toBe(0);
    expect(inserted.stdout).toMatch(/^Added VariantNode \w+ between/m);
    const sending = await loopsctl('nodes', 'add', TRIAL, '--type', 'TimerAction', '--after', 'cxmqckredvo540ymk1l23bmpf', '--live');
    expect(sending.code, sending.stderr).toBe(0);
  });

  it('lets a variant become the control, taking it from the old one', async () => {
    const config = env();
    const result = await run(['--sandbox', 'workflow', 'nodes', 'update', WIN_BACK, OFFER_VARIANT, '--set', 'isControl:=true'], { env: config });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`~ VariantNode  ${OFFER_VARIANT}  control`);
    expect(result.stdout).toContain(`~ VariantNode  ${HOLDOUT}  variant`);
  });

  it('creates a draft workflow with a blank trigger and an exit', async () => {
    const result = await run(['--sandbox', 'workflow', 'create', '--name', 'Re-engagement', '--list', BETA_LIST]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Created workflow c\w+\.$/m);
    expect(result.stdout).toContain('status Draft · mailing list ccr5wuhgixvhysmch2s25o20h · 2 nodes');
    expect(treeOf(result.stdout)).toEqual([expect.stringMatching(/^\+ BlankTrigger {2}c\w+$/), expect.stringMatching(/^`-- \+ ExitAction {2}c\w+$/)]);
  });

  it('gets a node with nodes get as with show --node', async () => {
    const viaNodes = await run(['--sandbox', 'workflow', 'nodes', 'get', TRIAL, TRIAL_BRANCH]);
    const viaShow = await run(['--sandbox', 'workflow', 'show', TRIAL, '--node', TRIAL_BRANCH]);
    expect(viaNodes.code).toBe(0);
    expect(viaNodes.stdout).toBe(viaShow.stdout);
    expect(viaNodes.stdout).toContain('evalStrategy');
    expect(viaNodes.stdout).toMatch(/workflowRevisionId\s+c\w+/);
  });

  it('says what is wrong with a --set value in words, and how to give a number', async () => {
    const config = env();
    const wrong = await run(['--sandbox', 'workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT_5D, '--set', 'amount=abc', '--set', 'unit=x', '--live'], {
      env: config,
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('amount must be a number, not the text "abc"; unit must be one of m, h, d, s, not the text "x"');
    expect(wrong.stderr).not.toMatch(/Invalid (input|option)|expected number/);
    // The one rule of --prop and --var: name=value is text, name:=<json> is typed.
    const text = await run(['--sandbox', 'workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT_5D, '--set', 'amount=3', '--live'], { env: config });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('amount must be a number, not the text "3" (write amount:=3 to give it as a number)');
    const negative = await run(['--sandbox', 'workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT_5D, '--set', 'amount:=-1', '--live'], { env: config });
    expect(negative.stderr).toContain('amount must be 0 or more, not -1');
    const typed = await run(['--sandbox', 'workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT_5D, '--set', 'amount:=3', '--set', 'unit=h', '--live'], {
      env: config,
    });
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.stdout).toContain(`~ TimerAction  ${WELCOME_WAIT_5D}  wait 3 hours`);
  });

  it('takes a payload from stdin, and refuses usage mistakes before sending', async () => {
    const config = env();
    const piped = await run(['--sandbox', 'workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT_5D, '--payload-file', '-', '--live'], {
      env: config,
      input: '{"amount": 6, "unit": "h"}',
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain(`~ TimerAction  ${WELCOME_WAIT_5D}  wait 6 hours`);
    const neither = await run(['--sandbox', 'workflow', 'nodes', 'update', WELCOME, WELCOME_WAIT_5D], { env: config });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('Error: give exactly one of --set or --payload-file\n');
    const twoPlaces = await run(
      ['--sandbox', 'workflow', 'nodes', 'add', WELCOME, '--type', 'TimerAction', '--after', WELCOME_EMAIL, '--before', WELCOME_TIPS],
      { env: config },
    );
    expect(twoPlaces.code).toBe(2);
    expect(twoPlaces.stderr).toContain('--after and --before cannot be used together');
    const nowhere = await run(['--sandbox', 'workflow', 'nodes', 'add', WELCOME, '--type', 'TimerAction'], { env: config });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('give exactly one of --after, --before or --between');
    const oneId = await run(['--sandbox', 'workflow', 'nodes', 'add', WELCOME, '--type', 'TimerAction', '--between', WELCOME_EMAIL], { env: config });
    expect(oneId.code).toBe(2);
    expect(oneId.stderr).toContain('--between takes two node ids');
  });
});
