/**
 * `migrate report <repository>`: what moving an app from another provider to Loops takes, read
 * from its repository without running any of it: its email templates (each converted in memory as
 * `content convert` would), its sends and events (read as `check --code` reads a send), the Loops
 * call each becomes, and what is left to do in the app.
 */
import { lstatSync } from 'node:fs';
import { posix, resolve } from 'node:path';
// A bundle of its own (src/build/build.mjs), as for `check --code`.
import { parse } from '@babel/parser';
import { JS_EXTENSIONS, sourceFiles } from '../../app-code/files.js';
import { LocalFileError, UsageError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { refuseOverwrites, writeRecords } from '../content/convert/command.js';
import type { GivenFields } from '../content/convert/fields.js';
import type { LoopsCall, MigrationReport, ReportedSend } from './model.js';
import { renderReport } from './render.js';
import { IMPORT_EXTENSIONS, mayHoldSends, type ProviderSend, providerSends } from './sends.js';
import { convertTemplates, type TemplateReport, templateFiles } from './templates.js';

/** A key of an object as JavaScript takes it: a name in shorthand, anything else quoted, its value the name it would have in camel case. */
function entryOf(key: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return key;
  const name = key.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase()).replace(/^(?=\d)/, '_');
  return `${JSON.stringify(key)}: ${name || 'value'}`;
}

/**
 * `{ a, b: order.b }`: each key with the value the send gives it where it writes a name or a path
 * (shorthand where they are the same), so that the call names only what is in scope where the send
 * stands; a key the template needs and the send does not give says so. `{ … }` where the source
 * does not spell the object out.
 */
