/**
 * `loopsctl types --format json|env|py|go|rb`: each file loads in its language and gives back the
 * account's ids exactly, whatever characters they hold. Python runs the file where python3 is on
 * the machine; Go and Ruby, whose toolchains may be absent, are read by their grammar (Go's whole
 * file by test/support/go-source.ts; the escapes written are JSON's, which both read alike; Ruby's
 * `#` escaped so that nothing interpolates), and env by Node's own dotenv reader.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FORMATS, generateFormat } from '../../../../src/areas/types/formats.js';
import type { TypesInput } from '../../../../src/areas/types/generate.js';
import { readGoPackage } from '../../../support/go-source.js';
import { tempDir } from '../../../support/main.js';
import { needs } from '../../../support/programs.js';
import { listedEmail } from '../../../support/transactional.js';

const python3 = needs('python3', ['--version']);

const email = listedEmail;

/** Ids no language takes as they stand, names that meet once slugged, one email not published. */
const HOSTILE_IDS = ['c"quote', 'c\\back#{x}$y', 'c\u2028sep\ttab', 'c\u00e9'];
const input = (ids: string[]): TypesInput => ({
  transactional: [
    email(ids[0]!, 'Password reset', ['resetUrl', 'name']),
    email(ids[1]!, 'Welcome!', ['firstName']),
    email(ids[2]!, 'welcome', []),
    email('cdraft', 'Draft only', [], false),
  ],
  dataVariablesFallbacks: { [ids[0]!]: { name: 'there' } },
  eventPatterns: [],
  contactProperties: [],
  mailingLists: [{ id: ids[3]!, name: 'Beta testers', description: null, isPublic: true }],
});

/** The constants a file defines and their values, by the grammar of its language's lines. */
function constants(text: string, line: RegExp, decode: (literal: string) => string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of text.matchAll(line)) found[match[1]!] = decode(match[2]!);
  return found;
}

/** A double-quoted string of Ruby, as written: JSON's escapes only, and `#` always escaped (Go's are read by test/support/go-source.ts). */
const RUBY_STRING = String.raw`"(?:[^"\\\n#]|\\["\\/bfnrt#]|\\u[0-9a-fA-F]{4})*"`;

