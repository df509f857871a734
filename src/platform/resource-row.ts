/**
 * A resource of the API as one row: the kind of record it is (record-kinds.ts reads it), its
 * operations by the API's operationId (method, path template with the ids it names, and, for a
 * configuration write, the kind of what it changes: configuration-writes.ts reads it), its list
 * (core/id-lists.ts reads it) and its getter. Each row lives under src/platform/<area>/resource.ts,
 * and resources.ts indexes them: a resource's paths are written in its row, and in the emulator's
 * route that answers them, nowhere else (test/unit/platform/resources.test.ts).
 */

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
