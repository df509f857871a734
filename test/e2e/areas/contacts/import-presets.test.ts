/**
 * `contacts import --preset` on the headers providers document (test/corpus/contact-exports/,
 * each with its source): the export's and the import template's alike, whatever their case and
 * separators, custom columns made camelCase properties, and how each column is read said before
 * anything is sent. Bad input (values of two kinds, two columns of one property) stops the run
 * naming the file and the place, with nothing created.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnKey, PRESETS, type PresetName, presetEmailColumns } from '../../../../src/areas/contacts/mapping.js';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';

const openSandbox = sandboxEachTest();
const HEADERS = join(import.meta.dirname, '../../../corpus/contact-exports');

async function sandbox() {
  const recording = await openSandbox();
  const sent = (path: string) => recording.requests.filter((request) => request.method === 'POST' && request.path === path).map((request) => request.body);
  return { ...recording, creates: () => sent('/v1/contacts/create'), propertiesCreated: () => sent('/v1/contacts/properties') };
}

/** The header a provider documents, as the CSV's first line reads it. */
function headerOf(file: string): string[] {
  return readFileSync(join(HEADERS, file), 'utf8')
    .split('\n')[0]!
    .split(',')
    .map((column) => column.replace(/^"|"$/g, ''));
}

/** A file of the provider's header and a row under it for each address. */
function fileOf(name: string, header: string[], rows: string[][]): string {
  const file = join(tempDir(), name);
  const quote = (text: string) => (/[", ]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  writeFileSync(file, `${[header, ...rows].map((row) => row.map(quote).join(',')).join('\n')}\n`);
  return file;
}

/** A row of the header's columns: the address under the preset's email column, subscription false/true, a word elsewhere. */
function rowOf(preset: PresetName, header: string[], email: string): string[] {
  const emails = new Set(presetEmailColumns(PRESETS[preset]).map(columnKey));
  return header.map((column) => {
    const key = columnKey(column);
    if (emails.has(key)) return email;
    if (key === 'unsubscribed') return 'false';
    if (key === 'subscribed') return 'true';
    return key === 'loyaltytier' ? 'gold' : `${key}-${email.split('@')[0]}`;
  });
}

const FILES = readdirSync(HEADERS).filter((file) => file.endsWith('.csv'));

describe('contacts import of the headers providers document', () => {
  it('has a header of each preset’s export, and of its import template where the provider has one', () => {
    for (const preset of Object.keys(PRESETS)) expect(FILES).toContain(`${preset}-export.csv`);
    expect(FILES.filter((file) => file.endsWith('-template.csv')).length).toBeGreaterThanOrEqual(6);
  });

  it.each(FILES)('imports %s with its preset, its custom columns made camelCase properties, the mapping said first', async (file) => {
    const preset = file.slice(0, file.indexOf('-')) as PresetName;
    const { loopsctl, creates, propertiesCreated, requests } = await sandbox();
    const header = headerOf(file);
    const csv = fileOf(file, header, [rowOf(preset, header, 'ana@example.com'), rowOf(preset, header, 'ben@example.com')]);
    const result = await loopsctl(['contacts', 'import', csv, '--preset', preset, '--create-properties', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ created: 2, failed: 0 });
    expect(creates().map((body) => body.email)).toEqual(['ana@example.com', 'ben@example.com']);
    const names = (propertiesCreated() as { name: string }[]).map((property) => property.name);
    for (const name of names) expect(name).toMatch(/^[a-z][A-Za-z0-9]*$/);
    // How the columns are read is on stderr before the first property is created.
    expect(result.stderr).toContain(`${csv}: its columns are read as`);
    if (names.length > 0) expect(result.stderr.indexOf('its columns are read as')).toBeLessThan(result.stderr.indexOf('created the contact property'));
    const loyalty = header.find((column) => columnKey(column) === 'loyaltytier');
    if (loyalty !== undefined) {
      expect(names).toContain('loyaltyTier');
      expect(result.stderr).toContain(`  ${loyalty} -> loyaltyTier (a new string property)`);
      for (const body of creates()) expect(body.loyaltyTier).toBe('gold');
    }
    // Every property exists before the first contact.
    const firstCreate = requests.findIndex((request) => request.path === '/v1/contacts/create');
    expect(requests.findLastIndex((request) => request.path === '/v1/contacts/properties' && request.method === 'POST')).toBeLessThan(firstCreate);
  });

  it('reads SendGrid’s import template, which --preset sendgrid once refused, into the standard fields', async () => {
    const { loopsctl, creates } = await sandbox();
    const csv = fileOf('template.csv', ['email', 'first_name', 'last_name', 'external_id'], [['ana@example.com', 'Ana', 'Lima', 'u-1']]);
    const result = await loopsctl(['contacts', 'import', csv, '--preset', 'sendgrid', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(creates()).toEqual([{ email: 'ana@example.com', firstName: 'Ana', lastName: 'Lima', userId: 'u-1' }]);
    expect(result.stderr).toContain('  first_name -> firstName\n  last_name -> lastName\n  external_id -> userId\n');
  });

  it('makes loyalty_tier the property loyaltyTier and says so; --map names it otherwise', async () => {
    const { loopsctl, creates, propertiesCreated } = await sandbox();
    const csv = fileOf('export.csv', ['email', 'loyalty_tier'], [['ana@example.com', 'gold']]);
    const dry = await loopsctl(['contacts', 'import', csv, '--create-properties', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('  loyalty_tier -> loyaltyTier (a new string property)');
    expect(dry.stderr).toContain('would create the contact property loyaltyTier (string)');
    expect(propertiesCreated()).toEqual([]);
    const mapped = await loopsctl(['contacts', 'import', csv, '--create-properties', '--map', 'loyalty_tier=tier', '--json']);
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(mapped.stderr).toContain('  loyalty_tier -> tier (a new string property)');
    expect(propertiesCreated()).toEqual([{ name: 'tier', type: 'string' }]);
    expect(creates()).toEqual([{ email: 'ana@example.com', tier: 'gold' }]);
  });

  it('refuses values of two kinds in a new property’s column, and two columns of one property, naming the file and the line, creating nothing', async () => {
    const { loopsctl, creates, propertiesCreated } = await sandbox();
    const mixed = fileOf(
      'mixed.csv',
      ['email', 'loyalty_tier'],
      [
        ['ana@example.com', '3'],
        ['ben@example.com', ''],
        ['cy@example.com', 'gold'],
      ],
    );
    const refused = await loopsctl(['contacts', 'import', mixed, '--create-properties']);
    expect(refused.code).toBe(2);
    // A value is quoted only when it is a plain word (a file that is no CSV could hold a secret there).
    expect(refused.stderr).toContain(
      `${mixed}: line 4: the column "loyalty_tier" holds numbers (line 2) and text here ("gold"): a new property loyaltyTier takes one type`,
    );
    const twice = fileOf('twice.csv', ['email', 'loyalty_tier', 'Loyalty-Tier'], [['ana@example.com', 'gold', 'silver']]);
    const both = await loopsctl(['contacts', 'import', twice, '--create-properties']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(`${twice}: line 1: two columns fill "loyaltyTier": "loyalty_tier" and "Loyalty-Tier"`);
    const twiceMapped = await loopsctl(['contacts', 'import', twice, '--map', 'loyalty_tier=tier', '--map', 'loyalty_tier=level']);
    expect(twiceMapped.code).toBe(2);
    expect(twiceMapped.stderr).toContain('--map: the column "loyalty_tier" is mapped twice');
    expect(propertiesCreated()).toEqual([]);
    expect(creates()).toEqual([]);
  });
});
