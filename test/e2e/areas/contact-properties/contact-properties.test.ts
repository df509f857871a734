import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run } from '../../../support/main.js';
import { expectDescribed, sandboxEachTest } from '../../../support/recording.js';

describe('contact-properties', () => {
  const openSandbox = sandboxEachTest();

  it('lists all or only custom properties, as text, --json and --jsonl', async () => {
    const recording = await openSandbox();
    const all = await recording.loopsctl(['contact-properties', 'list', '--json']);
    expect(all.json()).toEqual(
      expect.arrayContaining([
        { key: 'firstName', label: 'First Name', type: 'string' },
        { key: 'seats', label: 'Seats', type: 'number' },
      ]),
    );
    const custom = await recording.loopsctl(['contact-properties', 'list', '--custom', '--jsonl']);
    const lines = custom.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((property) => property.type).sort()).toEqual(['boolean', 'date', 'date', 'date', 'number', 'number', 'string', 'string']);
    expect(recording.requests.map((request) => request.query.get('list'))).toEqual([null, 'custom']);
    const text = await recording.loopsctl(['contact-properties', 'list']);
    expect(text.stdout.split('\n')[0]).toBe('KEY\tLABEL\tTYPE');
    const both = await recording.loopsctl(['contact-properties', 'list', '--json', '--jsonl']);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr).error.message).toBe('--json and --jsonl cannot be used together');
  });

  it('creates a property once; a second create of the name is refused (exit 5)', async () => {
    const recording = await openSandbox();
    const created = await recording.loopsctl(['contact-properties', 'create', '--name', 'companySize', '--type', 'number', '--json']);
    expect(created.json()).toEqual({ success: true });
    const again = await recording.loopsctl(['contact-properties', 'create', '--name', 'companySize', '--type', 'number']);
    expect(again.code).toBe(5);
    expect(again.stderr).toBe(
      'Error: Property already exists.\nHint: the account has a property companySize already; see its type with `loopsctl contact-properties list --custom`\n',
    );
    const badName = await recording.loopsctl(['contact-properties', 'create', '--name', 'Bad Name', '--type', 'string']);
    expect(badName).toMatchObject({ code: 2, stderr: 'Error: --name "Bad Name": use a camelCase name, such as planName\n' });
    const badType = await recording.loopsctl(['contact-properties', 'create', '--name', 'x', '--type', 'text']);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain("option '--type <type>' argument 'text' is invalid. Allowed choices are string, number, boolean, date.");
    const custom = (await recording.loopsctl(['contact-properties', 'list', '--custom', '--json'])).json();
    expect(custom).toContainEqual({ key: 'companySize', label: 'Company Size', type: 'number' });
    expectDescribed(recording.requests);
  });
});

describe('contact-properties against documented error statuses', () => {
  let api: ApiServer;
  afterEach(() => api.close());
  it.each([
    ['POST /v1/contacts/properties', 400, ['contact-properties', 'create', '--name', 'a', '--type', 'string']],
    ['POST /v1/contacts/properties', 405, ['contact-properties', 'create', '--name', 'a', '--type', 'string']],
    ['GET /v1/contacts/properties', 405, ['contact-properties', 'list']],
  ] as const)('%s answering %i exits 5', async (route, status, args) => {
    api = await startApiServer({ [route]: (_req, res) => json(res, status, { success: false, message: `status ${status}` }) });
    const result = await run([...args], { env: { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'test-key-not-real' } });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`status ${status}`);
  });
});
