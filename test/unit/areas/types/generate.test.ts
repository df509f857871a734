/**
 * The module `loopsctl types` writes, for any account: keys unique by construction however the
 * records are named, objects without a prototype (an email named `__proto__` is a key like any
 * other), names escaped, entries in code-unit order, each property's type (booleans too), and the
 * variables a send may leave out. The module is compiled once, with a file that uses it, under
 * --strict, and run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { drift, generateTypes, readSections, sectionEntries, type TypesInput } from '../../../../src/areas/types/generate.js';
import { tempDir } from '../../../support/main.js';
import { listedEmail } from '../../../support/transactional.js';

const email = listedEmail;

/** Names written to break a module: alike, a key that meets another's, prototype names, quotes, line ends, a comment's end. */
const HOSTILE: TypesInput = {
  transactional: [
    email('cb', 'Welcome', ['firstName']),
    email('ca', 'Welcome', ['firstName', 'loginUrl']),
    email('cc', 'Welcome (ca)', ['code']),
    email('cd', '__proto__', ['x']),
    email('ce', 'constructor'),
    email('cf', 'Quote " back \\ slash', ['a']),
    email('cg', 'line\nbreak\u2028sep */ end'),
    email('ch', 'Reset', ['resetUrl', 'name']),
  ],
  dataVariablesFallbacks: { ch: { name: 'there', resetUrl: null } },
  eventPatterns: [
    {
      id: 'e1',
      eventName: 'signed_up',
      incomingWebhookPlatform: null,
      eventProperties: [
        { name: '__proto__', type: 'string' },
        { name: 'beta', type: 'boolean' },
      ],
    },
  ],
  contactProperties: [
    { key: 'betaOptIn', label: 'Beta', type: 'boolean' },
    { key: 'seats', label: 'Seats', type: 'number' },
    { key: 'seats', label: 'Seats again', type: 'string' },
  ],
  mailingLists: [{ id: 'l1', name: '__proto__', description: null, isPublic: true }],
};

/** The compiler's errors for these files under --strict. */
function compile(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `${diagnostic.file?.fileName.split('/').at(-1)}:${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
}

describe('the module of loopsctl types', () => {
  const text = generateTypes(HOSTILE);
  const keys = sectionEntries(HOSTILE).transactionalEmails.map(([key]) => key);

  it('gives every record a key of its own, in code-unit order, however they are named', () => {
    expect(keys).toEqual([
      'Quote " back \\ slash',
      'Reset',
      'Welcome (ca)',
      'Welcome (ca) #2',
      'Welcome (cb)',
      '__proto__',
      'constructor',
      'line\nbreak\u2028sep */ end',
    ]);
    expect(sectionEntries(HOSTILE).contactProperties.map(([key]) => key)).toEqual(['betaOptIn', 'seats (seats)', 'seats (seats) #2']);
  });

  it('reads back every key it wrote: nothing drifts from itself', () => {
    const sections = readSections(text)!;
    expect([...sections.transactionalEmails.keys()].sort()).toEqual([...keys].sort());
    expect(drift(sections, sectionEntries(HOSTILE))).toEqual([]);
  });

  it('compiles under --strict, types booleans and optional variables, and runs with objects that have no prototype', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const module = join(dir, 'loops.generated.ts');
    writeFileSync(module, text);
    const app = join(dir, 'app.ts');
    writeFileSync(
      app,
      [
        "import { contactProperties, transactionalEmails, type ContactProperties, type EventProperties, type SendTransactionalEmailParams } from './loops.generated';",
        "const proto = transactionalEmails['__proto__'].id;",
        "export const toProto: SendTransactionalEmailParams<typeof proto> = { transactionalId: proto, email: 'a@example.com', dataVariables: { x: 1 } };",
        "const reset = transactionalEmails['Reset'].id;",
        // "name" has a fallback: it may be left out; "resetUrl" may not.
        "export const resetOk: SendTransactionalEmailParams<typeof reset> = { transactionalId: reset, email: 'a@example.com', dataVariables: { resetUrl: 'u' } };",
        '// @ts-expect-error resetUrl has no fallback',
        "export const resetWrong: SendTransactionalEmailParams<typeof reset> = { transactionalId: reset, email: 'a@example.com', dataVariables: { name: 'n' } };",
        'export const beta: ContactProperties = { betaOptIn: true };',
        '// @ts-expect-error a boolean property',
        "export const notBeta: ContactProperties = { betaOptIn: 'yes' };",
        "export const event: EventProperties<'signed_up'> = { beta: false };",
        "export const kinds: string = contactProperties['betaOptIn'];",
        // The platform's webhook events: a union told apart by eventName.
        "import type { LoopsWebhookEvent, LoopsWebhookEventName } from './loops.generated';",
        "export function bouncedEmail(event: LoopsWebhookEvent): string | undefined { return event.eventName === 'email.hardBounced' ? event.contactIdentity.email : undefined; }",
        "export const names: LoopsWebhookEventName[] = ['contact.created', 'testing.testEvent'];",
        '// @ts-expect-error the platform sends no such event',
        "export const unknown: LoopsWebhookEventName = 'email.deferred';",
        '',
      ].join('\n'),
    );
    expect(compile([module, app])).toEqual([]);

    const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const runnable = join(dir, 'loops.generated.mjs');
    writeFileSync(runnable, js);
    const loaded = (await import(pathToFileURL(runnable).href)) as Record<string, Record<string, unknown>>;
    for (const section of ['transactionalEmails', 'events', 'contactProperties', 'mailingLists']) expect(Object.getPrototypeOf(loaded[section])).toBe(null);
    const emails = loaded.transactionalEmails!;
    expect(Object.keys(emails)).toEqual(keys);
    const idOf = (name: string) => (emails[name] as { id: string } | undefined)?.id;
    expect([idOf('__proto__'), idOf('constructor'), idOf('toString')]).toEqual(['cd', 'ce', undefined]);
    expect(loaded.mailingLists!['__proto__' as string]).toBe('l1');
  });
});
