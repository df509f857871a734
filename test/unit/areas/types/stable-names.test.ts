/**
 * The names `loopsctl types --format json|env|py|go|rb` gives records stay what the file written
 * before gave them: an app imports them. Named for the bug it guards against: in the py, go, env
 * and rb formats, a later event whose name slugs the same renamed the constant an app imported
 * (`EVENT_TRIAL_STARTED` became `EVENT_TRIAL_STARTED__61E91D4E`); the same of a list, an email and
 * a contact property, of the json format's keys, and of the TypeScript module's keys of two emails
 * or lists of one name.
 */
import { describe, expect, it } from 'vitest';
import { FORMATS, generateFormat } from '../../../../src/areas/types/formats.js';
import { generateTypes, type TypesInput } from '../../../../src/areas/types/generate.js';
import { listedEmail } from '../../../support/transactional.js';

const event = (eventName: string, id: string) => ({
  id,
  eventName,
  eventProperties: [{ name: 'plan', type: 'string' as const }],
  incomingWebhookPlatform: null,
});
const list = (name: string, id: string) => ({ id, name, description: null, isPublic: true });

const before: TypesInput = {
  transactional: [listedEmail('c1', 'Welcome', ['firstName'])],
  dataVariablesFallbacks: {},
  eventPatterns: [event('trial_started', 'e1')],
  contactProperties: [{ key: 'firstName', label: 'First name', type: 'string' }],
  mailingLists: [list('Beta testers', 'l1')],
};

/** The account once a record was added whose key meets each of the first ones': `Welcome!`, `Trial Started!`, `Beta Testers`, `first_name`. */
const after: TypesInput = {
  ...before,
  transactional: [...before.transactional, listedEmail('c2', 'Welcome!', ['name'])],
  eventPatterns: [event('Trial Started!', 'e2'), ...before.eventPatterns],
  contactProperties: [{ key: 'first_name', label: 'First name', type: 'string' }, ...before.contactProperties],
  mailingLists: [list('Beta Testers', 'l2'), ...before.mailingLists],
};

const FILE_FORMATS = FORMATS.filter((format) => format !== 'ts' && format !== 'json');

/**
 * The names a file declares with what each holds: `NAME = value` lines (Go's aligned, env's
 * without spaces), each record's helpers' types included; but the type of all the contact
 * properties, which gains the one added.
 */
function declared(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^\s*(\w+)\s*=\s*(.+)$/gm)].filter((match) => match[1] !== 'ContactProperties').map((match) => [match[1]!, match[2]!]));
}

/** A json file's keys in each section, with what each holds. */
const keysOf = (text: string) =>
  Object.entries(JSON.parse(text) as Record<string, Record<string, unknown>>).flatMap(([section, entries]) =>
    Object.entries(entries).map(([key, value]) => [section, key, JSON.stringify(value)]),
  );

describe('types names that stay', () => {
  it.each(FILE_FORMATS)('%s: a later event (list, email, property) whose name slugs the same renames the constant an app already imports', (format) => {
    const first = generateFormat(format, before);
    const names = declared(first);
    expect(names.size).toBeGreaterThanOrEqual(4);
    const second = generateFormat(format, after, new Map(), first);
    const now = declared(second);
    // Every name the first file declared holds what it held; the four records added are told apart.
    for (const [name, value] of names) expect(now.get(name), `${format}: ${name}`).toBe(value);
    const added = [...now.keys()].filter((name) => !names.has(name));
    expect(
      added.filter((name) => /^(LOOPS_)?(TX|LIST|EVENT|CONTACT_PROPERTY)_|^(Tx|List|Event|ContactProperty)[A-Z]\w*[a-z0-9]$/.test(name)).length,
      format,
    ).toBeGreaterThanOrEqual(4);
    // Written again from the second file, the same file: the names stay from run to run.
    expect(generateFormat(format, after, new Map(), second)).toBe(second);
  });

  it('json: the keys the file written before gives stay, the records added are told apart', () => {
    const first = generateFormat('json', before);
    const second = generateFormat('json', after, new Map(), first);
    const now = keysOf(second).map((entry) => entry.join(' '));
    for (const entry of keysOf(first)) expect(now).toContain(entry.join(' '));
    expect(now).toHaveLength(keysOf(first).length + 4);
  });

  it('a record told apart keeps its name when the other is removed, and a file of another format keeps none', () => {
    const both = generateFormat('py', after);
    expect(both).toMatch(/^EVENT_TRIAL_STARTED__[0-9A-F]{8} = "trial_started"$/m);
    const kept = /^(EVENT_TRIAL_STARTED__[0-9A-F]{8}) = "trial_started"$/m.exec(both)![1]!;
    const alone = generateFormat('py', { ...after, eventPatterns: before.eventPatterns }, new Map(), both);
    expect(alone).toContain(`${kept} = "trial_started"`);
    expect(alone).not.toMatch(/^EVENT_TRIAL_STARTED = /m);
    // Without the file written before, or with one of another format, the account alone decides.
    expect(generateFormat('py', { ...after, eventPatterns: before.eventPatterns }, new Map(), generateFormat('rb', after))).toMatch(
      /^EVENT_TRIAL_STARTED = "trial_started"$/m,
    );
  });

  it('ts: a later email or list of the very same name renamed the key an app already reads (`transactionalEmails["Welcome"]`)', () => {
    const first = generateTypes(before);
    const twins: TypesInput = {
      ...before,
      transactional: [listedEmail('c0', 'Welcome', []), ...before.transactional],
      mailingLists: [list('Beta testers', 'l0'), ...before.mailingLists],
    };
    const second = generateTypes(twins, first);
    expect(second).toContain('  "Welcome": { id: "c1", dataVariables: ["firstName"] },');
    expect(second).toContain('  "Welcome (c0)": { id: "c0", dataVariables: [] },');
    expect(second).toContain('  "Beta testers": "l1",');
    expect(second).toContain('  "Beta testers (l0)": "l0",');
    expect(generateTypes(twins, second)).toBe(second);
    // Without the module written before, the account alone decides: both told apart.
    expect(generateTypes(twins)).toContain('  "Welcome (c1)": { id: "c1"');
  });
});