/** The event names a Go or Ruby file of these records holds, as its language reads them (Go's whole file; Ruby's lines by its grammar), sorted. */
function eventNames(format: 'go' | 'rb', records: TypesInput, tree?: Map<string, string>): string[] {
  const text = generateFormat(format, records, tree);
  const read =
    format === 'go'
      ? Object.fromEntries(readGoPackage(text).constants)
      : constants(text, new RegExp(String.raw`^ {2}([A-Z]\w*) = (${RUBY_STRING})\.freeze$`, 'gm'), (literal) => JSON.parse(literal.replace(/\\#/g, '#')));
  return Object.entries(read)
    .filter(([name]) => name.startsWith(format === 'go' ? 'Event' : 'EVENT_'))
    .map(([, value]) => value)
    .sort();
}

describe('types --format', () => {
  const hostile = input(HOSTILE_IDS);

  it('json: an object by key (the slug, with the id where two meet), the published emails with their variables', () => {
    const parsed = JSON.parse(generateFormat('json', hostile)) as Record<string, Record<string, unknown>>;
    expect(parsed.transactionalEmails).toEqual({
      'password-reset': { id: 'c"quote', dataVariables: ['name', 'resetUrl'], optionalDataVariables: ['name'] },
      [`welcome--${HOSTILE_IDS[1]}`]: { id: HOSTILE_IDS[1], dataVariables: ['firstName'], optionalDataVariables: [] },
      [`welcome--${HOSTILE_IDS[2]}`]: { id: HOSTILE_IDS[2], dataVariables: [], optionalDataVariables: [] },
    });
    expect(parsed.mailingLists).toEqual({ 'beta-testers': 'c\u00e9' });
  });

  it.skipIf(python3.skip)(python3.title('py: runs in Python and gives back every id'), () => {
    const file = join(tempDir(), 'loops_ids.py');
    writeFileSync(file, generateFormat('py', hostile));
    const printed = spawnSync(
      'python3',
      ['-c', 'import json, runpy, sys; ns = runpy.run_path(sys.argv[1]); print(json.dumps({k: v for k, v in ns.items() if k.isupper()}))', file],
      { encoding: 'utf8' },
    );
    expect(printed.stderr).toBe('');
    const loaded = JSON.parse(printed.stdout) as Record<string, unknown>;
    expect(loaded.TX_PASSWORD_RESET).toBe('c"quote');
    expect(loaded[`TX_WELCOME__${'C_BACK__X__Y'}`]).toBe(HOSTILE_IDS[1]);
    expect(loaded.LIST_BETA_TESTERS).toBe('c\u00e9');
    expect((loaded.TRANSACTIONAL_EMAILS as Record<string, unknown>)['password-reset']).toEqual({
      id: 'c"quote',
      data_variables: ['name', 'resetUrl'],
      optional_data_variables: ['name'],
    });
  });

  it('go: a package of constants, each a Go string that reads back as the id', () => {
    const found = readGoPackage(generateFormat('go', hostile)).constants;
    expect([...found.values()].sort()).toEqual([...HOSTILE_IDS].sort());
    expect(found.get('TxPasswordReset')).toBe('c"quote');
    expect(found.get('ListBetaTesters')).toBe('c\u00e9');
  });

  it('rb: a module of frozen constants, no string interpolating, each reading back as the id', () => {
    const text = generateFormat('rb', hostile);
    expect(text).toMatch(/^(# .*\n)+module Loops\n( {2}[A-Z]\w* = .*\.freeze\n)+end\n$/);
    const found = constants(text, new RegExp(String.raw`^ {2}([A-Z]\w*) = (${RUBY_STRING})\.freeze$`, 'gm'), (literal) =>
      JSON.parse(literal.replace(/\\#/g, '#')),
    );
    expect(Object.values(found).sort()).toEqual([...HOSTILE_IDS].sort());
    expect(found.TX_PASSWORD_RESET).toBe('c"quote');
  });

  it('env: lines a dotenv reader takes as they stand, and a clear refusal of an id it cannot hold', () => {
    const plain = input(['c1', 'c2$HOME', 'c3 with space', 'l1#not-a-comment']);
    expect(parseEnv(generateFormat('env', plain))).toEqual({
      LOOPS_TX_PASSWORD_RESET: 'c1',
      LOOPS_TX_WELCOME__C2_HOME: 'c2$HOME',
      LOOPS_TX_WELCOME__C3_WITH_SPACE: 'c3 with space',
      LOOPS_LIST_BETA_TESTERS: 'l1#not-a-comment',
    });
    expect(() => generateFormat('env', input(["c'1", 'c2', 'c3', 'l1']))).toThrow(
      `the id of transactional email "Password reset" (c'1) cannot be written in an env file: "c'1"`,
    );
  });

  it('refuses two records whose constants would be the same, naming both', () => {
    const meeting = input(['C1', 'c1', 'c1x', 'l1']);
    meeting.transactional[0]!.name = 'welcome';
    meeting.transactional[2]!.name = 'other';
    expect(() => generateFormat('py', meeting)).toThrow(
      'transactional email "welcome" (C1) and transactional email "Welcome!" (c1) both become TX_WELCOME__C1 (keys "welcome--C1" and "welcome--c1")',
    );
  });
});

/** Event names no language takes as they stand: each format's escaping, read back by its language or its grammar. */
const HOSTILE_EVENTS = ['say "hi"', 'back\\slash $HOME #{x}', 'two\nlines', 'caf\u00e9 \u{1F600}', "it's", 'class'];
const accountInput: TypesInput = {
  ...input(['c1', 'c2', 'c3', 'l1']),
  eventPatterns: HOSTILE_EVENTS.map((eventName, index) => ({
    id: `e${index}`,
    eventName,
    eventProperties: [{ name: 'plan', type: 'string' }],
    incomingWebhookPlatform: null,
  })),
  contactProperties: [
    { key: 'firstName', label: 'First name', type: 'string' },
    { key: 'seats', label: 'Seats', type: 'number' },
  ],
};
/** The content tree's directories, by id: `welcome-email--c2` pulled, `reset` made by hand. */
const TREE = new Map([
  ['c1', 'reset'],
  ['c2', 'welcome-email'],
]);

/** Names a terminal acts on: the one-character CSI (U+009B) that clears the screen, BEL, DEL, a right-to-left override. */
const TERMINAL_EVENTS = ['clear\u009b2Jscreen', 'ring\u0007bell', 'rub\u007fout', 'rtl\u202eevil'];
/** What none of the formats may write raw: every control character but the line break and the tab they are laid out with, and the invisible format characters. */
const RAW_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;

describe('types, names that a terminal acts on', () => {
  const terminalInput: TypesInput = {
    ...input(['c1', 'c2', 'c3', 'l1']),
    eventPatterns: TERMINAL_EVENTS.map((eventName, index) => ({
      id: `e${index}`,
      eventName,
      eventProperties: [{ name: `plan\u009b`, type: 'string' }],
      incomingWebhookPlatform: null,
    })),
    contactProperties: [{ key: 'seats\u009b0m', label: 'Seats', type: 'number' }],
  };

  it.each(FORMATS)('are escaped in --format %s: none of their characters is written raw', (format) => {
    expect(generateFormat(format, terminalInput)).not.toMatch(RAW_UNSAFE);
  });

  it('read back as they are in each language: json, go and rb', () => {
    const parsed = JSON.parse(generateFormat('json', terminalInput)) as { events: Record<string, { name: string; properties: object }> };
    expect(
      Object.values(parsed.events)
        .map((event) => event.name)
        .sort(),
    ).toEqual([...TERMINAL_EVENTS].sort());
    expect(Object.values(parsed.events)[0]!.properties).toEqual({ 'plan\u009b': 'string' });
    expect(eventNames('go', terminalInput)).toEqual([...TERMINAL_EVENTS].sort());
    expect(eventNames('rb', terminalInput)).toEqual([...TERMINAL_EVENTS].sort());
  });

  it('are left out of --format env, which cannot escape them, with a comment saying why', () => {
    const text = generateFormat('env', terminalInput);
    expect(Object.keys(parseEnv(text)).filter((name) => name.startsWith('LOOPS_EVENT_'))).toEqual([]);
    expect(text).toContain('left out: its name holds a quote, a line break or another control character');
  });
});

describe('types --format, events and contact properties, keyed by the content tree', () => {
  it('json: the events with their properties, the contact properties with their types, emails keyed by their directories', () => {
    const parsed = JSON.parse(generateFormat('json', accountInput, TREE)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(parsed.transactionalEmails!).sort()).toEqual(['reset', 'welcome', 'welcome-email']);
    expect(
      Object.values(parsed.events!)
        .map((event) => (event as { name: string }).name)
        .sort(),
    ).toEqual([...HOSTILE_EVENTS].sort());
    expect(parsed.events!['say-hi']).toEqual({ name: 'say "hi"', properties: { plan: 'string' } });
    expect(parsed.contactProperties).toEqual({ 'first-name': { key: 'firstName', type: 'string' }, seats: { key: 'seats', type: 'number' } });
  });

  it.skipIf(python3.skip)(python3.title('py: Python reads every event name back as it is'), () => {
    const file = join(tempDir(), 'loops_ids.py');
    writeFileSync(file, generateFormat('py', accountInput, TREE));
    const printed = spawnSync(
      'python3',
      ['-c', 'import json, runpy, sys; ns = runpy.run_path(sys.argv[1]); print(json.dumps({k: v for k, v in ns.items() if k.isupper()}))', file],
      {
        encoding: 'utf8',
      },
    );
    expect(printed.stderr).toBe('');
    const loaded = JSON.parse(printed.stdout) as Record<string, unknown>;
    expect(loaded.TX_RESET).toBe('c1');
    expect(loaded.EVENT_CLASS).toBe('class');
    expect(loaded.CONTACT_PROPERTY_FIRST_NAME).toBe('firstName');
    expect(
      Object.entries(loaded)
        .filter(([name]) => name.startsWith('EVENT_'))
        .map(([, value]) => value)
        .sort(),
    ).toEqual([...HOSTILE_EVENTS].sort());
    expect((loaded.EVENTS as Record<string, unknown>)['two-lines']).toEqual({ name: 'two\nlines', properties: { plan: 'string' } });
  });

  it('go and rb: each event name a string of the language that reads back as it is', () => {
    const go = Object.fromEntries(readGoPackage(generateFormat('go', accountInput, TREE)).constants);
    expect(go.TxReset).toBe('c1');
    expect(eventNames('go', accountInput, TREE)).toEqual([...HOSTILE_EVENTS].sort());
    expect(eventNames('rb', accountInput, TREE)).toEqual([...HOSTILE_EVENTS].sort());
  });

  it('env: a name it cannot hold (a quote, a line break) is left out with a comment; the others read back as they are', () => {
    const text = generateFormat('env', accountInput, TREE);
    const read = parseEnv(text);
    expect(read.LOOPS_TX_RESET).toBe('c1');
    expect(read.LOOPS_EVENT_BACK_SLASH_HOME_X).toBe('back\\slash $HOME #{x}');
    expect(read.LOOPS_EVENT_SAY_HI).toBe('say "hi"');
    expect(read.LOOPS_EVENT_IT_S).toBeUndefined();
    expect(text).toContain('# LOOPS_EVENT_IT_S left out: its name holds a quote, a line break or another control character');
    expect(text).toContain('# LOOPS_EVENT_TWO_LINES left out');
    // Every line a comment or NAME='value': nothing a loader could read otherwise.
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(#.*|[A-Z][A-Z0-9_]*='[^'\n]*')$/);
  });

  it('events and lists whose slugs meet are keyed alike in every account: by their names, never by ids that differ between accounts', () => {
    const account = (suffix: string): TypesInput => ({
      ...accountInput,
      eventPatterns: ['Trial Started!', 'trial_started'].map((eventName, index) => ({
        id: `e${index}${suffix}`,
        eventName,
        eventProperties: [],
        incomingWebhookPlatform: null,
      })),
      mailingLists: ['Beta testers', 'Beta Testers'].map((name, index) => ({ id: `l${index}${suffix}`, name, description: null, isPublic: true })),
    });
    const names = (text: string) => [...text.matchAll(/^(LOOPS_\w+)=/gm)].map((match) => match[1]);
    const staging = generateFormat('env', account('staging'), TREE);
    const production = generateFormat('env', account('production'), TREE);
    expect(names(staging)).toEqual(names(production));
    expect(staging).not.toEqual(production);
    const events = names(staging).filter((name) => name!.startsWith('LOOPS_EVENT_TRIAL_STARTED__'));
    expect(events).toHaveLength(2);
    expect(parseEnv(staging)[events[0]!]).not.toBe(parseEnv(staging)[events[1]!]);
    expect(names(staging).filter((name) => name!.startsWith('LOOPS_LIST_BETA_TESTERS__'))).toHaveLength(2);
  });

  it('refuses two directories of the tree whose constants meet, naming both records', () => {
    const tree = new Map([
      ['c1', 'a-b'],
      ['c2', 'a_b'],
    ]);
    expect(() => generateFormat('env', accountInput, tree)).toThrow(
      'transactional email "Password reset" (c1) and transactional email "Welcome!" (c2) both become LOOPS_TX_A_B (keys "a-b" and "a_b")',
    );
  });
});
