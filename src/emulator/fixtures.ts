/**
 * Fixtures: the records an app's tests need, declared in a file (JSON or YAML) or an object, in
 * the API's own names, and put into a sandbox before it starts. Each is checked with zod, then
 * made through the emulator's own routes, so a fixture obeys the rules a request would (a
 * property's type, a list that exists, LMX that compiles); an id given is kept, others are made as
 * the API makes them. The checks come in three rounds (the shape, what holds between records,
 * what the routes refuse), each reporting every problem it finds with the path of the field at
 * fault; a round with problems ends the start, before anything listens.
 */
import { extname } from 'node:path';
import { EMAIL_ADDRESS } from '../base/email.js';
import { LocalFileError, UsageError } from '../base/errors.js';
import { jsonFault, yamlFault, yamlValue } from '../base/parse-faults.js';
import { z } from '../base/shapes.js';
import { namedFilePlace, readTreeFile } from '../base/tree-files.js';
import { dataVariablesIn } from '../lmx/index.js';
import { PROPERTY_TYPES } from '../platform/contact-properties/schemas.js';
import { isStandardField } from '../platform/contact-properties/typing.js';
import { ISSUED_ID } from '../platform/ids.js';
import { RouteTable, SandboxApi } from './api.js';
import { SANDBOX_KEY } from './keys.js';
import { type ApiAnswer, newId, requestOf, type SandboxModule, SEEDS, type SeedKind, type StateCore } from './module.js';
import { JOURNEYS_PATH } from './own-paths.js';
import { customProperties } from './routes/contact-properties.js';
import { contacts, contactTable } from './routes/contact-records.js';
import { mailingLists } from './routes/lists.js';
import { transactionalEmails } from './routes/transactional.js';

/** Ids as the API issues them (and as its routes accept them). */
const id = z.string().check(z.regex(ISSUED_ID, { error: 'an id is 1 to 128 letters, digits, _ and -' }));
const name = z.string().check(z.minLength(1, { error: 'must not be empty' }));

/** A contact: its fields, its custom properties beside them, and the lists it is on. */
const contact = z.catchall(
  z.object({
    id: z.optional(id),
    email: z.string().check(z.regex(EMAIL_ADDRESS, { error: 'not an email address' })),
    firstName: z.optional(z.nullable(z.string())),
    lastName: z.optional(z.nullable(z.string())),
    source: z.optional(z.string()),
    subscribed: z.optional(z.boolean()),
    userGroup: z.optional(z.string()),
    userId: z.optional(z.string().check(z.minLength(1))),
    mailingLists: z.optional(z.record(z.string(), z.boolean())),
  }),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);

export const fixturesSchema = z.strictObject({
  seed: z.optional(z.enum(SEEDS)),
  contacts: z.optional(z.array(contact)),
  contactProperties: z.optional(z.array(z.strictObject({ name, type: z.enum(PROPERTY_TYPES) }))),
  mailingLists: z.optional(
    z.array(z.strictObject({ id: z.optional(id), name, description: z.optional(z.nullable(z.string())), isPublic: z.optional(z.boolean()) })),
  ),
  transactionalEmails: z.optional(
    z.array(
      z.strictObject({
        id: z.optional(id),
        name,
        subject: z.optional(z.string()),
        lmx: z.string(),
        optionalDataVariables: z.optional(z.array(z.string())),
        draft: z.optional(z.boolean()),
      }),
    ),
  ),
  campaigns: z.optional(
    z.array(z.strictObject({ id: z.optional(id), name, subject: z.optional(z.string()), lmx: z.optional(z.string()), mailingListId: z.optional(z.string()) })),
  ),
  workflows: z.optional(
    z.array(z.strictObject({ id: z.optional(id), name, description: z.optional(z.string()), eventName: name, mailingListId: z.optional(z.string()) })),
  ),
  themes: z.optional(z.array(z.strictObject({ id: z.optional(id), name, styles: z.optional(z.record(z.string(), z.unknown())) }))),
  components: z.optional(z.array(z.strictObject({ id: z.optional(id), name, lmx: z.string() }))),
  suppressions: z.optional(z.array(z.string().check(z.regex(EMAIL_ADDRESS, { error: 'not an email address' })))),
  /** Contacts part-way through a workflow: at a node (by id) since a time (the sandbox's, when not given). */
  journeys: z.optional(
    z.array(
      z.strictObject({
        contact: z.string(),
        workflow: z.string(),
        node: z.string(),
        since: z.optional(z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), { error: 'not an ISO 8601 time' }))),
      }),
    ),
  ),
});
export type Fixtures = z.infer<typeof fixturesSchema>;

