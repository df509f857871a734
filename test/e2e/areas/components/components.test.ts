import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { MAX_LMX_LENGTH } from '../../../../src/emulator/routes/components.js';
import { json, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

const FOOTER = seedId('component/Footer');
/** The draft campaigns' emails: no email of the seed embeds a component, and a test that needs one in use embeds it in these. */
const DRAFT_CAMPAIGN_EMAILS = [seedId('email-message/november-newsletter'), seedId('email-message/spring-sale')];

/** Embeds the component at the end of each email message named, as a person editing the email would. */
async function embed(componentId: string, messages: readonly string[], env: Record<string, string>, sandboxFlag: string[] = []): Promise<void> {
  for (const message of messages) {
    const read = (await run([...sandboxFlag, 'email-messages', 'get', message, '--json'], { env })).json();
    const embedded = await run([...sandboxFlag, 'email-messages', 'update', message, '--expected-revision-id', read.contentRevisionId, '--lmx-file', '-'], {
      env,
      input: `${read.lmx}\n<Component componentId="${componentId}" />`,
    });
    expect(embedded.code, embedded.stderr).toBe(0);
  }
}

describe('components', () => {
  let sandbox: RecordingSandbox;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
  });
  afterEach(() => sandbox.close());

  it('list and get show sizes; --lmx prints the body exactly as stored when piped', async () => {
    const list = await run(['components', 'list'], { env: sandbox.env });
    expect(list.stdout).toContain(`${FOOTER}\tFooter\t3 lines, 208 characters`);
    const json = await run(['components', 'get', FOOTER, '--json'], { env: sandbox.env });
    const lmx = await run(['components', 'get', FOOTER, '--lmx'], { env: sandbox.env });
    expect(lmx.stdout).toBe(json.json().lmx);
    const text = await run(['components', 'get', FOOTER], { env: sandbox.env, tty: { columns: 80 } });
    expect(text.stdout).toContain(`print the LMX with \`loopsctl components get ${FOOTER} --lmx\``);
    expect(Math.max(...text.stdout.split('\n').map((line) => line.replace(/\x1b\[[0-9;]*m/g, '').length))).toBeLessThanOrEqual(80);
    const both = await run(['components', 'get', FOOTER, '--lmx', '--json'], { env: sandbox.env });
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr).error.message).toBe('--lmx and --json cannot be used together');
  });

  it('create and update send the LMX file as the description says', async () => {
    const lmx = '<Paragraph>Thanks for reading, {contact.firstName}</Paragraph>\n';
    const created = await run(['components', 'create', '--name', 'Sign-off', '--lmx-file', '-', '--json'], { env: sandbox.env, input: lmx });
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ name: 'Sign-off', lmx });
    const id = created.json().id;
    const updated = await run(['components', 'update', id, '--name', 'Sign-off 2', '--json'], { env: sandbox.env });
    expect(updated.json()).toMatchObject({ name: 'Sign-off 2', lmx, affectedEmailCount: 0 });
    expect(sandbox.requests.at(-1)!.body).toEqual({ name: 'Sign-off 2' });
    expect(sandbox.problems()).toEqual([]);
  });

  it('a body change says how many emails it reached: those whose LMX embeds the component', async () => {
    const update = (body: string) =>
      run(['components', 'update', FOOTER, '--lmx-file', '-'], { env: { ...sandbox.env, NO_COLOR: '1' }, input: body, tty: { columns: 100 } });
    // No email of the seed embeds the footer.
    const unused = await update('<Paragraph>Hello, {contact.firstName}</Paragraph>');
    expect(unused.code).toBe(0);
    expect(unused.stdout).toContain('No email was changed.');
    // The two draft campaigns' emails embed it.
    await embed(FOOTER, DRAFT_CAMPAIGN_EMAILS, sandbox.env);
    const result = await update('<Paragraph>Bye, {contact.firstName}</Paragraph>');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('2 emails use the new body.');
    // A script gets the record, the count a field of it.
    const piped = await run(['components', 'update', FOOTER, '--lmx-file', '-'], {
      env: sandbox.env,
      input: '<Paragraph>See you, {contact.firstName}</Paragraph>',
    });
    expect(piped.stdout).toMatch(/^FIELD\tVALUE\n/);
    expect(piped.stdout).toContain('\naffectedEmailCount\t2\n');
    // Each request, and each answer with its count, as the published description has them.
    expect(sandbox.problems()).toEqual([]);
  });

  it('413: an oversized body is refused and explained', async () => {
    const input = `<Paragraph>${'x'.repeat(MAX_LMX_LENGTH)}</Paragraph>`;
    const result = await run(['components', 'create', '--name', 'Big', '--lmx-file', '-'], { env: sandbox.env, input });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('exceeds the size limit');
    expect(result.stderr).toContain('split it into smaller components');
  });

  it('422: a component that embeds a component, itself or another', async () => {
    const created = await run(['components', 'create', '--name', 'Loop', '--lmx-file', '-', '--json'], { env: sandbox.env, input: '<Paragraph>x</Paragraph>' });
    const id = created.json().id;
    for (const embedded of [id, FOOTER]) {
      const result = await run(['components', 'update', id, '--lmx-file', '-'], {
        env: sandbox.env,
        input: `<Paragraph>self</Paragraph>\n<Component componentId="${embedded}" />`,
      });
      expect(result.code).toBe(5);
      expect(result.stderr).toContain('Invalid LMX: line 2, column 1: <Component> in a component: components do not nest (placement;');
    }
    expect((await run(['components', 'get', id, '--lmx'], { env: sandbox.env })).stdout).toBe('<Paragraph>x</Paragraph>');
  });

  it('422: invalid LMX, and variables emails cannot use, are named', async () => {
    const invalid = await run(['components', 'create', '--name', 'Broken', '--lmx-file', '-'], { env: sandbox.env, input: '<Paragraph>open' });
    expect(invalid.code).toBe(5);
    expect(invalid.stderr).toContain(
      'Invalid LMX: line 1, column 1: <Paragraph> is never closed (unclosed-tag; add </Paragraph> before the end of the document)',
    );
    await embed(FOOTER, DRAFT_CAMPAIGN_EMAILS, sandbox.env);
    const tags = await run(['components', 'update', FOOTER, '--lmx-file', '-'], {
      env: sandbox.env,
      input: '<Paragraph>{contact.companyName} {contact.plan}</Paragraph>',
    });
    expect(tags.code).toBe(5);
    expect(tags.stderr).toContain('emails using this component cannot use {companyName}, {plan}');
    const unchanged = await run(['components', 'get', FOOTER, '--lmx'], { env: sandbox.env });
    expect(unchanged.stdout).toContain('{contact.firstName}');
  });

  it('answers a component as the API does, where a state kept by an earlier sandbox holds a count beside it', async () => {
    sandbox.server.update((state) => {
      for (const stored of state.components as Record<string, unknown>[]) stored.emailCount = 3;
    });
    const listed = await run(['components', 'list', '--json'], { env: sandbox.env });
    expect(listed.json().map((component: object) => Object.keys(component).sort())).toEqual([
      ['id', 'lmx', 'name'],
      ['id', 'lmx', 'name'],
    ]);
    const updated = await run(['components', 'update', FOOTER, '--lmx-file', '-', '--json'], { env: sandbox.env, input: '<Paragraph>Bye</Paragraph>' });
    expect(Object.keys(updated.json()).sort()).toEqual(['affectedEmailCount', 'id', 'lmx', 'name']);
    expect(updated.json().affectedEmailCount).toBe(0);
  });

  it('empty LMX and nothing to update are refused before sending', async () => {
    const empty = await run(['components', 'create', '--name', 'X', '--lmx-file', '-'], { env: sandbox.env, input: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('stdin: the LMX is empty');
    const nothing = await run(['components', 'update', FOOTER], { env: sandbox.env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Error: nothing to update: give at least one of --name or --lmx-file');
    expect(sandbox.requests).toHaveLength(0);
  });
});

it('a 422 with invalidTags from the API names them; --json passes the error code through', async () => {
  // An account with no live email: the gate reads which live emails use the component, and finds none.
  const none = (_req: unknown, res: Parameters<typeof json>[0]) => json(res, 200, { pagination: { nextCursor: null }, data: [] });
  const server = await startApiServer({
    'GET /v1/transactional-emails': none,
    'GET /v1/campaigns': none,
    'GET /v1/workflows': none,
    'POST /v1/components/:id': (_req, res) => json(res, 422, { message: 'Component uses unsupported contact properties.', invalidTags: ['companyName'] }),
  });
  try {
    const env = { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url };
    const result = await run(['components', 'update', 'p1', '--lmx-file', '-'], { env, input: '<Paragraph>{companyName}</Paragraph>' });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('Hint: emails using this component cannot use {companyName}');
    expect(JSON.parse(server.requests.find((request) => request.method === 'POST')!.body)).toEqual({ lmx: '<Paragraph>{companyName}</Paragraph>' });
  } finally {
    await server.close();
  }
});

it('the sandbox lets a component in use take every default contact property, {contact.notes} among them', async () => {
  const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
  const listed = (await run(['--sandbox', 'components', 'list', '--json'], { env })).json() as { id: string; name: string }[];
  const header = listed.find((component) => component.name === 'Header')!.id;
  await embed(header, DRAFT_CAMPAIGN_EMAILS.slice(0, 1), env, ['--sandbox']);
  const update = (lmx: string) => run(['--sandbox', 'components', 'update', header, '--lmx-file', '-'], { env, input: lmx });
  const defaults = await update('<Paragraph>{contact.notes} {contact.createdAt} {contact.userGroup}</Paragraph>');
  expect(defaults.code, defaults.stderr).toBe(0);
  const custom = await update('<Paragraph>{contact.companyName}</Paragraph>');
  expect(custom.code).toBe(5);
  expect(custom.stderr).toContain('{companyName}');
});
