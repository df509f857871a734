import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run, typedInput } from '../../../support/main.js';
import { requestProblems } from '../../../support/openapi.js';
import { expectDescribed, openApi, sandboxEachTest } from '../../../support/recording.js';

const PRODUCT_UPDATES = 'co0gnzwtbvun8n3amky3gzsp4';
const sandbox = sandboxEachTest();

describe('contacts against the sandbox', () => {
  it('checks bodies against the description, which refuses a create without an email', () => {
    expect(requestProblems(openApi, 'POST', '/v1/contacts/create', { firstName: 'A' })).not.toEqual([]);
  });

  it('finds a seeded contact with its custom properties and lists; an unknown one is exit 4, [] under --json and nothing under --jq', async () => {
    const { loopsctl, requests } = await sandbox();
    const found = await loopsctl(['contacts', 'find', '--email', 'ada@example.com', '--json']);
    expect(found.code).toBe(0);
    expect(found.json()).toEqual([
      expect.objectContaining({ email: 'ada@example.com', userId: 'usr_ada', plan: 'pro', seats: 12, mailingLists: { [PRODUCT_UPDATES]: true } }),
    ]);
    const byUserId = await loopsctl(['contacts', 'find', '--user-id', 'usr_ada']);
    expect(byUserId.stdout).toContain('ada@example.com');
    // The text names the lists, read once; --json keeps the API's ids.
    expect(byUserId.stdout.split('\n')).toContain('mailingLists\tProduct updates');
    expect(byUserId.stdout).not.toContain(PRODUCT_UPDATES);
    expect(requests.filter((request) => request.path === '/v1/lists')).toHaveLength(1);
    const none = await loopsctl(['contacts', 'find', '--email', 'nobody@example.com', '--json']);
    expect(none.code).toBe(4);
    expect(none.json()).toEqual([]);
    expect(JSON.parse(none.stderr).error.message).toBe('no contact with nobody@example.com');
    const filtered = await loopsctl(['contacts', 'find', '--email', 'nobody@example.com', '--jq', '.[0].email']);
    expect(filtered).toMatchObject({ code: 4, stdout: '', stderr: expect.stringContaining('no contact with nobody@example.com') });
    const both = await loopsctl(['contacts', 'find', '--email', 'a@example.com', '--user-id', 'x']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Error: --email and --user-id cannot be used together');
  });

  it('creates a contact with typed fields, lists and custom properties, in the documented body; a duplicate is exit 5 with a hint', async () => {
    const { loopsctl, requests } = await sandbox();
    const created = await loopsctl([
      'contacts',
      'create',
      '--email',
      'alan@example.com',
      '--first-name',
      'Alan',
      '--user-group',
      'beta',
      '--unsubscribed',
      '--list',
      `${PRODUCT_UPDATES}=true`,
      '--prop',
      'plan=pro',
      '--prop',
      'seats:=3',
      '--prop',
      'betaOptIn:=true',
      '--json',
    ]);
    expect(created.code).toBe(0);
    expect(created.json()).toEqual({ success: true, id: expect.any(String) });
    const create = requests.find((request) => request.path === '/v1/contacts/create')!;
    expect(create.body).toEqual({
      email: 'alan@example.com',
      firstName: 'Alan',
      userGroup: 'beta',
      subscribed: false,
      mailingLists: { [PRODUCT_UPDATES]: true },
      plan: 'pro',
      seats: 3,
      betaOptIn: true,
    });
    const found = await loopsctl(['contacts', 'find', '--email', 'alan@example.com', '--json']);
    expect(found.json()[0]).toMatchObject({ firstName: 'Alan', subscribed: false, seats: 3, betaOptIn: true });

    const again = await loopsctl(['contacts', 'create', '--email', 'alan@example.com']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain(
      'Error: Email or userId already exists.\nHint: the contact exists; change it with `loopsctl contacts update --email alan@example.com',
    );
    expectDescribed(requests);
  });

  it('refuses a value of the wrong type, an unknown property or bad := JSON before sending anything', async () => {
    const { loopsctl, requests } = await sandbox();
    const wrongType = await loopsctl(['contacts', 'create', '--email', 'x@example.com', '--prop', 'seats=three']);
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toContain('seats is a number property');
    const unknown = await loopsctl(['contacts', 'create', '--email', 'x@example.com', '--prop', 'favouriteColour=blue']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('contact-properties create --name favouriteColour');
    expect(unknown.stderr).not.toContain('did you mean');
    const badJson = await loopsctl(['contacts', 'create', '--email', 'x@example.com', '--prop', 'seats:=3x']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('--prop seats:=3x: the value after := is not valid JSON');
    // Only the property list was asked for (once per run), and nothing was created.
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/contacts/properties', 'GET /v1/contacts/properties']);
  });

  it('offers the property a mistyped name was meant for, in create and update, and sends nothing', async () => {
    const { loopsctl, requests } = await sandbox();
    for (const verb of ['create', 'update']) {
      const typo = await loopsctl(['contacts', verb, '--email', 'ada@example.com', '--prop', 'seets=4']);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('Error: --prop: the account has no contact property "seets"');
      expect(typo.stderr).toContain('Hint: did you mean seats? Or create it with `loopsctl contact-properties create --name seets --type string`');
    }
    const fromFile = await loopsctl(['contacts', 'update', '--email', 'ada@example.com', '--props-file', '-'], { input: '{"regoin": "EU"}' });
    expect(fromFile.stderr).toContain('Hint: did you mean region?');
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('takes custom properties from --props-file, with --prop winning', async () => {
    const { loopsctl, requests } = await sandbox();
    const result = await loopsctl(['contacts', 'update', '--email', 'ada@example.com', '--props-file', '-', '--prop', 'seats:=20'], {
      input: '{"plan": "business", "seats": 1}',
    });
    expect(result.code).toBe(0);
    expect(requests.at(-1)!.body).toEqual({ email: 'ada@example.com', plan: 'business', seats: 20 });
  });

  it("reads --prop name=value as the property's type: a number, a boolean, text for a string property", async () => {
    const { loopsctl, requests } = await sandbox();
    const result = await loopsctl([
      'contacts',
      'update',
      '--email',
      'ada@example.com',
      ...['--prop', 'projectsCreated=0', '--prop', 'betaOptIn=true', '--prop', 'plan=3', '--prop', 'seats:=4'],
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests.at(-1)!.body).toEqual({ email: 'ada@example.com', projectsCreated: 0, betaOptIn: true, plan: '3', seats: 4 });
    // JSON says its own types: a quoted number in a file is still refused.
    const file = await loopsctl(['contacts', 'update', '--email', 'ada@example.com', '--props-file', '-'], { input: '{"seats": "3"}' });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('seats');
  });

  it('names --props-file, and how to write the type in JSON, for a wrong value from the file', async () => {
    const { loopsctl, requests } = await sandbox();
    const file = await loopsctl(['contacts', 'update', '--email', 'ada@example.com', '--props-file', '-'], { input: '{"plan": "pro", "seats": "3"}' });
    expect(file).toMatchObject({ code: 2, stdout: '' });
    expect(file.stderr).toBe(
      'Error: --props-file: seats is a number property, and "3" is not a number\nHint: write a JSON number, without quotes (for example "seats": 3)\n',
    );
    const standard = await loopsctl(['contacts', 'update', '--email', 'ada@example.com', '--props-file', '-'], { input: '{"firstName": "Ada"}' });
    expect(standard.stderr).toContain('Error: --props-file firstName: firstName is a standard field, not a custom property');
    // The value --prop gives over the file's is named as the flag's.
    const flag = await loopsctl(['contacts', 'update', '--email', 'ada@example.com', '--props-file', '-', '--prop', 'seats=x'], { input: '{"seats": 3}' });
    expect(flag.stderr).toContain('Error: --prop: seats is a number property, and "x" is not a number\nHint: write a number (for example seats=3)\n');
    expect(requests.filter((request) => request.path === '/v1/contacts/update')).toEqual([]);
  });

  it('says a userId no contact has needs --email to create the contact', async () => {
    const { loopsctl } = await sandbox();
    const result = await loopsctl(['contacts', 'update', '--user-id', 'usr_new', '--first-name', 'New']);
    expect(result).toMatchObject({ code: 5, stdout: '' });
    expect(result.stderr).toContain('Hint: to create the contact, give --email too (`loopsctl contacts update --user-id usr_new --email <email> ...`)');
    const unknownList = await loopsctl(['contacts', 'update', '--email', 'ada@example.com', '--list', 'cnolist=true']);
    // A list the account does not have is refused before the update is sent.
    expect(unknownList).toMatchObject({ code: 2, stdout: '' });
    expect(unknownList.stderr).toContain('Error: --list cnolist=true: the account has no mailing list "cnolist"\nHint: its lists:');
  });

  it('updates as an upsert, saying the API does not tell which happened', async () => {
    const { loopsctl, requests } = await sandbox();
    const updated = await loopsctl(['contacts', 'update', '--user-id', 'usr_ada', '--email', 'ada@example.org', '--last-name', 'King']);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain('updated, or created if none matched');
    expect((await loopsctl(['contacts', 'find', '--email', 'ada@example.org', '--json'])).json()[0]).toMatchObject({ userId: 'usr_ada', lastName: 'King' });
    const created = await loopsctl(['contacts', 'update', '--email', 'new@example.com', '--json']);
    expect(created.json()).toEqual({ success: true, id: expect.any(String) });
    expect((await loopsctl(['contacts', 'find', '--email', 'new@example.com'])).code).toBe(0);
    const nobody = await loopsctl(['contacts', 'update', '--first-name', 'X']);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('Error: nothing to update: give at least one of --email or --user-id');
    expectDescribed(requests);
  });

  it('deletes only when confirmed: --yes, or yes on a terminal; otherwise exit 2 and nothing sent', async () => {
    const { loopsctl, requests } = await sandbox();
    const refused = await loopsctl(['contacts', 'delete', '--email', 'margaret@example.com']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Error: Delete the contact margaret@example.com: not confirmed\nHint: pass --yes to confirm when not on a terminal');
    expect(requests).toEqual([]);
    const input = typedInput();
    const asked = loopsctl(['contacts', 'delete', '--email', 'margaret@example.com'], { input, tty: { columns: 80 } });
    setImmediate(() => input.write('y\r'));
    const answered = await asked;
    expect(answered.code).toBe(0);
    expect(answered.stdout).toBe('Contact deleted.\n');
    expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/v1/contacts/delete', { email: 'margaret@example.com' }],
    ]);
    const gone = await loopsctl(['contacts', 'delete', '--email', 'margaret@example.com', '--yes']);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toBe(
      'Error: Contact not found.\nHint: check the address, or look the contact up by its userId with `loopsctl contacts find --user-id <id>`\n',
    );
    expectDescribed(requests);
  });

  it('shows and removes a suppression, with the quota; removal asks first', async () => {
    const { loopsctl, requests } = await sandbox();
    const status = await loopsctl(['contacts', 'suppression', 'get', '--email', 'linus@example.com', '--json']);
    expect(status.json()).toMatchObject({ isSuppressed: true, removalQuota: { limit: 5, remaining: 4 } });
    const unconfirmed = await loopsctl(['contacts', 'suppression', 'remove', '--email', 'linus@example.com']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('Error: Remove linus@example.com from the suppression list (this uses one of the 30-day removals): not confirmed');
    const removed = await loopsctl(['contacts', 'suppression', 'remove', '--email', 'linus@example.com', '--yes', '--json']);
    expect(removed.json()).toEqual({ success: true, message: 'Email removed from suppression list.', removalQuota: { limit: 5, remaining: 3 } });
    const notSuppressed = await loopsctl(['contacts', 'suppression', 'remove', '--email', 'linus@example.com', '--yes']);
    expect(notSuppressed.code).toBe(5);
    expect(notSuppressed.stderr).toBe(
      'Error: Contact is not suppressed.\nHint: there is nothing to remove, and no removal was used; see its status with `loopsctl contacts suppression get --email linus@example.com`\n',
    );
    const text = await loopsctl(['contacts', 'suppression', 'get', '--user-id', 'usr_ada']);
    expect(text.stdout).toContain('ada@example.com');
    expect(text.stdout).toContain('not suppressed');
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.query.get('email'))).toEqual([
      'linus@example.com',
      'linus@example.com',
    ]);
    for (const verb of [['get'], ['remove', '--yes']]) {
      const unknown = await loopsctl(['contacts', 'suppression', ...verb, '--user-id', 'usr_nobody']);
      expect(unknown.code, verb[0]).toBe(4);
      expect(unknown.stderr, verb[0]).toContain('Hint: check the userId, or look the contact up by its email with `loopsctl contacts find --email <email>`');
    }
  });
});

describe('contacts against every documented error status', () => {
  let api: ApiServer;
  afterEach(() => api.close());
  const env = () => ({ LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'test-key-not-real' });
  const failure = (status: number, message: string) => () => (_req: unknown, res: Parameters<typeof json>[0]) => json(res, status, { success: false, message });

  it.each([
    ['GET /v1/contacts/find', 400, ['contacts', 'find', '--email', 'bad@example.com'], 5],
    ['GET /v1/contacts/find', 405, ['contacts', 'find', '--email', 'a@example.com'], 5],
    ['POST /v1/contacts/create', 400, ['contacts', 'create', '--email', 'bad@example.com'], 5],
    ['POST /v1/contacts/create', 405, ['contacts', 'create', '--email', 'a@example.com'], 5],
    ['POST /v1/contacts/create', 409, ['contacts', 'create', '--email', 'a@example.com'], 5],
    ['PUT /v1/contacts/update', 400, ['contacts', 'update', '--email', 'a@example.com'], 5],
    ['PUT /v1/contacts/update', 405, ['contacts', 'update', '--email', 'a@example.com'], 5],
    ['POST /v1/contacts/delete', 400, ['contacts', 'delete', '--email', 'a@example.com', '--yes'], 5],
    ['POST /v1/contacts/delete', 404, ['contacts', 'delete', '--email', 'a@example.com', '--yes'], 4],
    ['POST /v1/contacts/delete', 405, ['contacts', 'delete', '--email', 'a@example.com', '--yes'], 5],
    ['GET /v1/contacts/suppression', 400, ['contacts', 'suppression', 'get', '--email', 'a@example.com'], 5],
    ['GET /v1/contacts/suppression', 404, ['contacts', 'suppression', 'get', '--email', 'a@example.com'], 4],
    ['DELETE /v1/contacts/suppression', 400, ['contacts', 'suppression', 'remove', '--email', 'a@example.com', '--yes'], 5],
    ['DELETE /v1/contacts/suppression', 404, ['contacts', 'suppression', 'remove', '--email', 'a@example.com', '--yes'], 4],
    ['DELETE /v1/contacts/suppression', 405, ['contacts', 'suppression', 'remove', '--email', 'a@example.com', '--yes'], 5],
  ] as const)('%s answering %i exits %#', async (route, status, args, exit) => {
    api = await startApiServer({ [route]: failure(status, `the API says ${status}`)() });
    const result = await run([...args], { env: env() });
    expect(result.code).toBe(exit);
    expect(result.stderr).toContain(`the API says ${status}`);
    expect(api.requests).toHaveLength(1);
  });

  it('retries an update after a 5xx (the same fields twice are harmless), but never a create', async () => {
    let calls = 0;
    api = await startApiServer({
      'PUT /v1/contacts/update': (_req, res) => (++calls === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { success: true, id: 'c1' })),
      'POST /v1/contacts/create': (_req, res) => json(res, 503, { message: 'busy' }),
    });
    expect((await run(['contacts', 'update', '--email', 'a@example.com'], { env: env() })).code).toBe(0);
    const create = await run(['contacts', 'create', '--email', 'a@example.com'], { env: env() });
    expect(create.code).toBe(8);
    expect(create.stderr).toContain('Error: busy\nHint: loopsctl did not send it again because the API may already have acted on it');
    expect(api.requests.filter((request) => request.path === '/v1/contacts/create')).toHaveLength(1);
  });
});