/** Fixtures that cannot be used: every problem, each naming the field at fault. */
export class FixtureError extends UsageError {
  constructor(
    readonly problems: string[],
    source: string,
  ) {
    super(`${source} cannot be used: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((problem) => `  ${problem}`).join('\n')}`, {
      code: 'invalid_fixtures',
      multiline: true,
      hint: "the fields follow the API's own names; see the Fixtures section of docs/sandbox.md",
    });
  }
}

/** Far past any test's fixtures, whose records are made one by one as the sandbox starts: 64 MiB. */
const FIXTURE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads a fixture file: JSON, or YAML for a .yaml or .yml file. It is read as a tree's files are
 * (a regular file, never through a link at its name, bounded): an app's repository keeps its
 * fixtures, and a committed link there would put whatever it reaches into the sandbox.
 */
export async function readFixtureFile(file: string): Promise<unknown> {
  const { root, path } = namedFilePlace(file);
  const bytes = readTreeFile(root, path, FIXTURE_MAX_BYTES);
  if (bytes === undefined) throw new LocalFileError(`the fixture file ${file} cannot be read: no such file`);
  const text = bytes.toString('utf8');
  if (!['.yaml', '.yml'].includes(extname(file).toLowerCase())) {
    try {
      return JSON.parse(text);
    } catch {
      throw new FixtureError([jsonFault(text)], file);
    }
  }
  const document = (await import('yaml')).parseDocument(text, { prettyErrors: false });
  if (document.errors.length > 0) throw new FixtureError([yamlFault(document.errors[0], text)], file);
  const read = yamlValue(document);
  if ('fault' in read) throw new FixtureError([read.fault], file);
  return read.value;
}

/** The fixtures, checked: their shape, then what holds between their records (emails, ids, lists). */
export function checkFixtures(input: unknown, source: string, seeded: StateCore): Fixtures {
  const parsed = fixturesSchema.safeParse(input ?? {});
  if (!parsed.success) throw new FixtureError(parsed.error.issues.flatMap(issueProblems), source);
  const fixtures = parsed.data;
  const problems = [...duplicateIds(fixtures), ...contactProblems(fixtures, seeded), ...variableProblems(fixtures)];
  if (problems.length > 0) throw new FixtureError(problems, source);
  return fixtures;
}

/** zod's issues as problems, an unknown field each on its own. */
function issueProblems(issue: { code: string; path: PropertyKey[]; message: string; keys?: string[] }): string[] {
  if (issue.code === 'unrecognized_keys') return (issue.keys ?? []).map((key) => `${pathText([...issue.path, key])}: unknown field`);
  return [`${pathText(issue.path)}: ${issue.message}`];
}

