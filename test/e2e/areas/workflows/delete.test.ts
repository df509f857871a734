/**
 * `workflow delete`: a known revision, a first yes, and a second, explicit yes when the API says
 * the workflow is sending or has queued contacts; against the sandbox, and against a server of the
 * test's own for answers the sandbox never gives (a revision that moves between the read and the
 * delete).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import { SANDBOX_KEY } from '../../../../src/emulator/keys.js';
import { seedId } from '../../../../src/emulator/module.js';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { answering, run, sandboxEnv, startTestSandbox } from '../../../support/main.js';
import { freshSandbox, SEED_IDS } from '../../../support/sandbox.js';

const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const WELCOME = SEED_IDS.welcomeWorkflow;
const BETA = SEED_IDS.experimentWorkflow;
const UPGRADE = 'c7g4cvwslrgc8e0zwloyv0qln';

let sandbox: SandboxServer;
let requests: ApiRequest[];

beforeEach(async () => {
  requests = [];
  sandbox = await startTestSandbox({ onRequest: (request) => requests.push(request) });
});
afterEach(() => sandbox.close());

const loopsctl = (args: string[], options: Parameters<typeof run>[1] = {}) =>
  run(['workflow', ...args], { ...options, env: { ...sandboxEnv(sandbox), ...options.env } });
const deletes = () => requests.filter((request) => request.method === 'DELETE').map((request) => JSON.parse(request.body) as unknown);
const exists = async (id: string) => (await loopsctl(['show', id, '--json'])).code === 0;
const revisionOf = async (id: string) => (await loopsctl(['show', id, '--json'])).json().workflowRevisionId as string;
const PRODUCT_UPDATES = seedId('mailing-list/Product updates');

/** Two new contacts on its list, welcomed and waiting two days in "Welcome series": its queued contacts. */
async function queueInWelcome(): Promise<void> {
  for (const email of ['queued1@example.com', 'queued2@example.com']) {
    const body = Buffer.from(JSON.stringify({ email, mailingLists: { [PRODUCT_UPDATES]: true } }));
    const created = await sandbox.answer({ method: 'POST', target: '/v1/contacts/create', headers: { authorization: `Bearer ${SANDBOX_KEY}` }, body });
    expect(created.status).toBe(200);
  }
}

