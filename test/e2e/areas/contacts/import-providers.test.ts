import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, PRESETS, type PresetName, presetEmailColumns } from '../../../../src/areas/contacts/mapping.js';
import { tempDir } from '../../../support/main.js';
import { expectDescribed, sandboxEachTest } from '../../../support/recording.js';

const openSandbox = sandboxEachTest();

async function sandbox() {
  const recording = await openSandbox();
  const lists = (await recording.loopsctl(['lists', 'list', '--json'])).json() as { id: string; name: string }[];
  const listId = (name: string) => lists.find((list) => list.name === name)!.id;
  const sent = (path: string) => recording.requests.filter((request) => request.method === 'POST' && request.path === path).map((request) => request.body);
  return { ...recording, listId, creates: () => sent('/v1/contacts/create'), propertiesCreated: () => sent('/v1/contacts/properties') };
}

/** A cell for each column of a preset, as the provider's export would hold it. */
function cell(preset: PresetName, column: string, email: string): string {
  const { columns, unsubscribed } = PRESETS[preset];
  if (unsubscribed?.includes(column)) return 'false';
  const fills: Record<string, string> = { email, firstName: 'Ada', lastName: 'Lovelace', userId: `u-${email.split('@')[0]}`, subscribed: 'true' };
  return fills[columns[column] ?? ''] ?? 'provider bookkeeping';
}

/** An export of a preset's columns, its bookkeeping too, a new property of each type, and a lists column. */
function exportFile(preset: PresetName, emails: string[]): string {
  const { columns, unsubscribed = [], ignored = [] } = PRESETS[preset];
  // One email column: a preset that knows two spellings of it (Kit's email and email_address) reads either.
  const email = presetEmailColumns(PRESETS[preset])[0];
  const own = [...Object.keys(columns).filter((column) => columns[column] !== 'email' || column === email), ...unsubscribed, ...ignored];
  const header = [...own, 'company', 'employees', 'vip', 'renewsAt', 'Lists'];
  const quote = (text: string) => (/[",;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const rows = emails.map((email) => [
    ...own.map((column) => cell(preset, column, email)),
    'Acme, Inc.',
    '12',
    'true',
    '2027-01-31',
    'Product updates; Beta testers',
  ]);
  const file = join(tempDir(), `${preset}.csv`);
  writeFileSync(file, `${[header, ...rows].map((row) => row.map(quote).join(',')).join('\n')}\n`);
  return file;
}

function suppressionFile(header: string, emails: string[]): string {
  const file = join(tempDir(), 'suppressed.csv');
  writeFileSync(file, `${header},reason\n${emails.map((email) => `${email},hard bounce`).join('\n')}\n`);
  return file;
}

/** An import of a provider's export with its properties created and its lists column read. */
const fromExport = (file: string, preset: PresetName) => ['contacts', 'import', file, '--preset', preset, '--create-properties', '--lists-column', 'Lists'];

const NEW_PROPERTIES = [
  { name: 'company', type: 'string' },
  { name: 'employees', type: 'number' },
  { name: 'vip', type: 'boolean' },
  { name: 'renewsAt', type: 'date' },
];