/** contacts[1].mailingLists.abc, as a person would write it. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('') || '(the fixtures)';
}

const KINDS = ['contacts', 'mailingLists', 'transactionalEmails', 'campaigns', 'workflows', 'themes', 'components'] as const;

function duplicateIds(fixtures: Fixtures): string[] {
  return KINDS.flatMap((kind) => {
    const seen = new Set<string>();
    return (fixtures[kind] ?? []).flatMap((record, index) => {
      if (record.id === undefined) return [];
      if (seen.has(record.id)) return [`${kind}[${index}].id: "${record.id}" is given twice`];
      seen.add(record.id);
      return [];
    });
  });
}

/** Duplicate emails, custom properties nobody declared, and memberships of lists that do not exist. */
function contactProblems(fixtures: Fixtures, seeded: StateCore): string[] {
  const lists = new Set([
    ...mailingLists.of(seeded).map((list) => list.id),
    ...(fixtures.mailingLists ?? []).flatMap((list) => (list.id === undefined ? [] : [list.id])),
  ]);
  const properties = new Set([
    ...customProperties.of(seeded).map((property) => property.key),
    ...(fixtures.contactProperties ?? []).map((property) => property.name),
  ]);
  const emails = new Map(contacts.of(seeded).map((existing) => [existing.email.toLowerCase(), 'the seed']));
  const known = new Set(Object.keys(contact.shape));
  return (fixtures.contacts ?? []).flatMap((record, index) => {
    const at = `contacts[${index}]`;
    const problems: string[] = [];
    const earlier = emails.get(record.email.toLowerCase());
    if (earlier !== undefined) problems.push(`${at}.email: ${record.email} is already in ${earlier}`);
    else emails.set(record.email.toLowerCase(), at);
    for (const listId of Object.keys(record.mailingLists ?? {})) {
      if (!lists.has(listId)) problems.push(`${at}.mailingLists.${listId}: no mailing list has this id (declare it under mailingLists, with its id)`);
    }
    for (const key of Object.keys(record).filter((field) => !known.has(field))) {
      if (isStandardField(key)) problems.push(`${at}.${key}: cannot be set on a contact`);
      else if (!properties.has(key)) problems.push(`${at}.${key}: unknown field (declare it under contactProperties to use it as a custom property)`);
    }
    return problems;
  });
}

/** An optional data variable must be one the email uses. */
function variableProblems(fixtures: Fixtures): string[] {
  return (fixtures.transactionalEmails ?? []).flatMap((email, index) => {
    const used = new Set(dataVariablesIn(email.lmx));
    return (email.optionalDataVariables ?? []).flatMap((variable, position) =>
      used.has(variable) ? [] : [`transactionalEmails[${index}].optionalDataVariables[${position}]: "${variable}" is not a data variable of its lmx`],
    );
  });
}

/** The seed a sandbox with these fixtures starts from: the one asked for, else the fixtures', else a new team's. */
export function fixtureSeed(input: unknown, asked: SeedKind | undefined): SeedKind {
  if (asked !== undefined) return asked;
  const declared = typeof input === 'object' && input !== null ? (input as { seed?: unknown }).seed : undefined;
  return SEEDS.includes(declared as SeedKind) ? (declared as SeedKind) : 'empty';
}

/**
 * Makes the fixtures' records in the state through the emulator's routes, in the order their
 * references need (lists and properties before the contacts on them). Throws a FixtureError with
 * every request that was refused, at the path of the record it made.
 */
