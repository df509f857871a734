/** Every command end to end, in-process, against a sandbox holding the records of fixtures.ts. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cursorAt, type FixtureSandbox, KEYS, startFixtureSandbox, themes } from '../support/fixture-sandbox.js';
import * as fx from '../support/fixtures.js';
import { run } from '../support/main.js';
import { type RunOptions, runCli } from '../support/run-cli.js';

let api: FixtureSandbox;

beforeEach(async () => {
  api = await startFixtureSandbox();
});
afterEach(() => api.close());

function loopsctl(args: string[], key: string = KEYS.valid, options: RunOptions = {}) {
  return runCli(args, { ...options, env: { LOOPS_API_KEY: key, LOOPS_BASE_URL: api.url, ...options.env } });
}

const lines = (text: string) => text.trimEnd().split('\n');

describe('transactional', () => {
  it('lists transactional emails as tab-separated rows with a header when piped', async () => {
    const result = await loopsctl(['transactional', 'list']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(lines(result.stdout)).toEqual([
      'ID\tNAME\tGROUP\tPUBLISHED\tDRAFT\tUPDATED',
      'tx_unsent\tUnsent\tGroup 1\tyes\tno\t2025-06-29T07:47:39.370Z',
      'tx_welcome\tWelcome\tGroup 1\tyes\tyes\t2025-06-29T07:47:39.370Z',
    ]);
  });

  it('prints the items exactly as returned with --json', async () => {
    const result = await loopsctl(['transactional', 'list', '--json']);
    expect(result.code).toBe(0);
    const { draftEmailMessageContentRevisionId: _revision, ...listed } = fx.draftRecord;
    expect(JSON.parse(result.stdout)).toEqual([
      { ...fx.transactionalEmail, id: 'tx_unsent', url: 'https://app.loops.so/transactional/tx_unsent', name: 'Unsent', publishedEmailMessageId: 'em_pub_2' },
      { ...listed, url: 'https://app.loops.so/transactional/tx_welcome' },
    ]);
  });

  it('shows metrics with each name and rates over sends (not deliveries), and "-" when nothing was sent', async () => {
    const result = await loopsctl(['transactional', 'metrics', 'tx_welcome', 'tx_unsent']);
    expect(result.code).toBe(0);
    // Over deliveries (960) the bounce rate would read 25.00% and the spam rate 2.50%.
    expect(lines(result.stdout)).toEqual([
      'ID\tNAME\tSENDS\tDELIVERIES\tDELIVERY RATE\tHARD BOUNCES\tSOFT BOUNCES\tBOUNCE RATE\tSPAM REPORTS\tSPAM RATE',
      'tx_welcome\tWelcome\t1200\t960\t80.00%\t150\t90\t20.00%\t24\t2.00%',
      'tx_unsent\tUnsent\t0\t0\t-\t0\t0\t-\t0\t-',
    ]);
    expect(result.stdout).not.toContain('NaN');
    expect(api.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /v1/transactional-emails/tx_unsent',
      'GET /v1/transactional-emails/tx_unsent/metrics',
      'GET /v1/transactional-emails/tx_welcome',
      'GET /v1/transactional-emails/tx_welcome/metrics',
    ]);
  });

  it('shows "-" for a name it cannot read, and still the metrics', async () => {
    const result = await loopsctl(['transactional', 'metrics', 'tx_welcome'], KEYS.noContent);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)[1]).toBe('tx_welcome\t-\t1200\t960\t80.00%\t150\t90\t20.00%\t24\t2.00%');
  });

  it('says in the hint of a 401 that the metrics API may not be enabled', async () => {
    const result = await loopsctl(['transactional', 'metrics', 'tx_welcome'], 'sandbox-no-metrics');
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toContain(
      'Error: The metrics API is not enabled for this team\nHint: the key works, but the metrics API is not enabled for this team',
    );
  });

  it('prints an array of objects with transactionalId under --json, for one id or several, and one per line with --jsonl', async () => {
    const one = await loopsctl(['transactional', 'metrics', 'tx_welcome', '--json']);
    expect(JSON.parse(one.stdout)).toEqual([
      { transactionalId: 'tx_welcome', sends: 1200, deliveries: 960, spamReports: 24, hardBounces: 150, softBounces: 90 },
    ]);
    const several = await loopsctl(['transactional', 'metrics', 'tx_welcome', 'tx_unsent', '--json']);
    expect(JSON.parse(several.stdout)).toEqual([
      { transactionalId: 'tx_welcome', sends: 1200, deliveries: 960, spamReports: 24, hardBounces: 150, softBounces: 90 },
      { transactionalId: 'tx_unsent', sends: 0, deliveries: 0, spamReports: 0, hardBounces: 0, softBounces: 0 },
    ]);
    const lines = await loopsctl(['transactional', 'metrics', 'tx_welcome', 'tx_unsent', '--jsonl']);
    expect(
      lines.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).transactionalId),
    ).toEqual(['tx_welcome', 'tx_unsent']);
  });

  it('prints the metrics that could be fetched, reports each failed id, fetches a repeated id once, and exits with the worst code', async () => {
    const result = await loopsctl(['transactional', 'metrics', 'nosuch', 'tx_welcome', 'tx_welcome', 'bad!id']);
    expect(result.code).toBe(5);
    expect(lines(result.stdout)).toEqual([
      'ID\tNAME\tSENDS\tDELIVERIES\tDELIVERY RATE\tHARD BOUNCES\tSOFT BOUNCES\tBOUNCE RATE\tSPAM REPORTS\tSPAM RATE',
      'tx_welcome\tWelcome\t1200\t960\t80.00%\t150\t90\t20.00%\t24\t2.00%',
    ]);
    expect(result.stderr).toContain('Error: nosuch: transactional email nosuch not found');
    expect(result.stderr).toContain('Error: bad!id: invalid transactionalId');
    expect(api.requests.filter((request) => request.path.includes('tx_welcome/metrics'))).toHaveLength(1);
    const asJson = await loopsctl(['transactional', 'metrics', 'nosuch', 'tx_welcome', '--json']);
    expect(asJson.code).toBe(4);
    expect(JSON.parse(asJson.stdout)).toHaveLength(1);
    expect(
      asJson.stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).error),
    ).toEqual([expect.objectContaining({ transactionalId: 'nosuch', code: 'not_found', exitCode: 4, message: 'transactional email nosuch not found' })]);
  });

  it('stops at once when a failure dooms every id, cancelling requests in flight', async () => {
    const { json, startApiServer } = await import('../support/api-server.js');
    const server = await startApiServer({
      'GET /v1/transactional-emails/:id/metrics': (req, res) => {
        // The first id is refused; the others hang until cancelled.
        if (req.params.id === 'id0') json(res, 401, { message: 'Invalid API key' });
      },
    });
    try {
      const ids = Array.from({ length: 40 }, (_, index) => `id${index}`);
      const result = await runCli(['transactional', 'metrics', ...ids, '--timeout', '600'], {
        env: { LOOPS_API_KEY: 'some-key-0000', LOOPS_BASE_URL: server.url },
      });
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Error: Invalid API key \(the key in the environment variable LOOPS_API_KEY\)\n/);
      expect(server.requests.length).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });

  it('maps 404, 400 and 401 on metrics to exit codes 4, 5 and 3 with the API message', async () => {
    const missing = await loopsctl(['transactional', 'metrics', 'tx_nope']);
    expect(missing).toMatchObject({ code: 4, stdout: '' });
    expect(missing.stderr).toContain('Error: transactional email tx_nope not found\n');

    const invalid = await loopsctl(['transactional', 'metrics', 'bad-id!']);
    expect(invalid).toMatchObject({ code: 5, stdout: '' });
    expect(invalid.stderr).toContain('Error: invalid transactionalId: "bad-id!"');

    const unauthorized = await loopsctl(['transactional', 'metrics', 'tx_welcome'], 'test-key-wrong');
    expect(unauthorized).toMatchObject({ code: 3, stdout: '' });
    expect(unauthorized.stderr).toContain('Error: Invalid API key');
    expect(unauthorized.stderr).not.toContain('test-key-wrong');
  });

  it('reports a JSON error object on stderr under --json', async () => {
    const result = await loopsctl(['transactional', 'metrics', 'tx_nope', '--json']);
    expect(result).toMatchObject({ code: 4, stdout: '' });
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'not_found',
        status: 404,
        message: 'transactional email tx_nope not found',
        exitCode: 4,
        hint: 'see the ids with `loopsctl transactional list`',
        transactionalId: 'tx_nope',
      },
    });
  });

  it('ensures a draft and points out the content revision id', async () => {
    const result = await loopsctl(['transactional', 'draft', 'tx_welcome']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('draftEmailMessageContentRevisionId\trev_abc123');
    expect(result.stderr).toContain('loopsctl email-messages update em_draft_1');
    expect(result.stderr).toContain('--expected-revision-id rev_abc123');
    expect(api.requests).toMatchObject([{ method: 'POST', path: '/v1/transactional-emails/tx_welcome/draft', body: '' }]);
    const asJson = await loopsctl(['transactional', 'draft', 'tx_welcome', '--json']);
    expect(JSON.parse(asJson.stdout)).toEqual({ ...fx.draftRecord, url: 'https://app.loops.so/transactional/tx_welcome' });
    expect(asJson.stderr).toBe('');
  });

  it('maps the draft error rows: 404, no sending domain (400), content API off (401)', async () => {
    const missing = await loopsctl(['transactional', 'draft', 'tx_nope']);
    expect(missing).toMatchObject({ code: 4, stderr: expect.stringContaining('Error: transactional email tx_nope not found\n') });
    const noDomain = await loopsctl(['transactional', 'draft', 'tx_unsent'], KEYS.noDomain);
    expect(noDomain).toMatchObject({ code: 5, stderr: expect.stringContaining('No sending domain is configured for this team') });
    const noContent = await loopsctl(['transactional', 'draft', 'tx_welcome'], KEYS.noContent);
    expect(noContent).toMatchObject({ code: 3, stderr: expect.stringContaining('content API is not enabled') });
  });

  it('creates a transactional email with only the fields given', async () => {
    const result = await loopsctl(['transactional', 'create', '--name', 'Receipt', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      id: expect.stringMatching(/^c[a-z0-9]{24}$/),
      name: 'Receipt',
      publishedEmailMessageId: null,
      transactionalGroupId: 'grp_0',
    });
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ name: 'Receipt' });

    const grouped = await loopsctl(['transactional', 'create', '--name', 'Receipt', '--group', 'grp_1']);
    expect(grouped.code).toBe(0);
    expect(grouped.stdout).toMatch(/draftEmailMessageContentRevisionId\tc[a-z0-9]{24}/);
    expect(JSON.parse(api.requests[1]!.body)).toEqual({ name: 'Receipt', transactionalGroupId: 'grp_1' });
  });

  it('refuses create without --name before sending anything, and maps its 400 and 401', async () => {
    const missing = await loopsctl(['transactional', 'create']);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain("required option '--name <name>' not specified");
    expect(api.requests).toHaveLength(0);
    const noDomain = await loopsctl(['transactional', 'create', '--name', 'X'], KEYS.noDomain);
    expect(noDomain).toMatchObject({ code: 5, stderr: expect.stringContaining('Error: No sending domain is configured for this team\n') });
    const noContent = await loopsctl(['transactional', 'create', '--name', 'X'], KEYS.noContent);
    expect(noContent).toMatchObject({ code: 3, stderr: expect.stringContaining('Error: The content API is not enabled for this team') });
  });

  it('answers 405 with exit 5 when the API refuses the method', async () => {
    const { startApiServer } = await import('../support/api-server.js');
    const refusing = await startApiServer({ 'GET /v1/transactional-emails/:id/metrics': (_req, res) => void res.writeHead(405).end() });
    try {
      const result = await runCli(['transactional', 'metrics', 'tx_welcome'], { env: { LOOPS_API_KEY: KEYS.valid, LOOPS_BASE_URL: refusing.url } });
      expect(result).toMatchObject({ code: 5, stdout: '' });
      expect(result.stderr).toContain('Error: the API does not allow this method here');
    } finally {
      await refusing.close();
    }
  });
});

describe('lists and pagination', () => {
  it('follows nextCursor through every page', async () => {
    const result = await loopsctl(['themes', 'list', '--json', '--per-page', '20']);
    expect(JSON.parse(result.stdout)).toEqual(themes);
    expect(api.requests.map((r) => r.query.get('cursor'))).toEqual([null, cursorAt('theme_5')]);
  });

  it('passes --per-page as perPage and stops at --limit without fetching more pages', async () => {
    const result = await loopsctl(['themes', 'list', '--json', '--per-page', '10', '--limit', '12']);
    expect(JSON.parse(result.stdout)).toHaveLength(12);
    expect(api.requests.map((r) => [r.query.get('perPage'), r.query.get('cursor')])).toEqual([
      ['10', null],
      ['10', cursorAt('theme_15')],
    ]);
  });

  it('asks for pages just large enough for --limit', async () => {
    await loopsctl(['themes', 'list', '--json', '--limit', '5']);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]!.query.get('perPage')).toBe('10');
  });

  it('fetches one page with --cursor and prints its envelope under --json', async () => {
    const result = await loopsctl(['themes', 'list', '--json', '--cursor', cursorAt('theme_5')]);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.pagination).toMatchObject({ nextCursor: null, returnedResults: 5 });
    expect(envelope.data).toEqual(themes.slice(20));
    expect(api.requests).toHaveLength(1);
  });

  it('tells how to go on after a --cursor page in text', async () => {
    const result = await loopsctl(['groups', 'list', '--per-page', '10', '--cursor', cursorAt('grp_12')]);
    expect(lines(result.stdout)).toHaveLength(11);
    expect(result.stderr).toContain(`--cursor ${cursorAt('grp_2')}`);
  });

  it('refuses --per-page outside 10-50 before any request', async () => {
    for (const value of ['9', '51', 'ten']) {
      const result = await loopsctl(['themes', 'list', '--per-page', value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `Error: --per-page must be a whole number from 10 to 50, not ${value}\nHint: the API serves pages of 10 to 50 items; to show fewer items, use --limit\n`,
      );
    }
    expect(api.requests).toHaveLength(0);
  });

  it('says in words why --limit 0 is refused, before any request', async () => {
    const result = await loopsctl(['themes', 'list', '--limit', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('Error: --limit must be a whole number, 1 or more, not 0\nHint: leave --limit out to list every item\n');
    const json = await loopsctl(['themes', 'list', '--limit', '0', '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage', message: '--limit must be a whole number, 1 or more, not 0' });
    const global = await loopsctl(['--timeout', '0', 'themes', 'list']);
    expect(global.stderr).toBe('Error: --timeout must be a whole number from 1 to 3600, not 0\nHint: see `loopsctl --help`\n');
    expect(api.requests).toHaveLength(0);
  });

  it('lists transactional groups under both names, and shows one', async () => {
    const viaGroups = await loopsctl(['groups', 'list']);
    const viaAlias = await loopsctl(['transactional-groups', 'list']);
    expect(viaGroups.stdout).toBe(viaAlias.stdout);
    expect(lines(viaGroups.stdout)).toHaveLength(14);
    const one = await loopsctl(['groups', 'get', 'grp_1', '--json']);
    expect(JSON.parse(one.stdout)).toEqual(fx.group(1));
    const missing = await loopsctl(['groups', 'get', 'grp_404']);
    expect(missing).toMatchObject({ code: 4, stderr: expect.stringContaining('Error: transactional group grp_404 not found\n') });
    const noContent = await loopsctl(['groups', 'get', 'grp_1'], KEYS.noContent);
    expect(noContent).toMatchObject({ code: 3, stderr: expect.stringContaining('Error: The content API is not enabled for this team') });
  });

  it('summarises segment filters and lists themes with their colours', async () => {
    const segments = await loopsctl(['segments', 'list']);
    expect(lines(segments.stdout)[1]).toBe('seg_pro\tPro users\tContacts on the pro plan\tplan equal pro\t2025-06-29T07:47:39.370Z');
    const themeRows = await loopsctl(['themes', 'list', '--limit', '1']);
    expect(lines(themeRows.stdout)[1]).toBe('theme_25\tTheme 25\tno\t#f5f5f5\t#ffffff\t#374151\t#111827\t2025-06-29T07:47:39.370Z');
  });
});

describe('campaign groups', () => {
  it('lists, shows and updates with a body holding only the fields given', async () => {
    expect(lines((await loopsctl(['campaign-groups', 'list'])).stdout)[1]).toMatch(/^grp_3\tUnsorted\t/);
    expect(JSON.parse((await loopsctl(['campaign-groups', 'get', 'grp_1', '--json'])).stdout)).toEqual(fx.group(1));
    const updated = await loopsctl(['campaign-groups', 'update', 'grp_1', '--description', 'Monthly', '--json']);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: 'grp_1', description: 'Monthly', name: 'Group 1' });
    expect(api.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/campaign-groups/grp_1' });
    expect(JSON.parse(api.requests.at(-1)!.body)).toEqual({ description: 'Monthly' });
  });

  it('refuses an update with no field, or to the reserved name, before any request', async () => {
    const empty = await loopsctl(['campaign-groups', 'update', 'grp_1']);
    expect(empty).toMatchObject({ code: 2, stderr: expect.stringContaining('nothing to update') });
    const reserved = await loopsctl(['campaign-groups', 'update', 'grp_1', '--name', 'Unsorted']);
    expect(reserved).toMatchObject({ code: 2, stderr: expect.stringContaining('"Unsorted" is reserved') });
    expect(api.requests).toHaveLength(0);
  });

  it('passes on the API refusing to edit the Unsorted group, and unknown groups', async () => {
    const unsorted = await loopsctl(['campaign-groups', 'update', 'grp_3', '--name', 'Misc']);
    expect(unsorted).toMatchObject({ code: 5, stderr: expect.stringMatching(/^Error: the Unsorted group cannot be edited\nHint: .*Unsorted/) });
    const missing = await loopsctl(['campaign-groups', 'update', 'grp_9', '--name', 'Misc']);
    expect(missing).toMatchObject({ code: 4, stderr: expect.stringContaining('Error: campaign group grp_9 not found\n') });
    const noContent = await loopsctl(['campaign-groups', 'get', 'grp_1'], KEYS.noContent);
    expect(noContent).toMatchObject({ code: 3, stderr: expect.stringContaining('Error: The content API is not enabled for this team') });
  });
});

describe('workflows', () => {
  it('lists workflows, also as `workflows`', async () => {
    const result = await loopsctl(['workflows', 'list']);
    expect(lines(result.stdout)).toEqual(['ID\tNAME\tUPDATED', 'wf_welcome\tWelcome series\t2025-06-29T07:47:39.370Z']);
    expect((await loopsctl(['workflow', 'list'])).stdout).toBe(result.stdout);
  });

  it('draws the graph as a tree with merges, dangling ids, unknown types and unreachable nodes', async () => {
    const result = await loopsctl(['workflow', 'show', 'wf_welcome']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'Welcome series',
        'id wf_welcome · status Draft · mailing list list_1 · 10 nodes',
        'https://app.loops.so/workflows/wf_welcome',
        '',
        'EventTrigger  n_trigger  on event "signup"',
        '`-- TimerAction  n_wait  wait 2 days',
        '    `-- BranchNode  n_branch',
        '        |-- SendEmailAction  n_email  "Welcome aboard", email em_1',
        '        |   `-- ExitAction  n_exit',
        '        `-- ExperimentBranchNode  n_exp  20% sampled',
        '            |-- VariantNode  n_control  control',
        '            |   `-- -> ExitAction n_exit (shown above)',
        '            `-- VariantNode  n_variant  variant',
        '                `-- ! n_ghost (missing node)',
        '',
        'Not reachable from the trigger:',
        'HologramAction  n_orphan  beam=blue',
        'ContactPropertyTrigger  n_prop  when planName was any, is equal "pro", re-eligible',
        '`-- -> TimerAction n_wait (shown above)',
        '',
      ].join('\n'),
    );
  });

  it('prints the workflow exactly as returned with --json', async () => {
    const result = await loopsctl(['workflow', 'show', 'wf_welcome', '--json']);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ ...fx.workflow, workflowRevisionId: 'wrev_1' });
    expect(Object.keys(answer.nodes)).toEqual([...Object.keys(fx.workflow.nodes), 'n_prop']);
  });

  it('shows every field of a node, comparisons and event properties included', async () => {
    const prop = await loopsctl(['workflow', 'show', 'wf_welcome', '--node', 'n_prop']);
    expect(prop.code).toBe(0);
    // Piped, the node as the API sent it, nested values as JSON.
    expect(lines(prop.stdout)).toEqual([
      'FIELD\tVALUE',
      'id\tn_prop',
      'workflowId\twf_welcome',
      'typeName\tContactPropertyTrigger',
      'nextNodeIds\t["n_wait"]',
      `contactPropertyQuery\t${JSON.stringify(fx.contactPropertyNode.contactPropertyQuery)}`,
      'reEligible\ttrue',
      'workflowRevisionId\twrev_1',
    ]);
    const event = await loopsctl(['workflow', 'show', 'wf_welcome', '--node', 'n_trigger']);
    expect(event.stdout).toContain(`eventProperties\t${JSON.stringify(fx.eventTriggerNode.eventProperties)}`);
    // On a terminal, in words.
    const shown = await run(['workflow', 'show', 'wf_welcome', '--node', 'n_prop'], {
      env: { LOOPS_API_KEY: KEYS.valid, LOOPS_BASE_URL: api.url, NO_COLOR: '1' },
      tty: { columns: 100 },
    });
    expect(shown.stdout).toMatch(/contactPropertyQuery +key planName; was any; is equal "pro"/);
    const asJson = await loopsctl(['workflow', 'show', 'wf_welcome', '--node', 'n_prop', '--json']);
    expect(JSON.parse(asJson.stdout)).toEqual(fx.contactPropertyNode);
    expect(api.requests.at(-1)!.path).toBe('/v1/workflows/wf_welcome/nodes/n_prop');
  });

  it('maps 404 for a workflow or node, 400 for a bad id, and 401 when the workflow API is off', async () => {
    const missing = await loopsctl(['workflow', 'show', 'wf_nope']);
    expect(missing).toMatchObject({ code: 4, stderr: expect.stringContaining('Error: workflow wf_nope not found\n') });
    const missingNode = await loopsctl(['workflow', 'show', 'wf_welcome', '--node', 'n_nope']);
    expect(missingNode).toMatchObject({ code: 4, stderr: expect.stringContaining('Error: node n_nope not found in workflow wf_welcome\n') });
    const badId = await loopsctl(['workflow', 'show', 'wf!bad']);
    expect(badId).toMatchObject({ code: 5, stderr: 'Error: invalid workflowId: "wf!bad"\n' });
    const off = await loopsctl(['workflow', 'show', 'wf_welcome'], KEYS.noWorkflows);
    expect(off).toMatchObject({ code: 3, stderr: expect.stringContaining('workflow API is not enabled') });
    const listOff = await loopsctl(['workflow', 'list'], KEYS.noWorkflows);
    expect(listOff).toMatchObject({ code: 3, stderr: expect.stringContaining('Error: The workflow API is not enabled for this team\n') });
  });

  it('says in its help that the workflow API is in alpha', async () => {
    const help = await loopsctl(['workflow', 'show', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('alpha');
    expect(help.stdout).toContain('Examples:');
  });
});

describe('ips', () => {
  it('lists the sending IPs as a table, plain lines, or the JSON array', async () => {
    expect(lines((await loopsctl(['ips', 'list'])).stdout)).toEqual(['ADDRESS\tVERSION', '52.21.45.123\tIPv4', '2600:1f18:4a3::10\tIPv6']);
    expect((await loopsctl(['ips', 'list', '--plain'])).stdout).toBe('52.21.45.123\n2600:1f18:4a3::10\n');
    expect(JSON.parse((await loopsctl(['ips', 'list', '--json'])).stdout)).toEqual(['52.21.45.123', '2600:1f18:4a3::10']);
  });
});

describe('ids and requests', () => {
  it('percent-encodes ids into the path', async () => {
    await loopsctl(['workflow', 'show', 'a/b?c#d', '--node', '50%.x']);
    expect(api.requests[0]!.path).toBe('/v1/workflows/a%2Fb%3Fc%23d/nodes/50%25.x');
  });

  it('refuses empty, whitespace, control-character and over-long ids before any request', async () => {
    for (const [id, problem] of [
      ['', 'must not be empty'],
      ['a b', 'must not contain whitespace, control characters or broken characters'],
      ['a\u0007b', 'must not contain whitespace, control characters or broken characters'],
      ['x'.repeat(129), 'is longer than 128 characters'],
      ['..', 'must not be "." or ".."'],
    ]) {
      const result = await loopsctl(['groups', 'get', id!]);
      expect(result).toMatchObject({ code: 2, stderr: `Error: transactional group id ${problem}\n` });
    }
    expect(api.requests).toHaveLength(0);
  });

  it('sends the User-Agent and the bearer key, and redacts the key in --debug lines', async () => {
    const result = await loopsctl(['ips', 'list', '--debug']);
    expect(api.requests[0]!.headers['user-agent']).toMatch(/^loopsctl\/\d+\.\d+\.\d+/);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEYS.valid}`);
    expect(result.stderr).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/v1\/dedicated-sending-ips/);
    expect(result.stderr).toMatch(/< 200 GET .* in \d+ ms/);
    expect(result.stderr).toContain('[redacted]');
    expect(result.stderr).not.toContain(KEYS.valid);
  });
});

describe('usage errors', () => {
  it('exits 2 on an unknown command or flag, with a suggestion', async () => {
    const command = await loopsctl(['themez']);
    expect(command).toMatchObject({ code: 2, stdout: '' });
    expect(command.stderr).toContain("unknown command 'themez'");
    const flag = await loopsctl(['themes', 'list', '--per-pag', '10']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Error: unknown option '--per-pag'\nHint: did you mean --per-page?");
  });

  it('reports usage errors as JSON under --json', async () => {
    const result = await loopsctl(['themes', 'list', '--bogus', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', status: null, exitCode: 2, message: "unknown option '--bogus'" } });
  });

  it('prints the version and help with exit codes', async () => {
    expect((await loopsctl(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await loopsctl(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).toMatch(/^ {2}9 +invalid response/m);
  });

  it('shows a group’s help on stdout, exit 0, when it is given without a subcommand', async () => {
    const result = await loopsctl(['campaign-groups']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: loopsctl campaign-groups');
  });
});