describe('workflow delete against the sandbox', () => {
  it('needs a revision or --force, and --yes off a terminal, before anything is sent', async () => {
    const bare = await loopsctl(['delete', WIN_BACK, '--yes']);
    expect(bare).toMatchObject({ code: 2, stdout: '' });
    expect(bare.stderr).toContain('Error: refusing to delete a workflow without knowing which revision of it is meant');
    expect(bare.stderr).toContain(
      `Hint: pass --expected-revision-id <revision> (\`loopsctl workflow show ${WIN_BACK} --jq .workflowRevisionId\` prints it), or --force`,
    );
    // The command the hint names prints the revision the delete needs.
    const shown = await loopsctl(['show', WIN_BACK, '--jq', '.workflowRevisionId']);
    expect(shown.stdout.trim()).toBe(await revisionOf(WIN_BACK));
    const both = await loopsctl(['delete', WIN_BACK, '--force', '--expected-revision-id', 'crev', '--yes']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Error: --expected-revision-id and --force cannot be used together\n');
    const unconfirmed = await loopsctl(['delete', WIN_BACK, '--force']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('Hint: pass --yes to confirm when not on a terminal');
    expect(deletes()).toEqual([]);
    expect(await exists(WIN_BACK)).toBe(true);
  });

  it('deletes a draft at once (204), after which it is not found', async () => {
    const revision = await revisionOf(WIN_BACK);
    const result = await loopsctl(['delete', WIN_BACK, '--expected-revision-id', revision, '--yes']);
    expect(result).toMatchObject({ code: 0, stdout: `Deleted workflow ${WIN_BACK} "Win-back (draft)".\n` });
    expect(deletes()).toEqual([{ expectedRevisionId: revision }]);
    const shown = await loopsctl(['show', WIN_BACK]);
    const notFound = `Error: workflow ${WIN_BACK} not found\nHint: see the ids with \`loopsctl workflow list\`\n`;
    expect(shown).toMatchObject({ code: 4, stderr: notFound });
    expect(await loopsctl(['delete', WIN_BACK, '--force', '--yes'])).toMatchObject({ code: 4, stderr: notFound });
    expect((await loopsctl(['list', '--json'])).json().map((workflow: { id: string }) => workflow.id)).not.toContain(WIN_BACK);
  });

  it('refuses a stale revision with exit 5, naming the current one, and deletes nothing', async () => {
    const current = await revisionOf(UPGRADE);
    const result = await loopsctl(['delete', UPGRADE, '--expected-revision-id', 'cstalerevision0000000000a', '--yes', '--confirm-delete']);
    expect(result).toMatchObject({ code: 5, stdout: '' });
    expect(result.stderr).toContain(
      `Error: workflow ${UPGRADE} is at revision ${current}, not cstalerevision0000000000a: it has changed since, so nothing was deleted`,
    );
    expect(result.stderr).toContain(`run again with --expected-revision-id ${current}`);
    expect(deletes()).toEqual([]);
    expect(await exists(UPGRADE)).toBe(true);
  });

  it('off a terminal, says how many contacts and what would stop, and deletes only with --confirm-delete', async () => {
    await queueInWelcome();
    const held = await loopsctl(['delete', WELCOME, '--force', '--yes']);
    expect(held).toMatchObject({ code: 5, stdout: '' });
    expect(held.stderr).toContain(
      `Error: workflow ${WELCOME} "Welcome series" was not deleted: it is sending and has 2 queued contacts, and deleting it would stop sending it and cancel those 2 contacts\nHint: run it again with --confirm-delete to go ahead`,
    );
    expect(await exists(WELCOME)).toBe(true);
    const asJson = await loopsctl(['delete', WELCOME, '--force', '--yes', '--json']);
    expect(asJson.code).toBe(5);
    expect(JSON.parse(asJson.stderr).error).toMatchObject({
      code: 'confirmation_required',
      status: 409,
      exitCode: 5,
      message: `workflow ${WELCOME} "Welcome series" was not deleted: it is sending and has 2 queued contacts, and deleting it would stop sending it and cancel those 2 contacts`,
    });

    requests.length = 0;
    const confirmed = await loopsctl(['delete', WELCOME, '--force', '--yes', '--confirm-delete']);
    expect(confirmed).toMatchObject({ code: 0, stdout: `Deleted workflow ${WELCOME} "Welcome series". Sending stopped; 2 queued contacts cancelled.\n` });
    const revision = deletes()[0] as { expectedRevisionId: string };
    // The same revision both times; confirmDelete only on the second.
    expect(deletes()).toEqual([{ expectedRevisionId: revision.expectedRevisionId }, { expectedRevisionId: revision.expectedRevisionId, confirmDelete: true }]);
    expect(await exists(WELCOME)).toBe(false);
  });

  it('on a terminal, asks first, then asks again naming what will stop, and a second no changes nothing', async () => {
    const declined = await loopsctl(['delete', BETA, '--force'], { tty: { columns: 200 }, input: answering(['y', 'n']) });
    expect(declined.code).toBe(2);
    expect(declined.stderr).toContain(`Delete workflow ${BETA} "Beta onboarding subject test"? [y/N] y`);
    expect(declined.stderr).toContain(`Workflow ${BETA} "Beta onboarding subject test" has 1 queued contact: deleting it will cancel that contact.`);
    expect(declined.stderr).toContain('Delete it anyway and cancel that contact? [y/N] n');
    expect(declined.stderr).toContain('Error: cancelled; nothing was changed');
    expect(deletes()).toEqual([{ expectedRevisionId: expect.any(String) }]);
    expect(await exists(BETA)).toBe(true);

    const first = await loopsctl(['delete', BETA, '--force'], { tty: { columns: 80 }, input: answering(['n']) });
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(`Delete workflow ${BETA} "Beta onboarding subject test"? [y/N] n\nError: cancelled; nothing was changed\n`);
    expect(deletes()).toHaveLength(1);

    const agreed = await loopsctl(['delete', BETA, '--force'], { tty: { columns: 80 }, input: answering(['y', 'y']) });
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(agreed.stdout).toContain('Deleted workflow');
    expect(agreed.stdout.replace(/\s+/g, ' ')).toContain('1 queued contact cancelled.');
    expect(deletes().at(-1)).toMatchObject({ confirmDelete: true });
    expect(await exists(BETA)).toBe(false);
  });

  it('--confirm-delete answers the second question, and --yes only the first', async () => {
    const result = await loopsctl(['delete', UPGRADE, '--force', '--confirm-delete'], { tty: { columns: 80 }, input: answering(['y']) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Sending stopped.');
    expect(result.stderr).not.toContain('Delete it anyway');
  });

  it('--dry-run says what would happen and sends no delete; --json prints nothing on success', async () => {
    const dry = await loopsctl(['delete', WELCOME, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`Dry run: would delete workflow ${WELCOME} "Welcome series" at revision `);
    expect(dry.stdout).toContain('It is sending: deleting it stops sending it and cancels any contacts queued in it');
    expect(dry.stdout).toContain('Nothing was changed.');
    const dryJson = await loopsctl(['delete', WELCOME, '--dry-run', '--json']);
    expect(dryJson.json()).toEqual({ dryRun: true, workflowId: WELCOME, workflowRevisionId: expect.any(String), status: 'Sending', sending: true });
    expect(deletes()).toEqual([]);

    const deleted = await loopsctl(['delete', WIN_BACK, '--force', '--yes', '--json']);
    expect(deleted).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('the sandbox deletes workflows as the API does', () => {
  it('needs the current revision, confirms a sending one or one with queued contacts, and answers 404 after', () => {
    const { call } = freshSandbox();
    for (const email of ['queued1@example.com', 'queued2@example.com'])
      expect(call('POST', '/v1/contacts/create', { body: { email, mailingLists: { [PRODUCT_UPDATES]: true } } }).status).toBe(200);
    const revision = call('GET', `/v1/workflows/${WELCOME}`).body.workflowRevisionId as string;
    expect(call('DELETE', `/v1/workflows/${WELCOME}`, { body: {} })).toMatchObject({ status: 400 });
    expect(call('DELETE', `/v1/workflows/${WELCOME}`, { body: { expectedRevisionId: revision, force: true } })).toMatchObject({ status: 400 });
    expect(call('DELETE', `/v1/workflows/${WELCOME}`, { body: { expectedRevisionId: 'cold' } })).toMatchObject({
      status: 409,
      body: { message: `workflowRevisionId mismatch. Latest workflowRevisionId is ${revision}. Refetch and retry.` },
    });
    expect(call('DELETE', `/v1/workflows/${WELCOME}`, { body: { expectedRevisionId: revision } })).toMatchObject({
      status: 409,
      body: {
        message:
          'This workflow is currently sending and has 2 queued contacts. Deleting it will stop sending it and cancel those queued contacts. Confirm deletion by sending a second request with confirmDelete: true.',
      },
    });
    expect(call('DELETE', `/v1/workflows/${WELCOME}`, { body: { expectedRevisionId: revision, confirmDelete: true } })).toMatchObject({
      status: 204,
      body: undefined,
    });
    expect(call('GET', `/v1/workflows/${WELCOME}`)).toMatchObject({ status: 404 });
    expect(call('DELETE', `/v1/workflows/${WELCOME}`, { body: { expectedRevisionId: revision, confirmDelete: true } })).toMatchObject({ status: 404 });
  });

  it('words each case of confirmation as the description does', () => {
    const { call } = freshSandbox();
    const refusal = (id: string) =>
      call('DELETE', `/v1/workflows/${id}`, { body: { expectedRevisionId: call('GET', `/v1/workflows/${id}`).body.workflowRevisionId } }).body.message;
    expect(refusal(UPGRADE)).toBe(
      'This workflow is currently sending. Deleting it will stop sending it. Confirm deletion by sending a second request with confirmDelete: true.',
    );
    expect(refusal(BETA)).toBe(
      'This workflow has 1 queued contact. Deleting it will cancel those queued contacts. Confirm deletion by sending a second request with confirmDelete: true.',
    );
    expect(
      call('DELETE', `/v1/workflows/${WIN_BACK}`, { body: { expectedRevisionId: call('GET', `/v1/workflows/${WIN_BACK}`).body.workflowRevisionId } }).status,
    ).toBe(204);
  });
});

describe('workflow delete against a server of its own', () => {
  let server: ApiServer;
  afterEach(() => server.close());
  const graph = {
    id: WIN_BACK,
    url: `https://app.loops.so/workflows/${WIN_BACK}`,
    workflowRevisionId: 'crev1',
    status: 'Sending',
    name: 'Win-back',
    rootNodeId: null,
    nodes: {},
  };
  const env = () => ({ LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key-0000' });

  it('names the revision the API reports when it moved between the read and the delete', async () => {
    server = await startApiServer({
      'GET /v1/workflows/:id': (_req, res) => json(res, 200, graph),
      'DELETE /v1/workflows/:id': (_req, res) =>
        json(res, 409, { message: 'workflowRevisionId mismatch. Latest workflowRevisionId is crev2. Refetch and retry.' }),
    });
    const result = await run(['workflow', 'delete', WIN_BACK, '--force', '--yes', '--confirm-delete'], { env: env() });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`Error: workflow ${WIN_BACK} is at revision crev2, not crev1: it has changed since, so nothing was deleted`);
    expect(server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });

  it('repeats the call with confirmDelete and the same revision, and takes a 204 with no body', async () => {
    server = await startApiServer({
      'GET /v1/workflows/:id': (_req, res) => json(res, 200, graph),
      'DELETE /v1/workflows/:id': (req, res) => {
        if (JSON.parse(req.body).confirmDelete === true) return void res.writeHead(204).end();
        json(res, 409, {
          message:
            'This workflow is currently sending. Deleting it will stop sending it. Confirm deletion by sending a second request with confirmDelete: true.',
        });
      },
    });
    const result = await run(['workflow', 'delete', WIN_BACK, '--expected-revision-id', 'crev1', '--yes', '--confirm-delete'], { env: env() });
    expect(result).toMatchObject({ code: 0, stdout: `Deleted workflow ${WIN_BACK} "Win-back". Sending stopped.\n` });
    expect(server.requests.filter((request) => request.method === 'DELETE').map((request) => JSON.parse(request.body))).toEqual([
      { expectedRevisionId: 'crev1' },
      { expectedRevisionId: 'crev1', confirmDelete: true },
    ]);
  });

  it('escapes the terminal controls of a hostile name in the question, the dry run and the outcome', async () => {
    // OSC 52 (set the clipboard), clear-screen and a cursor move, which could rewrite the question.
    const name = 'Win-back\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[1;1H"';
    server = await startApiServer({
      'GET /v1/workflows/:id': (_req, res) => json(res, 200, { ...graph, name, status: 'Draft' }),
      'DELETE /v1/workflows/:id': (_req, res) => void res.writeHead(204).end(),
    });
    const shown = '"Win-back\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J\\x1b[1;1H""';
    const dryRun = await run(['workflow', 'delete', WIN_BACK, '--dry-run'], { env: env(), tty: { columns: 200 } });
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain(`Dry run: would delete workflow ${WIN_BACK} ${shown} at revision crev1.`);
    const asked = await run(['workflow', 'delete', WIN_BACK, '--force'], { env: env(), tty: { columns: 200 }, input: answering(['y']) });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toContain(`Delete workflow ${WIN_BACK} ${shown}? [y/N] `);
    expect(asked.stdout).toBe(`Deleted workflow ${WIN_BACK} ${shown}.\n`);
    expect(`${dryRun.stdout}${asked.stdout}${asked.stderr}`).not.toContain('\x1b');
  });
});
