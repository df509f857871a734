/**
 * A resource of the API as one row: the kind of record it is (record-kinds.ts reads it), its
 * operations by the API's operationId (method, path template with the ids it names, and, for a
 * configuration write, the kind of what it changes: configuration-writes.ts reads it), its list
 * (core/id-lists.ts reads it) and its getter. Each row lives under src/platform/<area>/resource.ts,
 * and operations.ts indexes them: a resource's paths are written in its row, and in the emulator's
 * route that answers them, nowhere else (test/unit/platform/operations.test.ts).
 */
import type * as z from '../base/zod.js';

/** The words loopsctl has for a kind of record besides its noun (record-kinds.ts says what each column is). */
export interface RecordKindEntry {
  directory: string;
  half: 'emails' | 'workflows' | 'audience';
  writes: readonly string[];
  word?: string;
  lmx?: 'email' | 'part';
  constant?: string;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Its path template, each id it names in braces: `/v1/themes/{themeId}`. */
  path: string;
  /** For a configuration write: the kind of what it changes (`workflow node`, for an edit of a workflow's node). */
  writes?: string;
  /**
   * The ids its body carries, by field, each with the noun of the kind of record it names
   * (`mailingListId: 'mailing list'`); a field inside an object by its path (`payload.eventPatternId`).
   * A revision it is made against (`expectedRevisionId`) names no record.
   */
  bodyIds?: Readonly<Record<string, string>>;
}

export interface ResourceRow {
  /** The record noun, as prose names it: `transactional email`. */
  noun: string;
  /** Its row of record-kinds.ts, but for `writes`, which its operations say; none for a part of another's record (an email message). */
  kind?: Omit<RecordKindEntry, 'writes'>;
  operations: Record<string, Operation>;
  /** Its list: the operation, and, for an argument that names one of its ids, the name it completes by and the command that lists them. */
  list?: { operation: string; ids?: string; command?: readonly string[] };
  /** The operation that reads one record by its id. */
  get?: string;
  /** For a resource of records that are only listed, read, created and updated: all else of it (RecordResource). */
  records?: RecordResource;
}

/**
 * A resource whose records are only listed, read, created and updated, each an id, fields of text
 * and the times it was created and updated (a campaign group): described whole by its row, from
 * which its commands (src/areas/records/), its plan kind (src/areas/plan-kinds.ts) and its part of
 * the sandbox (src/emulator/routes/records.ts) are made. Its operations are its row's list, its
 * getter, the POST to its list's path (the create) and the write to its getter's (the update).
 * What needs zod (its record's schema, the sandbox's seed, the API's rules on its fields) is in a
 * module of its folder that `load` reads on first use, so that a start reads none of it.
 */
export interface RecordResource {
  /** Its command group, as `--help` lists it: after the area `after` names, or last. */
  area: { name: string; aliases?: readonly string[]; summary: string; examples: readonly string[]; after?: string };
  /** Its noun in the plural: `campaign groups`. */
  plural: string;
  /** The feature of the team its operations need: the sandbox refuses them without it, and loopsctl says so. */
  needs?: 'content';
  /** The key of its records in the sandbox's state; its command group's name in camel case when not given (`campaignGroups`). */
  stateKey?: string;
  /** Each command's summary and examples (a list's: the one its other examples are made from). */
  commands: Record<'list' | 'get' | 'create' | 'update', { summary: string; examples: readonly string[] }>;
  /** The fields a create or an update sets, in the order the record holds them. */
  fields: Record<string, RecordField>;
  /** Hints for the failures its writes document, by status. */
  refused?: Record<number, string>;
  /** Its record's schema, its seed in the sandbox and the API's rules on its fields (a module of its folder). */
  load(): Promise<RecordRules>;
}

