/**
 * What loopsctl says of a file it could not parse, or would not read, never shows what the file
 * holds: at most its line and column. A repository can commit `loops.check.yaml ->
 * ../.aws/credentials`, and a parser's own message quotes the text around its fault. Each parse
 * path is fed a file (or an argument) holding a key-shaped secret, broken just after it, and the
 * secret must appear nowhere in what the run prints. The secrets are made up for this test.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/emulator/public.js';
import { contentTree } from '../../support/content-tree.js';
import { type Result, run, tempDir } from '../../support/main.js';
import { type McpRun, startMcp } from '../../support/mcp.js';

const KEY_ID = 'AKIA0000FAKE0000TEST';
const SECRET = 'fakeSecret0000NotARealKey0000';
/** A credentials file as a cloud CLI keeps one: what a committed link would reach. */
const CREDENTIALS = `[default]\naws_access_key_id = ${KEY_ID}\naws_secret_access_key = ${SECRET}\n`;
/** JSON broken just after the secret: JSON.parse's message would quote it. */
const BROKEN_JSON = `{"token": "${KEY_ID}", "secret": "${SECRET}" oops}`;
/** YAML broken just after the secret: the yaml package's message quotes the line. */
const BROKEN_YAML = `token: ${KEY_ID}\nsecret: "${SECRET}\\q"\n  - [\n`;

function expectNothingQuoted(result: Pick<Result, 'stdout' | 'stderr'>, what: string): void {
  const printed = result.stdout + result.stderr;
  expect(printed, what).not.toContain(KEY_ID);
  expect(printed, what).not.toContain(SECRET);
  expect(printed, what).not.toContain('fakeSecret');
}

/** A directory holding a secret file and a file of the given text (or a link to the secret) beside it. */
function place(name: string, text: string | 'link'): { dir: string; file: string } {
  const dir = tempDir();
  const secret = join(dir, 'credentials');
  writeFileSync(secret, CREDENTIALS);
  const file = join(dir, name);
  if (text === 'link') symlinkSync(secret, file);
  else writeFileSync(file, text);
  return { dir, file };
}

describe('check: the rules file and the snapshot', () => {
  it('refuses a rules file that is a link, or a device, and quotes none of a broken one', async () => {
    const cases: [string, string[]][] = [
      ['a link to credentials', ['check', '--rules', place('loops.check.yaml', 'link').file]],
      ['credentials as the rules file', ['check', '--rules', place('loops.check.yaml', CREDENTIALS).file]],
      ['broken YAML', ['check', '--rules', place('loops.check.yaml', BROKEN_YAML).file]],
    ];
    for (const [what, argv] of cases) {
      const result = await run(argv);
      expect(result.code, what).toBe(2);
      expect(result.stderr, what).toMatch(/^Error: \S*loops\.check\.yaml(:| is a symbolic link)/);
      expectNothingQuoted(result, what);
    }
    const linked = await run(['check', '--rules', place('loops.check.yaml', 'link').file]);
    expect(linked.stderr).toMatch(/loops\.check\.yaml is a symbolic link: content is never read or written through a link\n/);
    const device = await run(['check', '--rules', '/dev/zero']);
    expect(device.code).toBe(2);
    expect(device.stderr).toContain('Error: /dev/zero is not a regular file\n');
    const broken = await run(['check', '--rules', place('loops.check.yaml', BROKEN_YAML).file]);
    expect(broken.stderr).toMatch(/loops\.check\.yaml: not valid YAML \(bad dq escape\) at line 2, column 39\n/);
  });

  it('refuses a snapshot that is a link, and quotes none of a broken one', async () => {
    for (const [what, text] of [
      ['a link to credentials', 'link'],
      ['broken JSON', BROKEN_JSON],
    ] as const) {
      const { file } = place('snapshot.json', text);
      const result = await run(['check', '--snapshot', file, '--max-bounce-rate', '2%', '--sandbox']);
      expect(result.code, what).toBe(2);
      expectNothingQuoted(result, what);
      expect(result.stderr, what).toMatch(text === 'link' ? /snapshot\.json is a symbolic link/ : /snapshot\.json: not valid JSON at line 1, column 77\n/);
    }
  });
});