export function applyFixtures(state: StateCore, modules: SandboxModule[], fixtures: Fixtures, source: string, now?: () => Date): void {
  const api = new SandboxApi(state, new RouteTable(modules), { now });
  const problems: string[] = [];
  /** Sends one request for the record at `at`; a refusal is a problem there, and undefined. */
  const call = (at: string, { method, path }: { method: string; path: string }, body: unknown): Record<string, unknown> | undefined => {
    const answer: ApiAnswer = api.handle({ method, path, query: new URLSearchParams(), authorization: `Bearer ${SANDBOX_KEY}`, body: JSON.stringify(body) });
    if (answer.status < 300) return answer.body as Record<string, unknown>;
    problems.push(`${at}: ${(answer.body as { message?: string }).message ?? `refused with ${answer.status}`}`);
    return undefined;
  };
  const keepId = (given: string | undefined, made: unknown) => {
    if (given !== undefined && typeof made === 'string') renameId(state, made, given);
  };

  (fixtures.mailingLists ?? []).forEach((list, index) => {
    const all = mailingLists.of(state);
    const listId = list.id ?? newId(state);
    if (all.some((existing) => existing.id === listId)) problems.push(`mailingLists[${index}].id: the seed already has a list with id ${listId}`);
    else all.push({ id: listId, name: list.name, description: list.description ?? null, isPublic: list.isPublic ?? true });
  });
  (fixtures.contactProperties ?? []).forEach((property, index) => call(`contactProperties[${index}]`, requestOf('createContactProperty'), property));
  (fixtures.contacts ?? []).forEach(({ id: given, ...fields }, index) => keepId(given, call(`contacts[${index}]`, requestOf('createContact'), fields)?.id));
  (fixtures.suppressions ?? []).forEach((email, index) => {
    let suppressed = contactTable(state).find({ email });
    if (suppressed === undefined && call(`suppressions[${index}]`, requestOf('createContact'), { email }) !== undefined) {
      suppressed = contactTable(state).find({ email });
    }
    if (suppressed !== undefined) suppressed.suppressed = true;
  });
  (fixtures.transactionalEmails ?? []).forEach((email, index) => {
    const at = `transactionalEmails[${index}]`;
    const made = call(at, requestOf('createTransactionalEmail'), { name: email.name });
    if (made === undefined) return;
    const content = { lmx: email.lmx, ...(email.subject === undefined ? {} : { subject: email.subject }) };
    if (call(`${at}.lmx`, requestOf('updateEmailMessage', String(made.draftEmailMessageId)), content) === undefined) return;
    if (email.draft !== true && call(`${at}.lmx`, requestOf('publishTransactionalEmail', String(made.id)), {}) === undefined) return;
    // What the editor marks optional, which the API cannot set: a send may leave these out.
    const stored = transactionalEmails.of(state).find((candidate) => candidate.record.id === made.id);
    if (stored !== undefined && email.optionalDataVariables !== undefined) stored.optionalDataVariables = email.optionalDataVariables;
    keepId(email.id, made.id);
  });
  (fixtures.campaigns ?? []).forEach((campaign, index) => {
    const at = `campaigns[${index}]`;
    const made = call(at, requestOf('createCampaign'), {
      name: campaign.name,
      ...(campaign.mailingListId === undefined ? {} : { mailingListId: campaign.mailingListId }),
    });
    if (made === undefined) return;
    const content = { ...(campaign.subject === undefined ? {} : { subject: campaign.subject }), ...(campaign.lmx === undefined ? {} : { lmx: campaign.lmx }) };
    if (Object.keys(content).length > 0 && call(`${at}.lmx`, requestOf('updateEmailMessage', String(made.emailMessageId)), content) === undefined) return;
    keepId(campaign.id, made.id);
  });
  (fixtures.workflows ?? []).forEach(({ id: given, eventName, ...fields }, index) => {
    const at = `workflows[${index}]`;
    const made = call(at, requestOf('createWorkflow'), fields);
    if (made === undefined) return;
    const trigger = { expectedRevisionId: made.workflowRevisionId, payload: { typeName: 'EventTrigger', eventName } };
    if (call(`${at}.eventName`, requestOf('updateWorkflowNode', String(made.id), String(made.rootNodeId)), trigger) === undefined) return;
    keepId(given, made.id);
  });
  (fixtures.themes ?? []).forEach(({ id: given, ...fields }, index) => keepId(given, call(`themes[${index}]`, requestOf('createTheme'), fields)?.id));
  (fixtures.components ?? []).forEach(({ id: given, ...fields }, index) =>
    keepId(given, call(`components[${index}]`, requestOf('createComponent'), fields)?.id),
  );
  // Last, as they name contacts and workflows (the fixtures', with the ids they chose).
  (fixtures.journeys ?? []).forEach((journey, index) => call(`journeys[${index}]`, { method: 'POST', path: JOURNEYS_PATH }, journey));
  if (problems.length > 0) throw new FixtureError(problems, source);
}

/**
 * Gives a record the id the fixture chose, wherever the state names it (its own id, the email
 * messages and metrics that point to it): ids made by the emulator are unique strings, so every
 * value or key equal to one names that record.
 */
function renameId(state: StateCore, from: string, to: string): void {
  const visit = (value: unknown): unknown => {
    if (value === from) return to;
    if (Array.isArray(value)) {
      value.forEach((item, index) => (value[index] = visit(item)));
      return value;
    }
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const renamed = visit(record[key]);
      if (key === from) {
        delete record[key];
        record[to] = renamed;
      } else record[key] = renamed;
    }
    return record;
  };
  visit(state);
}
