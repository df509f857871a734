/** What loopsctl takes in: email addresses checked one way everywhere, and binary input never echoed as text. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../support/main.js';

const dir = mkdtempSync(join(tmpdir(), 'loopsctl-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A fresh config dir per run, removed with the rest.
let runs = 0;
const sandboxed = (argv: string[], input?: string) => run(['--sandbox', ...argv], { env: { LOOPSCTL_CONFIG_DIR: join(dir, `config-${++runs}`) }, input });

const PASSWORD_RESET = 'c1h3243uwicgpgajrgexlzdl5';
const DRAFT_MESSAGE = 'csfe4lcc5y1ptxuffld4qk8zj';

describe('email addresses', () => {
  it.each([
    [['contacts', 'find', '--email', 'ada.example.com'], '--email'],
    [['contacts', 'create', '--email', 'ada@example'], '--email'],
    [['contacts', 'suppression', 'get', '--email', 'ada @example.com'], '--email'],
    [['events', 'send', 'signup', '--email', 'ada'], '--email'],
    [['transactional', 'send', PASSWORD_RESET, '--to', 'ada@'], '--to'],
    [['email-messages', 'preview', DRAFT_MESSAGE, '--to', '@example.com'], '--to'],
    [['email-messages', 'update', DRAFT_MESSAGE, '--cc', 'cc', '--force'], '--cc'],
  ])('are checked the same way before anything is sent: %j', async (argv, flag) => {
    const { code, stderr } = await sandboxed(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^Error: ${flag} must be an email address \\(name@example\\.com\\), not `));
  });

  it('lets "" clear a reply-to address, and nothing else that is no address', async () => {
    const cleared = await sandboxed(['email-messages', 'update', DRAFT_MESSAGE, '--reply-to', '', '--force']);
    expect(cleared.code, cleared.stderr).toBe(0);
    const wrong = await sandboxed(['email-messages', 'update', DRAFT_MESSAGE, '--reply-to', 'support', '--force']);
    expect(wrong.stderr).toContain('--reply-to must be an email address (name@example.com) or "" to clear it, not support');
  });

  it('are checked in the rows of an import, by the same rule', async () => {
    const file = join(dir, 'events.jsonl');
    writeFileSync(file, `${JSON.stringify({ eventName: 'signup', email: 'ada.example.com' })}\n`);
    const events = await sandboxed(['events', 'import', file, '--dry-run']);
    expect(events.stderr).toContain('email must be an email address (name@example.com), not "ada.example.com"');
    const csv = join(dir, 'contacts.csv');
    writeFileSync(csv, 'email,firstName\ngrace.example.com,Grace\n');
    const contacts = await sandboxed(['contacts', 'import', csv, '--dry-run']);
    expect(contacts.stderr).toContain('email must be an email address (name@example.com), not "grace.example.com"');
  });
});

describe('binary input', () => {
  const png = join(dir, 'logo.png');
  writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe]));
  const garbled = /\ufffd|\\x1a|\\x00/;

  it.each([
    [['events', 'send', 'signup', '--email', 'ada@example.com', '--props-file', png], '--props-file JSON'],
    [['themes', 'create', '--name', 'Logo', '--styles-file', png], 'styles'],
    [['segments', 'create', '--name', 'Logo', '--filter-file', png], 'filter'],
    [['workflow', 'nodes', 'update', 'cmypp2eo4jy28v8rq0khsjwhq', 'c7buikafyw3b5s87mgyg71nlb', '--payload-file', png], '--payload-file JSON'],
    [['components', 'create', '--name', 'Logo', '--lmx-file', png], 'LMX'],
    [['api', '/v1/contacts/create', '--input', png], '--input body'],
    [['email-messages', 'preview', DRAFT_MESSAGE, '--to', 'ada@example.com', '--vars-file', png], 'variables'],
  ])('is named binary, with its first bytes in hex, never echoed: %j', async (argv, what) => {
    const { code, stderr } = await sandboxed(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(`Error: the ${what} in ${png} is binary data, not text (it starts with bytes 89 50 4e 47 0d 0a 1a 0a …)`);
    expect(stderr).not.toMatch(garbled);
  });

  it('ends an import at once, named binary, instead of a line of garbled characters per row', async () => {
    for (const argv of [
      ['contacts', 'import', png, '--dry-run'],
      ['events', 'import', png, '--dry-run'],
      ['contacts', 'import', png, '--format', 'jsonl', '--dry-run'],
    ]) {
      const { code, stderr } = await sandboxed(argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr).toBe(
        `Error: ${png} is binary data, not text (it starts with bytes 89 50 4e 47 0d 0a 1a 0a …)\nHint: give a UTF-8 text file: CSV or JSON Lines\n`,
      );
    }
    const piped = await sandboxed(['contacts', 'import', '-', '--dry-run'], 'email\n\u0000\u0001\n');
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('stdin is binary data, not text (it starts with bytes 65 6d 61 69 6c 0a 00 01 …)');
  });

  it('names text in another encoding by its first byte that is not UTF-8, with the way to convert it', async () => {
    const latin1 = join(dir, 'latin1.lmx');
    writeFileSync(latin1, Buffer.from('<Paragraph>caf\xe9</Paragraph>\n', 'latin1'));
    const update = await sandboxed(['components', 'create', '--name', 'Latin-1', '--lmx-file', latin1]);
    expect(update.code).toBe(2);
    expect(update.stderr).toBe(
      `Error: the LMX in ${latin1} is not UTF-8: byte 15 (0xe9) is not, so it is text in another encoding\nHint: save it as UTF-8 (iconv -f <its encoding> -t UTF-8)\n`,
    );
    const csv = join(dir, 'latin1.csv');
    writeFileSync(csv, Buffer.from('email,firstName\nada@example.com,Ren\xe9e\n', 'latin1'));
    const imported = await sandboxed(['contacts', 'import', csv, '--dry-run']);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain(`Error: ${csv} is not UTF-8: byte 36 (0xe9) is not, so it is text in another encoding`);
  });

  it('is named binary on stdin too', async () => {
    const { code, stderr } = await sandboxed(['events', 'send', 'signup', '--email', 'ada@example.com', '--props-file', '-'], '\u0000\u0001{}');
    expect(code).toBe(2);
    expect(stderr).toContain('the --props-file JSON in stdin is binary data, not text (it starts with bytes 00 01 7b 7d)');
  });
});