describe('check as a tool of loopsctl mcp', () => {
  let mcp: McpRun | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
  });

  it('refuses a rules file under its root that is a link, and quotes none of a broken one', async () => {
    const { dir } = place('loops.check.yaml', 'link');
    mcp = await startMcp(['--sandbox', '--root', dir]);
    const linked = await mcp.client.callTool({ name: 'check', arguments: {} });
    expect(linked.isError).toBe(true);
    expect(JSON.stringify(linked)).toContain('is a symbolic link');
    expectNothingQuoted({ stdout: JSON.stringify(linked), stderr: mcp.stderr() }, 'a link');
    writeFileSync(join(dir, 'broken.yaml'), BROKEN_YAML);
    const broken = await mcp.client.callTool({ name: 'check', arguments: { rules: 'broken.yaml' } });
    expect(broken.isError).toBe(true);
    expect(JSON.stringify(broken)).toContain('not valid YAML');
    expectNothingQuoted({ stdout: JSON.stringify(broken), stderr: mcp.stderr() }, 'broken YAML');
  });
});

describe('the files of a content tree', () => {
  it('quotes none of a broken workflow file, its email fields, or a record file', async () => {
    const root = contentTree({
      'workflows/broken/workflow.yaml': `name: Broken\nnodes:\n  a: { type: ${KEY_ID}, next: [\n`,
      // Faults on the secret's own line: content check's lines under a problem would show it.
      'workflows/escape/workflow.yaml': `name: Escape\nroot: a\nsecret: "${SECRET}\\q"\n`,
      'workflows/twice/workflow.yaml': `name: Twice\nroot: a\nnodes:\n  a: { type: BlankTrigger }\n  a: { type: ${KEY_ID} }\n`,
      'workflows/welcome/workflow.yaml': [
        'name: Welcome',
        'root: send',
        'nodes:',
        '  send: { type: SendEmailAction, email: emails/welcome/email.json, next: [] }',
        '',
      ].join('\n'),
      'workflows/welcome/emails/welcome/email.json': BROKEN_JSON,
      'workflows/welcome/emails/welcome/email.lmx': '<Paragraph>Hi</Paragraph>\n',
      'transactional/reset/meta.json': BROKEN_JSON,
    });
    for (const argv of [
      ['content', 'check', root],
      ['content', 'check', join(root, 'workflows/broken')],
      ['content', 'check', join(root, 'workflows/escape')],
      ['content', 'check', join(root, 'workflows/twice')],
      ['workflow', 'show', '--file', join(root, 'workflows/broken')],
      ['workflow', 'test', '--file', join(root, 'workflows/broken'), '--contact', 'sam@example.com'],
      ['content', 'diff', root, '--sandbox'],
    ]) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).not.toBe(70);
      expect(result.code, argv.join(' ')).not.toBe(0);
      expectNothingQuoted(result, argv.join(' '));
    }
  });
});