describe('contacts import from another provider', () => {
  it.each(PRESET_NAMES)('imports a %s export with the properties created, the lists set and the suppression file’s addresses left out', async (preset) => {
    const { loopsctl, creates, propertiesCreated, listId, requests } = await sandbox();
    const file = exportFile(preset, ['ana@example.com', 'BOUNCED@example.com', 'ben@example.com']);
    const exclude = suppressionFile('Email Address', ['bounced@example.com']);
    const result = await loopsctl([...fromExport(file, preset), '--exclude', exclude, '--json']);
    expect(result.stderr).toContain('created the contact property company (string)');
    expect(result.json()).toEqual({ created: 2, updated: 0, skipped: 0, excluded: 1, failed: 0, journal: `${file}.journal.jsonl` });
    expect(result.code).toBe(0);
    expect(propertiesCreated()).toEqual(NEW_PROPERTIES);
    // Every property exists before the first contact is sent.
    const firstCreate = requests.findIndex((request) => request.path === '/v1/contacts/create');
    expect(requests.findLastIndex((request) => request.path === '/v1/contacts/properties' && request.method === 'POST')).toBeLessThan(firstCreate);
    const { columns } = PRESETS[preset];
    const mapped = new Set(Object.values(columns));
    expect(creates()).toHaveLength(2);
    for (const body of creates()) {
      expect(body).toMatchObject({
        company: 'Acme, Inc.',
        employees: 12,
        vip: true,
        renewsAt: '2027-01-31',
        mailingLists: { [listId('Product updates')]: true, [listId('Beta testers')]: true },
        ...(mapped.has('firstName') && { firstName: 'Ada' }),
      });
      // An unsubscribed column of false is subscribed true; bookkeeping columns are not sent.
      if (PRESETS[preset].unsubscribed !== undefined) expect(body.subscribed).toBe(true);
      expect(Object.values(body)).not.toContain('provider bookkeeping');
    }
    expect(creates().map((body) => body.email)).toEqual(expect.arrayContaining(['ana@example.com', 'ben@example.com']));
    expect(result.stderr).toContain("The Loops API cannot add an address to the account's suppression list");
    expectDescribed(requests);
  });

  it('imports the suppression file’s addresses as unsubscribed with --exclude-as unsubscribed', async () => {
    const { loopsctl, creates } = await sandbox();
    const file = join(tempDir(), 'resend.csv');
    writeFileSync(file, 'email,first_name,unsubscribed\nana@example.com,Ana,false\ncomplained@example.com,Cy,false\n');
    const exclude = suppressionFile('EmailAddress', ['complained@example.com']);
    const result = await loopsctl(['contacts', 'import', file, '--preset', 'resend', '--exclude', exclude, '--exclude-as', 'unsubscribed', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ created: 2, failed: 0 });
    expect(creates()).toEqual(
      expect.arrayContaining([
        { email: 'ana@example.com', firstName: 'Ana', subscribed: true },
        { email: 'complained@example.com', firstName: 'Cy', subscribed: false },
      ]),
    );
    expect(result.stderr).toContain('1 address of');
    expect(result.stderr).toContain('imported as unsubscribed');
  });

  it('shows the properties it would create and the addresses it would leave out in a dry run, and creates nothing', async () => {
    const { loopsctl, creates, propertiesCreated } = await sandbox();
    const file = exportFile('mailchimp', ['ana@example.com', 'bounced@example.com']);
    const exclude = suppressionFile('Email Address', ['bounced@example.com', 'elsewhere@example.com']);
    const result = await loopsctl([...fromExport(file, 'mailchimp'), '--exclude', exclude, '--dry-run', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({ dryRun: true, valid: 2, failed: 0 });
    expect(result.stderr).toContain('would create the contact property employees (number)');
    expect(result.stderr).toContain('would create the contact property renewsAt (date)');
    expect(result.stderr).toContain(`1 address of ${exclude} (the old provider's suppressions) would be left out.`);
    expect(result.stderr).toContain("The Loops API cannot add an address to the account's suppression list");
    expect(propertiesCreated()).toEqual([]);
    expect(creates()).toEqual([]);
  });

  it('a rerun creates no property and no contact again', async () => {
    const { loopsctl, creates, propertiesCreated } = await sandbox();
    const file = exportFile('sendgrid', ['ana@example.com', 'ben@example.com']);
    const args = [...fromExport(file, 'sendgrid'), '--json'];
    expect((await loopsctl(args)).code).toBe(0);
    const again = await loopsctl(args);
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ created: 0, skipped: 2 });
    expect(propertiesCreated()).toHaveLength(NEW_PROPERTIES.length);
    expect(creates()).toHaveLength(2);
  });

  it('stops before anything is created at a list the account does not have, naming it and its line', async () => {
    const { loopsctl, creates, propertiesCreated } = await sandbox();
    const file = join(tempDir(), 'export.csv');
    writeFileSync(file, 'email,company,Lists\nana@example.com,Acme,Product updates\nben@example.com,Acme,Old newsletter\n');
    const result = await loopsctl(['contacts', 'import', file, '--create-properties', '--lists-column', 'Lists']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 3: the account has no mailing list "Old newsletter"');
    expect(propertiesCreated()).toEqual([]);
    expect(creates()).toEqual([]);
  });

  it('refuses a column mapped twice, a preset whose email column is missing and an unmappable property name, sending nothing', async () => {
    const { loopsctl, creates, propertiesCreated } = await sandbox();
    const file = join(tempDir(), 'export.csv');
    writeFileSync(file, 'email,Company Name\nana@example.com,Acme\n');
    const twice = await loopsctl(['contacts', 'import', file, '--map', 'Company Name=company', '--map', 'Company Name=employer']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--map: the column "Company Name" is mapped twice');
    const preset = await loopsctl(['contacts', 'import', file, '--preset', 'mailchimp']);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toContain('the mailchimp preset reads the email from the column "Email Address" (in any case), which the file does not have');
    const odd = join(tempDir(), 'odd.csv');
    writeFileSync(odd, 'email,Company Name,Über Tier\nana@example.com,Acme,gold\n');
    const unnamed = await loopsctl(['contacts', 'import', odd, '--create-properties']);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('the column "Über Tier" (made überTier) cannot be a property name');
    const mapped = await loopsctl(['contacts', 'import', file, '--create-properties', '--map', 'Company Name=company', '--json']);
    expect(mapped.code).toBe(0);
    expect(propertiesCreated()).toEqual([{ name: 'company', type: 'string' }]);
    expect(creates()).toEqual([{ email: 'ana@example.com', company: 'Acme' }]);
  });

  it('reads an unsubscribed column the other way round, and refuses two columns that fill one field', async () => {
    const { loopsctl, creates, propertiesCreated } = await sandbox();
    const file = join(tempDir(), 'people.csv');
    writeFileSync(file, 'id,email,unsubscribed\n7,gone@example.com,true\n8,here@example.com,false\n');
    const result = await loopsctl(['contacts', 'import', file, '--preset', 'customerio', '--json']);
    expect(result.code).toBe(0);
    expect(creates()).toEqual(
      expect.arrayContaining([
        { userId: '7', email: 'gone@example.com', subscribed: false },
        { userId: '8', email: 'here@example.com', subscribed: true },
      ]),
    );
    const both = join(tempDir(), 'both.csv');
    writeFileSync(both, 'email,first_name,firstName\nx@example.com,A,B\n');
    const refused = await loopsctl(['contacts', 'import', both, '--preset', 'resend']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('both.csv: line 1: two columns fill "firstName": "first_name" and "firstName"');
    // Found before a property is created, when the file is read first.
    const withNew = join(tempDir(), 'new.csv');
    writeFileSync(withNew, 'email,company,Company Name\nx@example.com,A,B\n');
    const twice = await loopsctl(['contacts', 'import', withNew, '--create-properties', '--map', 'Company Name=company']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('new.csv: line 1: two columns fill "company": "company" and "Company Name"');
    const noLists = await loopsctl(['contacts', 'import', withNew, '--create-properties', '--map', 'Company Name=', '--lists-column', 'Lists']);
    expect(noLists.code).toBe(2);
    expect(noLists.stderr).toContain('--lists-column names the column "Lists", which the header does not have');
    expect(propertiesCreated()).toEqual([]);
    expect(creates()).toHaveLength(2);
  });

  it('refuses a suppression file without an email column', async () => {
    const { loopsctl, creates } = await sandbox();
    const file = join(tempDir(), 'export.csv');
    writeFileSync(file, 'email\nana@example.com\n');
    const exclude = join(tempDir(), 'bounces.csv');
    writeFileSync(exclude, 'who,reason\nx@example.com,bounce\n');
    const result = await loopsctl(['contacts', 'import', file, '--exclude', exclude]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no email column in the header (who, reason)');
    expect(creates()).toEqual([]);
  });
});
