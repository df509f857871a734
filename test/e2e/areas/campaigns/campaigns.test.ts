import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { json, startApiServer } from '../../../support/api-server.js';
import { run } from '../../../support/main.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

const SENT = seedId('campaign/October newsletter');
const DRAFT = seedId('campaign/November newsletter');
const NEWSLETTERS = seedId('campaign-group/Newsletters');
const SEGMENT = seedId('segment/Engaged newsletter readers');
const FILTER = { match: 'any', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] };

/** Terminal columns a line takes (the views use no wide characters). */
const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.replace(/\x1b\[[0-9;]*m/g, '').length));

describe('campaigns', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
  });
  afterEach(() => sandbox.close());

  it('list and get fit 80 columns, the filter and schedule in words', async () => {
    const list = await run(['campaigns', 'list'], { env: sandbox.env, tty: { columns: 80 } });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('October newsletter');
    expect(widest(list.stdout)).toBeLessThanOrEqual(80);
    const get = await run(['campaigns', 'get', DRAFT], { env: sandbox.env, tty: { columns: 80 } });
    expect(get.stdout).toContain('Audience filter, matching any of:\n  - plan equal pro\n  - seats greater than 5\n');
    expect(get.stdout).toContain('as soon as it is sent');
    expect(widest(get.stdout)).toBeLessThanOrEqual(80);
  });

  it('the seed has a campaign in the Newsletters group; --json is the answer unchanged', async () => {
    const result = await run(['campaigns', 'get', SENT, '--json'], { env: sandbox.env });
    expect(result.json()).toMatchObject({ id: SENT, status: 'Sent', campaignGroupId: NEWSLETTERS });
    const listed = await run(['campaigns', 'list', '--json'], { env: sandbox.env });
    expect(listed.json<{ id: string }[]>().find((campaign) => campaign.id === SENT)).toEqual(result.json());
  });

  it('create makes a draft with a new email message, from every option, with a body the description takes', async () => {
    const created = await run(
      [
        'campaigns',
        'create',
        '--name',
        'December newsletter',
        '--group',
        NEWSLETTERS,
        '--segment',
        SEGMENT,
        '--list',
        'none',
        '--filter-file',
        '-',
        '--schedule',
        '2099-01-06T09:00:00+01:00',
        '--json',
      ],
      { env: sandbox.env, input: JSON.stringify(FILTER) },
    );
    expect(created.code).toBe(0);
    const campaign = created.json();
    expect(campaign).toMatchObject({ status: 'Draft', campaignGroupId: NEWSLETTERS, audienceSegmentId: SEGMENT, mailingListId: null, audienceFilter: FILTER });
    expect(campaign.emailMessageId).toMatch(/^c[a-z0-9]{24}$/);
    expect(campaign.emailMessageContentRevisionId).toMatch(/^c[a-z0-9]{24}$/);
    expect(sandbox.requests.at(-1)!.body).toEqual({
      name: 'December newsletter',
      campaignGroupId: NEWSLETTERS,
      mailingListId: null,
      audienceSegmentId: SEGMENT,
      scheduling: { method: 'schedule', timestamp: '2099-01-06T08:00:00.000Z' },
      audienceFilter: FILTER,
    });
    expect(sandbox.problems()).toEqual([]);
  });

  it('create in text says where the content goes and which revision the first edit expects', async () => {
    const created = await run(['campaigns', 'create', '--name', 'Launch'], { env: sandbox.env });
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(
      /Email message: c[a-z0-9]{24} \(set its subject, sender and content\)\nIts first update must expect revision c[a-z0-9]{24}\./,
    );
  });

  it('update schedules a draft and sends only the fields given', async () => {
    const result = await run(['campaigns', 'update', DRAFT, '--schedule', 'now', '--segment', 'none', '--json'], { env: sandbox.env });
    expect(result.code).toBe(0);
    expect(sandbox.requests.at(-1)!.body).toEqual({ audienceSegmentId: null, scheduling: { method: 'now' } });
    // A segment given without a filter clears the filter, as the description says.
    expect(result.json()).toMatchObject({ audienceSegmentId: null, audienceFilter: null, scheduling: { method: 'now', timestamp: null } });
    expect(sandbox.problems()).toEqual([]);
  });

  it('a draft set to send at a time is live: its audience changes only with --live', async () => {
    // The sandbox keeps a campaign whose time is set through the API a draft, as the description
    // does not say otherwise: what the gate reads is the time, which is when it sends.
    expect((await run(['campaigns', 'update', DRAFT, '--schedule', '2099-01-06T08:00:00Z'], { env: sandbox.env })).code).toBe(0);
    const sent = sandbox.requests.length;
    const refused = await run(['campaigns', 'update', DRAFT, '--segment', 'none'], { env: sandbox.env });
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain('changes the audience of a campaign that is a draft set to send at 2099-01-06T08:00:00.000Z');
    expect(sandbox.requests.slice(sent).filter((request) => request.method !== 'GET')).toEqual([]);
    const meant = await run(['campaigns', 'update', DRAFT, '--segment', 'none', '--live', '--json'], { env: sandbox.env });
    expect(meant.code).toBe(0);
    expect(meant.json()).toMatchObject({ audienceSegmentId: null });
  });

  it('a sent campaign refuses an audience change: exit 5, nothing changed, and how to see it', async () => {
    const before = await run(['campaigns', 'get', SENT, '--json'], { env: sandbox.env });
    const result = await run(['campaigns', 'update', SENT, '--list', 'none'], { env: sandbox.env });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('Error: Campaign has been sent');
    expect(result.stderr).toContain(`nothing was changed`);
    expect(result.stderr).toContain(`see its state with \`loopsctl campaigns get ${SENT}\``);
    const after = await run(['campaigns', 'get', SENT, '--json'], { env: sandbox.env });
    expect(after.json()).toEqual(before.json());
    const renamed = await run(['campaigns', 'update', SENT, '--name', 'October 2024 newsletter'], { env: sandbox.env });
    expect(renamed.code).toBe(0);
  });

  it.each([
    [['campaigns', 'create', '--name', 'X', '--schedule', 'tomorrow'], 'is neither "now" nor an ISO 8601 time with a zone'],
    [['campaigns', 'create', '--name', 'X', '--schedule', '2020-01-01T00:00:00Z'], 'is in the past'],
    [['campaigns', 'create', '--name', 'X', '--schedule', '2099-01-01T00:00:00'], 'with a zone'],
    [['campaigns', 'update', DRAFT], 'nothing to update'],
    [['campaigns', 'update', DRAFT, '--segment', 'a b'], 'segment id must not contain whitespace'],
    [['campaigns', 'get', ''], 'campaign id must not be empty'],
  ])('%j is refused before sending', async (argv, message) => {
    const result = await run(argv, { env: sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('a bad filter names the condition at fault', async () => {
    const filter = {
      match: 'all',
      conditions: [
        { type: 'optIn', status: 'accepted' },
        { type: 'activity', action: 'read', negate: false, target: 'campaign', id: SENT },
      ],
    };
    const result = await run(['campaigns', 'update', DRAFT, '--filter-file', '-'], { env: sandbox.env, input: JSON.stringify(filter) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('stdin: conditions[1].action: "read" is not an activity action');
    expect(sandbox.requests).toHaveLength(0);
  });

  it('unknown references: a group is 400, a segment or list 404, each explained', async () => {
    const group = await run(['campaigns', 'create', '--name', 'X', '--group', 'nosuchgroup'], { env: sandbox.env });
    expect(group.code).toBe(5);
    expect(group.stderr).toContain('loopsctl campaign-groups list');
    const segment = await run(['campaigns', 'update', DRAFT, '--segment', 'nosuchsegment'], { env: sandbox.env });
    expect(segment.code).toBe(4);
    expect(segment.stderr).toContain('Hint: the segment does not exist; see the segments with `loopsctl segments list`');
  });

  it('no sending domain: create is refused with the reason', async () => {
    const result = await run(['campaigns', 'create', '--name', 'X'], { env: { ...sandbox.env, LOOPS_API_KEY: 'sandbox-no-domain' } });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('No sending domain');
  });
});

it('a 409 from the API is exit 5 with the command to see the campaign', async () => {
  const server = await startApiServer({ 'POST /v1/campaigns/:id': (_req, res) => json(res, 409, { message: 'Campaign has been sent.' }) });
  try {
    const result = await run(['campaigns', 'update', 'c1', '--schedule', 'now', '--json'], {
      env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url },
    });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr).error;
    expect(error).toMatchObject({ code: 'conflict', status: 409, message: 'Campaign has been sent.', exitCode: 5 });
    expect(server.requests).toHaveLength(1);
  } finally {
    await server.close();
  }
});