/** A text field of a record that a create or an update sets: `--name <name>` sets `name`. */
export interface RecordField {
  /** What the create's option says of it, and the update's. */
  create: string;
  update: string;
  /** The option's value as help shows it, `--description <text>`; the field's own name when not given. */
  value?: string;
  /** A create must give it. */
  required?: boolean;
  /** What the API makes of it when a create leaves it out; left out of the record when not given. */
  absent?: string;
  /** Why the option's value is refused, said as it is parsed, before anything loads or is sent; undefined when it is taken. */
  refusal?: (value: string) => string | undefined;
  /** How the list's table shows it: cut to its column, or wrapped as prose. */
  column: 'truncate' | 'prose';
}

/** A record of such a resource. */
export interface SimpleRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** How the sandbox's seed makes its ids and times: `id('campaign-group/Newsletters')`, `time(hours)`. */
export interface SeedMakers {
  id(label: string): string;
  time(hours: number): string;
}

/** What of a RecordResource needs zod, read on first use. */
export interface RecordRules<T extends SimpleRecord = SimpleRecord> {
  schema: z.ZodMiniType<T>;
  /** The demo team's records, made with the sandbox's ids and times. */
  seed(made: SeedMakers): T[];
  /** Of the demo's records, those every team has (none when not given). */
  everyTeam?(seeded: T[]): T[];
  /** Why the API refuses these fields of a create or an update (the fields given only), or undefined. */
  refuse?(fields: Record<string, string>): string | undefined;
  /** Why the API refuses any update of this record, or undefined. */
  frozen?(record: T): string | undefined;
  /**
   * What else of a team the sandbox keeps with these records, by its key in the state: its schema,
   * and its value in the demo, which a new team has too (the default transactional group).
   */
  settings?: Record<string, { schema: z.ZodMiniType; seed(made: SeedMakers): unknown }>;
}

/**
 * The path of an operation of a row, its ids put in the template's braces in order, each
 * percent-encoded as one path segment, so that no id can change which resource a request
 * addresses: at(THEME.operations.getTheme, id).
 */
export function at(operation: { path: string }, ...ids: string[]): string {
  let given = 0;
  const filled = operation.path.replace(/\{\w+\}/g, () => encodeURIComponent(ids[given++] ?? ''));
  if (given !== ids.length) throw new TypeError(`${operation.path} takes ${given} ids, given ${ids.length}`);
  return filled;
}

/** An operation as a request line names it, for messages: `GET /v1/api-key`. */
export function requestLine(operation: { method: string; path: string }): string {
  return `${operation.method} ${operation.path}`;
}

const PATTERNS = new Map<string, RegExp>();

/** The ids a path names when it is one of an operation's (`at`'s inverse), in the template's order; undefined for another path. */
export function idsAt(operation: { path: string }, path: string): string[] | undefined {
  let pattern = PATTERNS.get(operation.path);
  if (pattern === undefined) {
    pattern = new RegExp(`^${operation.path.replace(/\{\w+\}/g, '([^/]+)')}$`);
    PATTERNS.set(operation.path, pattern);
  }
  const found = pattern.exec(path.split('?')[0]!);
  return found === null ? undefined : found.slice(1).map(safeDecode);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A body's ids where its operation says it carries them (`bodyIds`), by field: each as sent, a null one too (a write that clears it). */
export function bodyIdsIn(operation: Operation, body: unknown): { field: string; names: string; id: unknown }[] {
  return Object.entries(operation.bodyIds ?? {}).flatMap(([field, names]) => {
    let value: unknown = body;
    for (const key of field.split('.'))
      value = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
    return value === undefined ? [] : [{ field, names, id: value }];
  });
}

/** The id of a kind of record a body carries where its operation says (`carriedId(updateCampaign, body, 'segment')`): null when it clears one, undefined when it carries none. */
export function carriedId(operation: Operation, body: unknown, names: string): string | null | undefined {
  const id = bodyIdsIn(operation, body).find((each) => each.names === names)?.id;
  return typeof id === 'string' || id === null ? id : undefined;
}
