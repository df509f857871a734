import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../../src/base/errors.js';
import { seedId } from '../../../../src/emulator/module.js';
import { describeFilter } from '../../../../src/platform/audience-filter-words.js';
import { checkAudienceFilter, checkAudienceFilterFrom } from '../../../../src/platform/segments/filter.js';
import { run, tempDir } from '../../../support/main.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

const property = (operator: string, value?: unknown) => ({ type: 'property', key: 'plan', operator, ...(value === undefined ? {} : { value }) });
// Generic, so a filter keeps its conditions' types: describeFilter needs well-formed ones, the refusal cases pass ill-formed ones.
const filterOf = <Conditions extends unknown[]>(...conditions: Conditions) => ({ match: 'all', conditions });

/** The message of the error a filter is refused with. */
function refusal(filter: unknown): string {
  try {
    checkAudienceFilterFrom('filter.json', filter);
  } catch (error) {
    expect(error).toBeInstanceOf(LocalFileError);
    return `${(error as LocalFileError).message} | ${(error as LocalFileError).hint}`;
  }
  throw new Error('the filter was accepted');
}

describe('audience filters checked before sending', () => {
  it('accepts each kind of condition the description has', () => {
    const filter = filterOf(
      property('equals', 'pro'),
      property('isTrue'),
      property('greaterThan', 5),
      property('between', { from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00.000Z' }),
      { type: 'optIn', status: null },
      { type: 'activity', action: 'clicked', negate: true, target: 'workflowEmail', id: 'cwe1' },
    );
    expect(checkAudienceFilter(filter)).toBe(filter);
  });

  it.each([
    [
      filterOf(property('equals', 'a'), property('equals', 'b'), property('equalz', 'c')),
      'filter.json: conditions[2].operator: "equalz" is not an operator of property conditions | did you mean equals',
    ],
    [{ match: 'every', conditions: [property('equals', 'a')] }, 'match: "every" is not a match mode'],
    [{ match: 'all', conditions: [] }, 'conditions: must be a list of at least one condition'],
    [{ match: 'all', conditions: [property('equals', 'a')], extra: 1 }, 'extra: is not a field of filters'],
    [filterOf(property('isTrue', true)), 'conditions[0].value: "isTrue" compares with no value'],
    [filterOf(property('equals')), 'conditions[0].value: is missing'],
    [filterOf(property('equals', ['a'])), 'conditions[0].value: must be a string or a number'],
    [filterOf(property('between', { from: '2025-01-01T00:00:00Z' })), 'conditions[0].value.to: is missing'],
    [
      filterOf(property('between', { from: '2025-01-01', to: '2025-02-01T00:00:00Z' })),
      'conditions[0].value.from: "2025-01-01" is not an ISO 8601 date and time',
    ],
    [filterOf(property('between', '1,5')), 'conditions[0].value: "between" takes {"from": <ISO time>, "to": <ISO time>}'],
    [filterOf({ type: 'optIn', status: 'yes' }), 'conditions[0].status: "yes" is not an opt-in status'],
    [filterOf({ type: 'optIn' }), 'conditions[0].status: is missing: optIn conditions need it'],
    [filterOf({ type: 'activity', action: 'opened', negate: 'no', target: 'campaign', id: 'c1' }), 'conditions[0].negate: must be true or false'],
    [filterOf({ type: 'activity', action: 'opened', negate: false, target: 'list', id: 'c1' }), 'conditions[0].target: "list" is not an activity target'],
    [
      filterOf({ type: 'activity', action: 'opened', negate: false, target: 'campaign', id: 'c1', key: 'x' }),
      'conditions[0].key: is not a field of activity conditions',
    ],
    [
      filterOf({ type: 'propery', key: 'plan', operator: 'equals', value: 1 }),
      'conditions[0].type: "propery" is not a kind of condition | did you mean property',
    ],
    [[], 'filter.json: filter: must be a JSON object'],
  ])('refuses %j naming the fault', (filter, expected) => {
    for (const part of expected.split(' | ')) expect(refusal(filter)).toContain(part);
  });
});

describe('filters in words', () => {
  it('reads opt-in, activity and between conditions', () => {
    const words = describeFilter(
      filterOf(
        { type: 'optIn', status: 'accepted' },
        { type: 'optIn', status: null },
        { type: 'activity', action: 'opened', negate: true, target: 'campaign', id: 'c1' },
        { type: 'activity', action: 'clicked', negate: false, target: 'workflowEmail', id: 'w1' },
        property('between', { from: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' }),
        property('notEquals', 'free'),
        property('isFalse'),
      ),
    );
    expect(words).toBe(
      'opt-in accepted and no opt-in status and did not open campaign c1 and clicked in workflow email w1 and plan between 2025-01-01T00:00:00Z and 2025-02-01T00:00:00Z and plan not equal free and plan is false',
    );
    expect(describeFilter(null)).toBe('everyone');
  });
});

describe('segments get and create', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
  });
  afterEach(() => sandbox.close());

  it('get shows the filter in words, and --json the answer unchanged', async () => {
    const id = seedId('segment/Engaged newsletter readers');
    const text = await run(['segments', 'get', id], { env: sandbox.env, tty: { columns: 80 } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      [
        'Filter, matching all of:',
        '  - opt-in accepted',
        '  - signedUpAt between 2024-09-01T00:00:00.000Z and 2024-11-30T23:59:59.000Z',
        `  - opened campaign ${seedId('campaign/October newsletter')}`,
      ].join('\n'),
    );
    expect(Math.max(...text.stdout.split('\n').map((line) => line.replace(/\x1b\[[0-9;]*m/g, '').length))).toBeLessThanOrEqual(80);
    const json = await run(['segments', 'get', id, '--json'], { env: sandbox.env });
    const listed = await run(['segments', 'list', '--json'], { env: sandbox.env });
    expect(json.json()).toEqual(listed.json<{ id: string }[]>().find((segment) => segment.id === id));
    expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toContain(`GET /v1/audience-segments/${id}`);
  });

  it('an unknown id is exit 4 with a hint at the list; an odd id is refused before sending', async () => {
    const missing = await run(['segments', 'get', 'nosuchsegment'], { env: sandbox.env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('Hint: see the ids with `loopsctl segments list`');
    const odd = await run(['segments', 'get', 'a b'], { env: sandbox.env });
    expect(odd.code).toBe(2);
    expect(odd.stderr).toBe('Error: segment id must not contain whitespace, control characters or broken characters\n');
    expect(sandbox.requests).toHaveLength(1);
  });

  it('the content API being off is explained', async () => {
    const result = await run(['segments', 'get', seedId('segment/Dormant')], { env: { ...sandbox.env, LOOPS_API_KEY: 'sandbox-no-content' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('content API is not enabled for this team');
  });

  it('create sends the filter file as the description says, and the new segment lists', async () => {
    const dir = tempDir();
    const file = join(dir, 'filter.json');
    const filter = filterOf({ type: 'optIn', status: 'accepted' }, property('between', { from: '2025-01-01T00:00:00Z', to: '2025-03-01T00:00:00Z' }));
    writeFileSync(file, JSON.stringify(filter));
    const created = await run(['segments', 'create', '--name', 'Q1 sign-ups', '--description', 'Opted in', '--filter-file', file, '--json'], {
      env: sandbox.env,
    });
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ name: 'Q1 sign-ups', description: 'Opted in', filter });
    const body = sandbox.requests.at(-1)!.body;
    expect(body).toEqual({ name: 'Q1 sign-ups', description: 'Opted in', filter });
    expect(sandbox.problems()).toEqual([]);
    const again = await run(['segments', 'create', '--name', 'Q1 sign-ups', '--filter-file', file], { env: sandbox.env });
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('already exists');
    // A name taken: the hint is about the name, not the conditions.
    expect(again.stderr).toContain('Hint: segment names are unique in a team: choose another --name (`loopsctl segments list` shows the names taken)\n');
  });

  it('an activity condition naming a campaign, workflow or workflow email the team lacks is 404, as documented', async () => {
    const activity = (target: string, id: string) => filterOf({ type: 'activity', action: 'opened', negate: false, target, id });
    for (const [target, noun] of [
      ['campaign', 'campaign'],
      ['workflow', 'workflow'],
      ['workflowEmail', 'workflow email'],
    ]) {
      const input = JSON.stringify(activity(target!, 'cnosuchthing0000000000000'));
      const result = await run(['segments', 'create', '--name', `No ${target}`, '--filter-file', '-'], { env: sandbox.env, input });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`the filter references a ${noun} that does not exist: conditions[0].id cnosuchthing0000000000000`);
      expect(result.stderr).toContain('Hint: an activity condition names a campaign, workflow or workflow email that does not exist');
      expect(sandbox.requests.at(-1)).toMatchObject({ status: 404, answer: { message: expect.any(String) } });
    }
    // Ones that exist are taken: a workflow email by its send-email node or by its email message.
    for (const [target, id] of [
      ['campaign', seedId('campaign/October newsletter')],
      ['workflow', seedId('workflow/Welcome series')],
      ['workflowEmail', seedId('workflow/Welcome series/tips')],
      ['workflowEmail', seedId('email-message/welcome-2')],
    ]) {
      const input = JSON.stringify(activity(target!, id!));
      const result = await run(['segments', 'create', '--name', `Opened ${id}`, '--filter-file', '-'], { env: sandbox.env, input });
      expect(result.code).toBe(0);
    }
    expect(sandbox.problems()).toEqual([]);
  });

  it('a bad filter from stdin is refused with its place named, and nothing is sent', async () => {
    const input = JSON.stringify(filterOf(property('equals', 'a'), property('equals', 'b'), property('equalz', 'c')));
    const result = await run(['segments', 'create', '--name', 'X', '--filter-file', '-'], { env: sandbox.env, input });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: stdin: conditions[2].operator: "equalz" is not an operator of property conditions');
    const unreadable = await run(['segments', 'create', '--name', 'X', '--filter-file', join(tempDir(), 'none.json')], { env: sandbox.env });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('no such file');
    const notJson = await run(['segments', 'create', '--name', 'X', '--filter-file', '-'], { env: sandbox.env, input: '{match' });
    expect(notJson.stderr).toContain('the filter cannot be read as JSON');
    expect(sandbox.requests).toHaveLength(0);
  });
});