function objectOf(keys: string[] | undefined, values: Record<string, string> = {}, missing: readonly string[] = []): string {
  if (keys === undefined) return '{ … }';
  const entries = [
    ...keys.map((key) => {
      const value = values[key];
      return value === undefined || value === key || !/^[A-Za-z_$][\w$]*$/.test(key) ? entryOf(key) : `${key}: ${value}`;
    }),
    ...missing.map((key) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: undefined /* the template needs it: not given at this call */`),
  ];
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

function loopsCallOf(send: ProviderSend, missing: readonly string[] = []): LoopsCall {
  if (send.kind === 'event')
    return {
      call: 'sendEvent',
      code: `loops.sendEvent({ email, eventName: ${JSON.stringify(send.event)}, eventProperties: ${objectOf(send.variables, send.values)} })`,
    };
  return {
    call: 'sendTransactionalEmail',
    code: `loops.sendTransactionalEmail({ transactionalId: '<the published email’s id>', email, dataVariables: ${objectOf(send.variables, send.values, missing)} })`,
  };
}

/** The template file a send names, among those found: an imported component's file, or a file named as the template is. */
function templateFileOf(send: ProviderSend, templates: readonly { path: string }[]): string | undefined {
  const template = send.template;
  if (template === undefined || template.kind === 'inline') return undefined;
  const stem = (path: string) => path.slice(0, path.length - posix.extname(path).length);
  if (template.kind === 'file' && template.file !== undefined) {
    const wanted = IMPORT_EXTENSIONS.map((extension) => `${template.file}${extension}`);
    return templates.find((candidate) => wanted.includes(candidate.path))?.path;
  }
  const name = template.kind === 'file' ? template.name : template.id;
  return templates.find((candidate) => posix.basename(stem(candidate.path)) === name)?.path;
}

/**
 * A send's `from` as an email message's fields take it: the name, and the address without its
 * domain (the API's `fromEmail`: "The email sender email address, without the team's sending
 * domain"). A value that is no address gives nothing.
 */
export function senderOf(from: string | undefined): Pick<GivenFields, 'fromName' | 'fromEmail'> {
  const written = from?.trim() ?? '';
  const named = /^(.*)<([^<>@\s]+)@[^<>@\s]+>$/.exec(written);
  if (named !== null) {
    const name = named[1]!
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim();
    return name === '' ? { fromEmail: named[2]! } : { fromName: name, fromEmail: named[2]! };
  }
  const bare = /^([^<>@\s]+)@[^<>@\s]+$/.exec(written);
  return bare === null ? {} : { fromEmail: bare[1]! };
}

/** What the API cannot do for the move: each a sentence with the names the scan found. */
function leftForTheApp(sends: readonly ReportedSend[], templates: readonly TemplateReport[]): string[] {
  const left: string[] = [];
  const domainOf = (from: string | undefined) => (from === undefined ? undefined : /@([^>\s]+)/.exec(from)?.[1]?.toLowerCase());
  const domains = [...new Set(sends.flatMap((send) => domainOf(send.from) ?? []))];
  left.push(
    domains.length > 0
      ? `Sending domain: set up ${domains.join(', ')} in the Loops app (Settings, Domain); the API cannot, and the sends here are from ${domains.length === 1 ? 'it' : 'them'}.`
      : 'Sending domain: set up the domain your emails are sent from in the Loops app (Settings, Domain); the API cannot.',
  );
  const emails = sends.filter((send) => send.kind === 'email');
  if (emails.length > 0 || templates.length > 0)
    left.push(
      `Transactional emails: convert the templates (\`loopsctl content convert\`), push them as drafts (\`loopsctl content push\`), publish each in the app, and write its id where each of the ${emails.length} send${emails.length === 1 ? '' : 's'} names the old template.`,
    );
  const atProvider = emails.filter((send) => send.template?.kind === 'provider' && send.templateFile === undefined);
  for (const send of atProvider)
    left.push(
      `${send.provider} template ${(send.template as { id: string }).id} (${send.file}:${send.line}) is kept at ${send.provider}, not in the repository: export its HTML from there, then convert it.`,
    );
  const events = [...new Set(sends.filter((send) => send.kind === 'event').map((send) => send.event!))];
  if (events.length > 0)
    left.push(
      `Events (${events.join(', ')}): send them with sendEvent; a loop that starts on one is a workflow with that event's trigger, made in the app, and \`loopsctl event-patterns list\` shows the events the account knows.`,
    );
  left.push(
    'Mailing lists: Loops makes them in the app only; create the lists your audience had before `loopsctl contacts import --lists-column` (see docs/migrate.md).',
  );
  return left;
}

interface ReportOptions {
  out?: string;
  force?: boolean;
}

export const report: Handler<[string], ReportOptions> = handler(['out', 'files'], async (context, [repository], options) => {
  const root = resolve(repository);
  const stats = lstatSync(root, { throwIfNoEntry: false });
  if (stats === undefined) throw new UsageError(`${repository}: no such directory`);
  if (!stats.isDirectory()) throw new LocalFileError(`${repository}: not a directory`, { hint: "name the app's repository, a directory" });
  const skipped: MigrationReport['skipped'] = [];
  const found = templateFiles(root, repository);
  skipped.push(...found.skipped.map((entry) => ({ path: posix.join(repository, entry.path), reason: entry.reason })));
  const sends: ReportedSend[] = [];
  for (const { path, text } of sourceFiles([repository], skipped)) {
    if (!JS_EXTENSIONS.has(posix.extname(path)) || !mayHoldSends(text)) continue;
    const relative = posix.relative(repository, path.split('\\').join('/'));
    const scanned = providerSends(parse as never, relative, text);
    if (scanned.unread !== undefined) skipped.push({ path, reason: scanned.unread });
    for (const send of scanned.sends) sends.push({ ...send, loops: loopsCallOf(send) });
  }
  // The subject and sender a send gives its template go into the template's record (the first send's, where several send it).
  const given = new Map<string, GivenFields>();
  for (const send of sends) {
    const file = templateFileOf(send, found.files);
    if (file === undefined) continue;
    send.templateFile = file;
    if (send.kind === 'email' && !given.has(file))
      given.set(file, { ...(send.subject === undefined ? {} : { subject: send.subject }), ...senderOf(send.from) });
  }
  const tree = options.out ?? 'loops';
  const { reports: templates, records } = await convertTemplates(root, repository, found.files, { tree, given });
  let written: MigrationReport['written'];
  if (options.out !== undefined) {
    // Nothing is written while a record is in the way (unless --force), nor when two templates would make one.
    refuseOverwrites(
      tree,
      records.map(({ converted }) => ({ path: converted.path, source: converted.source })),
      options.force,
    );
    writeRecords(tree, records);
    for (const template of templates)
      template.record = records.find(
        ({ converted }) => converted.source === posix.join(repository, template.path) && converted.kind === 'transactional',
      )?.converted.path;
    written = { directory: tree, records: records.map(({ converted }) => converted.path) };
  }
  // The call suggested names every variable the converted email requires, those its template shows but the send did not name too.
  for (const send of sends) {
    const template = templates.find((candidate) => candidate.path === send.templateFile);
    if (template === undefined || send.kind !== 'email') continue;
    const required = template.variables.flatMap((variable) => /^\{data\.([\w-]+)\}$/.exec(variable)?.[1] ?? []);
    const named = send.variables ?? [];
    const missing = [...new Set(required.filter((name) => !named.includes(name)))];
    if (missing.length > 0) send.loops = loopsCallOf({ ...send, variables: named }, missing);
  }
  const named = new Set<string>();
  const result: MigrationReport = {
    repository,
    templates,
    sends,
    leftForTheApp: leftForTheApp(sends, templates),
    // The templates' walk and the sources' walk meet the same files: each is named once.
    skipped: skipped.filter((entry) => !named.has(entry.path) && named.add(entry.path)),
    ...(written === undefined ? {} : { written }),
  };
  await context.out.present(result, renderReport);
});
