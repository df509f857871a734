/**
 * The engagement metrics of campaigns and workflow emails, and the transactional metrics beside
 * them: rates over sends, several items with partial failures, items without metrics said in
 * words, the metrics gate, and figures that move with the sandbox's own sends.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run, sandboxEnv, startTestSandbox } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

const SENT = 'caln1ehk86xojuwevkh90qwhl';
const DRAFT = 'cb9tvk4yur8c4puvh4crvzir7';
const SPRING_SALE = 'c5hihv2wbzma9bzs8kg5hvd41';
const UNKNOWN = 'cunknowncampaign000000000';
const WELCOME = SEED_IDS.welcomeWorkflow;
const WELCOME_EMAIL = 'ccici4xko95ieqz5f9yoaysbw';
const WELCOME_TIPS = 'cf8uwj4g3qinzp0w91rvhycex';
const WELCOME_FEEDBACK = 'cog7dfedyjphc7k7lgrphpnej';
const WELCOME_WAIT = 'c7buikafyw3b5s87mgyg71nlb';

const HEADER =
  'ID\tNAME\tSENDS\tOPENS\tOPEN RATE\tCLICKS\tCLICK RATE\tUNSUBSCRIBES\tUNSUB RATE\tHARD BOUNCES\tSOFT BOUNCES\tBOUNCE RATE\tSPAM REPORTS\tSPAM RATE';
// Over delivered sends (3,500) these would read 51.43%, 10.29%, 1.71%, 14.29% and 0.57%; clicks over opens 20.00%.
const OCTOBER = `${SENT}\tOctober newsletter\t4000\t1800\t45.00%\t360\t9.00%\t60\t1.50%\t320\t180\t12.50%\t20\t0.50%`;

let sandbox: SandboxServer;
beforeEach(async () => {
  sandbox = await startTestSandbox();
});
afterEach(() => sandbox.close());

const loopsctl = (args: string[], options: Parameters<typeof run>[1] = {}) => run(args, { ...options, env: { ...sandboxEnv(sandbox), ...options.env } });
const lines = (text: string) => text.trimEnd().split('\n');

describe('campaigns metrics', () => {
  it('shows every count and the rates over sends, with the name beside the id', async () => {
    const result = await loopsctl(['campaigns', 'metrics', SENT]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(lines(result.stdout)).toEqual([HEADER, OCTOBER]);
  });

  it('says a campaign not sent yet has no metrics without failing the run, and reports a missing one as a failure', async () => {
    const result = await loopsctl(['campaigns', 'metrics', SPRING_SALE, SENT, UNKNOWN, SENT]);
    expect(result.code).toBe(4);
    expect(lines(result.stdout)).toEqual([HEADER, OCTOBER]);
    expect(result.stderr).toContain(`${SPRING_SALE}: campaign "Spring sale" has not been sent yet (it is Draft), so it has no metrics yet\n`);
    expect(result.stderr).toContain(`Error: ${UNKNOWN}: campaign ${UNKNOWN} not found\nHint: see the campaigns with \`loopsctl campaigns list\``);

    const drafts = await loopsctl(['campaigns', 'metrics', DRAFT, SPRING_SALE]);
    expect(drafts).toMatchObject({ code: 0, stdout: '' });
    expect(lines(drafts.stderr)).toHaveLength(2);
  });

  it('prints an array with campaignId under --json (empty when none has metrics) and one object a line with --jsonl', async () => {
    const asJson = await loopsctl(['campaigns', 'metrics', SENT, DRAFT, '--json']);
    expect(asJson.code).toBe(0);
    expect(asJson.stdout).toBe(
      `${JSON.stringify([{ campaignId: SENT, sends: 4000, opens: 1800, clicks: 360, unsubscribes: 60, spamReports: 20, hardBounces: 320, softBounces: 180 }], null, 2)}\n`,
    );
    expect(JSON.parse(asJson.stderr)).toEqual({
      noMetrics: { campaignId: DRAFT, reason: 'campaign "November newsletter" has not been sent yet (it is Draft), so it has no metrics yet' },
    });
    expect((await loopsctl(['campaigns', 'metrics', DRAFT, '--json'])).json()).toEqual([]);
    const jsonl = await loopsctl(['campaigns', 'metrics', SENT, '--jsonl']);
    expect(lines(jsonl.stdout).map((line) => JSON.parse(line).campaignId)).toEqual([SENT]);
    const both = await loopsctl(['campaigns', 'metrics', SENT, '--jsonl', '--json']);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr).error.message).toBe('--json and --jsonl cannot be used together');
  });

  it('keeps a table of the id, name and rates at 80 columns', async () => {
    const result = await loopsctl(['campaigns', 'metrics', SENT, '--no-color'], { tty: { columns: 80 } });
    for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stdout).toMatch(/^caln1ehk86xojuwevkh90qwhl +October news\S* +4,000 +45\.00% +9\.00% +12\.50% +0\.50%$/m);
  });

  it('says in the hint of a 401 that the metrics API must be enabled', async () => {
    const result = await loopsctl(['campaigns', 'metrics', SENT], { env: { LOOPS_API_KEY: 'sandbox-no-metrics' } });
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toContain(
      'Error: The metrics API is not enabled for this team\nHint: the key works, but the metrics API is not enabled for this team',
    );
  });
});

describe('workflow nodes metrics and show --metrics', () => {
  const NODE_HEADER = HEADER.replace('ID\tNAME', 'NODE\tSUBJECT');

  it('without node ids, shows every send-email node in the order of the tree, with its subject', async () => {
    const result = await loopsctl(['workflow', 'nodes', 'metrics', WELCOME]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(lines(result.stdout)).toEqual([
      NODE_HEADER,
      `${WELCOME_EMAIL}\tWelcome aboard, {contact.firstName}\t2000\t1100\t55.00%\t300\t15.00%\t20\t1.00%\t100\t60\t8.00%\t10\t0.50%`,
      `${WELCOME_TIPS}\tFive tips for your first week\t1200\t480\t40.00%\t96\t8.00%\t24\t2.00%\t48\t24\t6.00%\t6\t0.50%`,
      `${WELCOME_FEEDBACK}\tHow is it going so far?\t900\t270\t30.00%\t45\t5.00%\t27\t3.00%\t27\t9\t4.00%\t9\t1.00%`,
    ]);
  });

  it('says a node that sends no email has no metrics, without failing; an unknown node fails with a hint', async () => {
    const timer = await loopsctl(['workflow', 'nodes', 'metrics', WELCOME, WELCOME_WAIT, WELCOME_TIPS, '--json']);
    expect(timer.code).toBe(0);
    expect(timer.json().map((row: { nodeId: string }) => row.nodeId)).toEqual([WELCOME_TIPS]);
    expect(JSON.parse(timer.stderr).noMetrics).toEqual({
      workflowId: WELCOME,
      nodeId: WELCOME_WAIT,
      reason: 'a TimerAction node (wait 2 days) sends no email, so it has no metrics; only send-email nodes do',
    });
    const unknown = await loopsctl(['workflow', 'nodes', 'metrics', WELCOME, 'cunknownnode0000000000000']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain(`Hint: see the workflow's nodes with \`loopsctl workflow show ${WELCOME}\``);
  });

  it('draws each send-email node with its sends, open and click rates, in the tree and in Mermaid', async () => {
    const tree = await loopsctl(['workflow', 'show', WELCOME, '--metrics']);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain(`SendEmailAction  ${WELCOME_EMAIL}  "Welcome aboard, {contact.firstName}", email `);
    expect(tree.stdout).toMatch(new RegExp(`${WELCOME_EMAIL} .*\\[2,000 sends, 55\\.00% opened, 15\\.00% clicked\\]$`, 'm'));
    expect(tree.stdout).toMatch(new RegExp(`${WELCOME_FEEDBACK} .*\\[900 sends, 30\\.00% opened, 5\\.00% clicked\\]$`, 'm'));
    const mermaid = await loopsctl(['workflow', 'show', WELCOME, '--metrics', '--format', 'mermaid']);
    expect(mermaid.stdout).toContain('<br/>1,200 sends, 40.00#37; opened, 8.00#37; clicked"]');
    const withJson = await loopsctl(['workflow', 'show', WELCOME, '--metrics', '--json']);
    expect(withJson.code).toBe(2);
    expect(withJson.stderr).toContain('for the metrics as JSON, run `loopsctl workflow nodes metrics <id> --json`');
  });

  it('says in the hint of a 401 that the metrics API must be enabled', async () => {
    const result = await loopsctl(['workflow', 'show', WELCOME, '--metrics'], { env: { LOOPS_API_KEY: 'sandbox-no-metrics' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('metrics API is not enabled');
  });
});

describe('metrics that move with the sandbox own sends', () => {
  it('counts a transactional send as a send and a delivery, and a new contact as a send of the sign-up workflow first email', async () => {
    const before = (await loopsctl(['transactional', 'metrics', SEED_IDS.passwordReset, '--json'])).json()[0];
    const sent = await loopsctl([
      'transactional',
      'send',
      SEED_IDS.passwordReset,
      '--to',
      'ada@example.com',
      '--var',
      'firstName=Ada',
      '--var',
      'resetUrl=https://example.com/r',
      '--var',
      'expiresInMinutes:=30',
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const after = (await loopsctl(['transactional', 'metrics', SEED_IDS.passwordReset, '--json'])).json()[0];
    expect(after).toEqual({ ...before, sends: before.sends + 1, deliveries: before.deliveries + 1 });

    // The sign-up workflow sends to its mailing list: a contact enters it on that list.
    const list = (await loopsctl(['workflow', 'show', WELCOME, '--json'])).json().mailingListId;
    const created = await loopsctl(['contacts', 'create', '--email', 'new.signup@example.com', '--list', `${list}=true`]);
    expect(created.code, created.stderr).toBe(0);
    const [welcome, tips] = (await loopsctl(['workflow', 'nodes', 'metrics', WELCOME, WELCOME_EMAIL, WELCOME_TIPS, '--json'])).json();
    expect(welcome.sends).toBe(2001);
    // The next email waits two days: it has not gone out yet.
    expect(tips.sends).toBe(1200);
  });
});

describe('metrics against a server of its own', () => {
  let server: ApiServer;
  afterEach(() => server.close());

  it('hints at the metrics API on a 401 that does not name it, and fails a 400 on a sent campaign as the API says', async () => {
    const campaign = {
      id: 'csent',
      url: 'https://app.loops.so/campaigns/csent',
      name: 'Sent',
      status: 'Sent',
      emailMessageId: 'cem',
      createdAt: 'x',
      updatedAt: 'x',
      campaignGroupId: null,
      mailingListId: null,
      audienceSegmentId: null,
      audienceFilter: null,
      scheduling: { method: 'now', timestamp: null },
    };
    server = await startApiServer({
      'GET /v1/campaigns/:id': (_req, res) => json(res, 200, campaign),
      'GET /v1/campaigns/:id/metrics': (req, res) =>
        req.params.id === 'cdenied' ? json(res, 401, { message: 'Invalid API key' }) : json(res, 400, { message: 'Metrics are not available.' }),
    });
    const env = { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key-0000' };
    const denied = await run(['campaigns', 'metrics', 'cdenied'], { env });
    expect(denied.code).toBe(3);
    // Where the key came from, then what else a 401 there can mean.
    expect(denied.stderr).toContain('Error: Invalid API key (the key in the environment variable LOOPS_API_KEY)\n');
    expect(denied.stderr).toContain(
      'Hint: check the value of LOOPS_API_KEY, or unset it to use a stored profile (`loopsctl auth status` shows which key a command uses); ' +
        'or the key is right and the metrics API is not enabled for this team (ask Loops support to enable it)\n',
    );
    const refused = await run(['campaigns', 'metrics', 'csent'], { env });
    expect(refused).toMatchObject({ code: 5, stdout: '' });
    expect(refused.stderr).toContain('Error: Metrics are not available.');
  });

  it('shows the nodes that answered, says which has no email message, and fails the one the server fails', async () => {
    const workflow = {
      id: 'cwf',
      url: 'https://app.loops.so/workflows/cwf',
      workflowRevisionId: 'crev',
      rootNodeId: 'ctrigger',
      nodes: {
        ctrigger: { typeName: 'SignupTrigger', nextNodeIds: ['cfirst'] },
        cfirst: { typeName: 'SendEmailAction', nextNodeIds: ['cblank'], emailMessageId: 'cem1', subject: 'Hello' },
        cblank: { typeName: 'SendEmailAction', nextNodeIds: ['cbroken'] },
        cbroken: { typeName: 'SendEmailAction', nextNodeIds: [], emailMessageId: 'cem3', subject: 'Bye' },
      },
    };
    const metrics = { sends: 10, opens: 4, clicks: 1, unsubscribes: 0, spamReports: 0, hardBounces: 2, softBounces: 0 };
    server = await startApiServer({
      'GET /v1/workflows/:id': (_req, res) => json(res, 200, workflow),
      'GET /v1/workflows/:id/nodes/:node/metrics': (req, res) => {
        if (req.params.node === 'cfirst') return json(res, 200, metrics);
        if (req.params.node === 'cblank') return json(res, 400, { message: 'Node has no email message.' });
        json(res, 404, { message: 'Workflow node not found.' });
      },
    });
    const result = await run(['workflow', 'nodes', 'metrics', 'cwf'], { env: { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key-0000' } });
    expect(result.code).toBe(4);
    expect(result.stdout.trimEnd().split('\n')[1]).toBe('cfirst\tHello\t10\t4\t40.00%\t1\t10.00%\t0\t0.00%\t2\t0\t20.00%\t0\t0.00%');
    expect(result.stderr).toContain('cblank: this send-email node has no email message yet, so it has no metrics\n');
    expect(result.stderr).toContain("Error: cbroken: Workflow node not found.\nHint: see the workflow's nodes with `loopsctl workflow show cwf`");
  });
});