describe('files and arguments of JSON', () => {
  it('quotes none of a --vars-file, an --input body, a --styles-file, a filter or a --contact', async () => {
    const json = (name: string) => place(name, BROKEN_JSON).file;
    for (const argv of [
      ['email-messages', 'preview', 'some-id', '--to', 'a@example.com', '--vars-file', json('vars.json'), '--sandbox'],
      ['api', '/v1/contacts/update', '-X', 'PUT', '--input', json('body.json'), '--sandbox'],
      ['themes', 'create', '--name', 'Broken', '--styles-file', json('styles.json'), '--sandbox'],
      ['segments', 'create', '--name', 'Broken', '--filter-file', json('filter.json'), '--sandbox'],
      ['workflow', 'test', 'some-id', '--contact', BROKEN_JSON, '--sandbox'],
      ['workflow', 'test', 'some-id', '--contact', 'sam@example.com', '--expect-emails', `[${BROKEN_JSON}]`, '--sandbox'],
    ]) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(/not valid JSON/);
      expectNothingQuoted(result, argv.join(' '));
    }
  });

  it('refuses a file a person names that is a link (--lmx-file, --vars-file, --filter-file…), and sends none of what it reaches', async () => {
    const linked = (name: string) => place(name, 'link').file;
    for (const argv of [
      ['components', 'create', '--name', 'Footer', '--lmx-file', linked('footer.lmx'), '--sandbox'],
      ['email-messages', 'update', 'some-id', '--lmx-file', linked('email.lmx'), '--force', '--sandbox'],
      ['transactional', 'send', 'some-id', '--to', 'a@example.com', '--vars-file', linked('vars.json'), '--sandbox'],
      ['email-messages', 'preview', 'some-id', '--to', 'a@example.com', '--vars-file', linked('vars.json'), '--sandbox'],
      ['segments', 'create', '--name', 'Linked', '--filter-file', linked('filter.json'), '--sandbox'],
      ['transactional', 'send', 'some-id', '--to', 'a@example.com', '--attach', linked('invoice.pdf'), '--sandbox'],
    ]) {
      const result = await run(argv);
      const what = argv.join(' ');
      expect(result.code, what).toBe(2);
      expect(result.stderr, what).toMatch(/file "\S+" is a symbolic link: content is never read through a link\n/);
      expectNothingQuoted(result, what);
    }
    // The bulk imports stream their file: the same rule.
    for (const argv of [
      ['contacts', 'import', linked('contacts.csv'), '--sandbox'],
      ['events', 'import', linked('events.jsonl'), '--sandbox'],
    ]) {
      const result = await run(argv);
      const what = argv.join(' ');
      expect(result.code, what).toBe(2);
      expect(result.stderr, what).toMatch(/"\S+" is a symbolic link: content is never read through a link\n/);
      expectNothingQuoted(result, what);
    }
  });

  it('quotes no CSV header that is not a plain name: contacts import names such a column by its position', async () => {
    const csv = (header: string) => place('contacts.csv', `${header}\na@example.com,1\n`).file;
    const secretHeader = `email,${KEY_ID}`;
    for (const [argv, said] of [
      [['contacts', 'import', csv(secretHeader), '--sandbox'], /column 2 \(its header is not a plain name, so it is not shown\) is not a contact property/],
      [
        ['contacts', 'import', csv(secretHeader), '--create-properties', '--sandbox'],
        /column 2 \(its header is not a plain name, so it is not shown\) cannot be a property name/,
      ],
      [['contacts', 'import', csv(secretHeader), '--map', 'Mail=email', '--sandbox'], /its columns: email, column 2\n/],
      [['contacts', 'import', csv('email,plan'), '--exclude', csv(`${SECRET},plan`), '--sandbox'], /no email column in the header \(column 1, plan\)/],
    ] as const) {
      const result = await run([...argv]);
      const what = argv.join(' ');
      expect(result.code, what).toBe(2);
      expect(result.stderr, what).toMatch(said);
      expectNothingQuoted(result, what);
    }
    // A plain header is still quoted: it is what the person has to fix.
    const plain = await run(['contacts', 'import', csv('email,Signup Plan'), '--sandbox']);
    expect(plain.stderr).toMatch(/the column "Signup Plan" \(read as signupPlan\) is not a contact property/);
  });

  it('quotes none of a config file that does not parse', async () => {
    const config = tempDir();
    writeFileSync(join(config, 'config.json'), BROKEN_JSON);
    const result = await run(['auth', 'status'], { env: { LOOPSCTL_CONFIG_DIR: config } });
    expect(result.code).not.toBe(70);
    expectNothingQuoted(result, 'config.json');
  });
});

describe('types --check', () => {
  it('refuses a file it compares that is a link: the drift it prints quotes the lines of the file', async () => {
    for (const format of ['env', 'json', 'ts']) {
      const { file } = place(`loops.${format}`, 'link');
      const result = await run(['types', '--check', '--format', format, '--out', file, '--sandbox']);
      expect(result.code, format).toBe(2);
      expect(result.stderr, format).toMatch(/loops\.\w+ is a symbolic link: content is never read or written through a link\n/);
      expectNothingQuoted(result, format);
    }
  });
});

describe('sandbox fixtures', () => {
  it('quote none of a fixture file in JSON or YAML that does not parse', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'f'));
    for (const [name, text] of [
      ['fixtures.json', BROKEN_JSON],
      ['fixtures.yaml', BROKEN_YAML],
    ]) {
      const file = join(dir, 'f', name);
      writeFileSync(file, text);
      const error = await startSandbox({ fixtures: file }).then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      expect(error?.message, name).toMatch(/not valid (JSON|YAML)/);
      expectNothingQuoted({ stdout: error?.message ?? '', stderr: '' }, name);
      const served = await run(['sandbox', 'serve', '--port', '0', '--fixtures', file], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
      expect(served.code, name).toBe(2);
      expect(served.stderr, name).toMatch(/not valid (JSON|YAML)/);
      expectNothingQuoted(served, name);
    }
  });

  it('are never read through a link: an app keeps them in its repository', async () => {
    const { dir, file } = place('fixtures.json', 'link');
    // What the link reaches would be fixtures: a contact whose name is the secret.
    writeFileSync(join(dir, 'credentials'), JSON.stringify({ contacts: [{ email: 'a@example.com', firstName: KEY_ID }] }));
    const error = await startSandbox({ fixtures: file }).then(
      async (sandbox) => {
        await sandbox.close();
        return undefined;
      },
      (thrown: unknown) => thrown as Error,
    );
    expect(error?.message).toMatch(/fixtures\.json is a symbolic link: content is never read or written through a link/);
    const served = await run(['sandbox', 'serve', '--port', '0', '--fixtures', file], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
    expect(served.code).toBe(2);
    expect(served.stderr).toMatch(/fixtures\.json is a symbolic link/);
    expectNothingQuoted(served, 'a link');
  });
});
