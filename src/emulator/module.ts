/**
 * What each area contributes to the sandbox, and the helpers its routes share: the documented
 * failures, checks of request bodies, pages of collections, and answers checked against the
 * strict form of the client's own schema before they leave.
 */

import { builtinModule } from '../base/builtin.js';
import { copyJson } from '../base/json-copy.js';
import { PER_PAGE_MAX, PER_PAGE_MIN } from '../base/paging.js';
import { madeOnUse, pageOf, z as zod } from '../base/shapes.js';
import type * as z from '../base/zod.js';
import { at } from '../platform/operation-row.js';
import { OPERATIONS, type OperationId } from '../platform/operations.js';
import { errorBody } from '../platform/schemas.js';
import type { KeyFeatures } from './keys.js';
import { strictFormOf } from './strict.js';

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * When it was answered, by the sandbox's clock: its Date header, as the API's is the account's
   * time. Kept as a time, formatted only when the header is read.
   */
  at?: Date;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The account-wide part of the state; every area keeps the rest in slices of its own. */
export interface StateCore {
  version: number;
  teamName: string;
  /** Counts the records created so far; new ids are derived from it. */
  sequence: number;
  /** The data it started from, which a reset starts from again (demo when not recorded). */
  seed?: SeedKind;
  [slice: string]: unknown;
}

export interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The absolute URL the request came to, without its query: where a list's next page is. */
  location: string;
  body: unknown;
  headers: Record<string, string | undefined>;
  features: KeyFeatures;
  state: StateCore;
  /** The time on the sandbox's clock (src/emulator/clock.ts), which everything the sandbox dates uses. */
  now(): Date;
  /** The system's time, which the sandbox's clock runs with (plus the distance it was moved forward). */
  systemNow(): Date;
  /** A new cuid-shaped id, derived from the state's counter so runs are repeatable. */
  newId(): string;
  /** Says the state changed, so it is written back. */
  changed(): void;
}

/** What the sandbox answers at: an operation of the API, by its row's operationId, or a place of the sandbox's own. */
export type SandboxRoute = RouteAnswer & ({ operation: OperationId } | RoutePlace);

/**
 * A method and a path pattern: an operation's, as its row says (`/v1/themes/:themeId`), or one of
 * the sandbox's own, outside the API's paths (its clock and journeys, `/_sandbox/clock`; the storage
 * its uploads' presigned addresses name, `/sandbox-uploads/:emailAssetId`).
 */
export interface RoutePlace {
  method: Method;
  path: string;
}

/**
 * Where a route answers: an operation's method and path are its row's, so the sandbox answers no
 * path of the API that the rows, and so the contract, do not know; a place of its own is never
 * under the API's `/v1/`.
 */
export function placeOf(route: SandboxRoute): RoutePlace {
  if ('operation' in route) {
    const { method, path } = (OPERATIONS as Record<string, RoutePlace>)[route.operation]!;
    return { method, path: path.replace(/\{(\w+)\}/g, ':$1') };
  }
  if (route.path.startsWith('/v1/')) throw new TypeError(`${route.path}: the sandbox's own paths are outside the API's /v1/`);
  return { method: route.method, path: route.path };
}

/** A request of an operation, its ids put in its row's path: what the fixtures and a trial send through the routes. */
export function requestOf(operation: OperationId, ...ids: string[]): RoutePlace {
  const row = (OPERATIONS as Record<string, RoutePlace>)[operation]!;
  return { method: row.method, path: at(row, ...ids) };
}

interface RouteAnswer {
  /** The feature the team needs for this operation, else 401. */
  needs?: 'content' | 'workflows' | 'metrics';
  /** Takes the body as bytes (a Buffer in `context.body`) instead of JSON. */
  rawBody?: boolean;
  /** Needs no API key (a presigned upload URL carries its own authority). */
  anonymous?: boolean;
  /** The body of this operation's failures, those of its key and path included; `{message}` when not given. */
  failures?: FailureShape;
  /** Route modules of other areas this operation reads or changes, loaded before it runs (see `later`). */
  uses?: LaterModule<unknown>[];
  run(context: RouteContext): ApiAnswer;
}

/** A route module that some operations of another use: see `later`. */
export interface LaterModule<T> {
  load(): Promise<void>;
  /** Whether it has been loaded, for code that needs it only sometimes (see ModuleNeeded). */
  loaded(): boolean;
  /** The module, once loaded; an operation that does not list it in `uses` fails plainly rather than loading it. */
  get(): T;
}

/**
 * A route module of another area that only some operations use, loaded before one of them runs
 * (each lists it in `uses`). Imported with the module that uses it, it would load that area's
 * shapes for every request to the module, its reads included: `--sandbox workflow list` read the
 * bundles of mailing lists, segments and email messages for the sake of the workflow edits alone.
 */
export function later<T>(load: () => Promise<T>): LaterModule<T> {
  let loaded: T | undefined;
  return {
    load: async () => {
      loaded ??= await load();
    },
    loaded: () => loaded !== undefined,
    get: () => {
      if (loaded === undefined) throw new Error('an operation used a route module it does not list in `uses`');
      return loaded;
    },
  };
}

/**
 * Thrown by code that needs a module only sometimes (the journeys' engine, when a wait has ended)
 * and finds it not loaded: the request is answered again once it is (core.ts), nothing having
 * changed before the throw.
 */
export class ModuleNeeded extends Error {
  constructor(readonly module: LaterModule<unknown>) {
    super('a request needs a route module that is not loaded yet');
  }
}

/** How an operation words a failure: the body its description documents, and the schema it is checked with. */
export interface FailureShape {
  schema: z.ZodMiniType;
  body(failure: ApiFailure): unknown;
}

/** The data a sandbox starts from: the fictional team's (`demo`), or a new team's (`empty`). */
export const SEEDS = ['demo', 'empty'] as const;
export type SeedKind = (typeof SEEDS)[number];

/** A part of the state one area owns, kept under its key in the state file. */
export interface Slice<T> {
  key: string;
  schema: z.ZodMiniType<T>;
  /** A fresh copy of the demo data. */
  seed(): T;
  /** A fresh copy of what a new team has. */
  empty(): T;
  of(state: StateCore): T;
}

/**
 * A slice with its demo data, and what a new team has: a collection starts empty and a setting as
 * in the demo, unless `empty` says otherwise (the records every team has, such as a default theme).
 */
export function slice<T>(key: string, schema: z.ZodMiniType<T>, seed: () => T, empty?: () => T): Slice<T> {
  const newTeam = empty ?? (() => (Array.isArray(seed()) ? ([] as T) : seed()));
  const part: Slice<T> = {
    key,
    schema,
    seed: () => copyJson(seed()),
    empty: () => copyJson(newTeam()),
    of: (state) => {
      // A state written before the area existed (or made without it) gets the slice from its seed.
      if (!Object.hasOwn(state, key)) state[key] = state.seed === 'empty' ? part.empty() : part.seed();
      else uncheckedSlices.get(state)?.check(key, schema, state[key]);
      return state[key] as T;
    },
  };
  return part;
}

/** The seed data, which most runs (a state file exists) never need, is made on first use. */
export { lazily } from '../base/lazily.js';

/** States read from a file whose slices are checked only when a route first uses them. */
const uncheckedSlices = new WeakMap<StateCore, { check(key: string, schema: z.ZodMiniType, value: unknown): void }>();

/** Where a slice's schema keeps the fields of its records that are checked when first read (fieldsCheckedOnRead). */
const CHECKED_ON_READ = Symbol('checkedOnRead');

/**
 * The schema of a slice of records (`records`, which leaves out `fields`) whose `fields` are each
 * checked with their schema when a route first reads them, rather than with the rest of the slice:
 * a workflow's nodes, which a listing never reads, and whose check (with the schemas of every node
 * type met) was most of the workflows'. Such a field of the wrong shape throws, when first read,
 * what the slice's check would have thrown, `<key>.<index>.<field>.<path>: <message>`.
 */
export function fieldsCheckedOnRead<T>(records: z.ZodMiniArray, fields: Record<string, z.ZodMiniType>): z.ZodMiniType<T> {
  return Object.assign(records, { [CHECKED_ON_READ]: fields }) as unknown as z.ZodMiniType<T>;
}

/**
 * Checks each slice of a state read from a file once, when it is first used: a request reads only
 * the slices its routes use, so a large state costs little more than its parsing. A slice of the
 * wrong shape throws what `refuse` makes of its first problem, `<key>.<path>: <message>`.
 */
export function checkSlicesOnUse(state: StateCore, refuse: (problem: string) => Error): void {
  const checked = new Set<string>();
  const problem = (path: PropertyKey[], issues: readonly { path: PropertyKey[]; message: string }[]) =>
    refuse(`${[...path, ...issues[0]!.path].map(String).join('.')}: ${issues[0]!.message}`);
  uncheckedSlices.set(state, {
    check: (key, schema, value) => {
      if (checked.has(key)) return;
      const result = schema.safeParse(value);
      if (!result.success) throw problem([key], result.error.issues);
      const onRead = (schema as { [CHECKED_ON_READ]?: Record<string, z.ZodMiniType> })[CHECKED_ON_READ];
      if (onRead !== undefined && Array.isArray(value)) {
        value.forEach((record: Record<string, unknown>, index) => {
          for (const [field, fieldSchema] of Object.entries(onRead)) checkOnRead(record, field, fieldSchema, (issues) => problem([key, index, field], issues));
        });
      }
      checked.add(key);
    },
  });
}

/** Has `record[field]` checked with `schema` when first read (throwing what `refused` makes of its issues), then kept as it is. */
function checkOnRead(record: Record<string, unknown>, field: string, schema: z.ZodMiniType, refused: (issues: z.$ZodIssue[]) => Error): void {
  if (!Object.hasOwn(record, field)) return;
  const stored = record[field];
  const settle = (value: unknown) => Object.defineProperty(record, field, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(record, field, {
    enumerable: true,
    configurable: true,
    get() {
      const result = schema.safeParse(stored);
      if (!result.success) throw refused(result.error.issues);
      settle(stored);
      return stored;
    },
    set: settle,
  });
}

/**
 * A slice that a state file keeps as rows (the store says which, and by what keys a row is found):
 * its check, which throws for a row of the wrong shape.
 */
export interface RowKind<T extends object> {
  key: string;
  check(row: unknown): T;
}

/**
 * The rows of such a slice in a state read from the file: found a row at a time by id, by one of
 * its keys or by its place in a queue (state/rows.ts's ROW_SLICES says which), so that a request
 * costs the same at 100,000 rows as at ten. A row handed out is the same object each time, and
 * what is done to it is written when the state is saved.
 */
export interface KeptRows<T extends object> {
  /** Whether the whole slice has been read into the state as an array, which is then the slice. */
  loaded(): boolean;
  byId(id: string): T | undefined;
  /** The first row, in the slice's order, whose first (0) or second (1) key is `value`. */
  byKey(which: 0 | 1, value: string): T | undefined;
  /** Every row whose first (0) or second (1) key is `value`, in the slice's order. */
  allByKey(which: 0 | 1, value: string): T[];
  /** The rows whose place is at least `from` and before `below`, in the order of their places (then the slice's), `limit` at most. */
  placed(from: string, below: string, limit?: number): T[];
  /** The first place after `after` and before `below` that a row holds. */
  nextPlace(after: string, below: string): string | undefined;
  /** How many rows hold a place from `from` to before `below`. */
  countPlaced(from: string, below: string): number;
  /** Every row, in the slice's order, read without making the slice an array. */
  every(): T[];
  add(row: T): void;
  remove(row: T): void;
}

/** Where a state read from the file keeps its row slices (state/store.ts). */
export interface RowStore {
  /** The slice's rows; undefined when this state does not keep it as rows. */
  rows<T extends object>(kind: RowKind<T>): KeptRows<T> | undefined;
}

const rowStores = new WeakMap<StateCore, RowStore>();

/** The store a state read from a file keeps its row slices in; undefined for state made in memory. */
export function rowStoreOf(state: StateCore): RowStore | undefined {
  return rowStores.get(state);
}

export function keepRowsIn(state: StateCore, store: RowStore): void {
  rowStores.set(state, store);
}

export interface SandboxModule {
  slices: Slice<unknown>[];
  routes: SandboxRoute[];
  /** Runs before every request's operation (the journeys' module releases the waits that have ended); its module is loaded for every request. */
  prepare?: (context: RouteContext) => void;
}

/** A failure the API documents: a status and a `{message}` body. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * The Retry-After of a quota's 429 (daily previews, uploads): the whole seconds until the oldest
 * use that counts leaves the window, and one more is allowed.
 */
export function quotaRetryAfter(oldestUse: string, windowMs: number, now: Date): Record<string, string> {
  const seconds = Math.ceil((Date.parse(oldestUse) + windowMs - now.getTime()) / 1_000);
  return { 'retry-after': String(Math.max(1, seconds)) };
}

export const badRequest = (message: string) => new ApiFailure(400, message);
export const notFound = (message: string) => new ApiFailure(404, message);
export const conflict = (message: string) => new ApiFailure(409, message);

export function noSendingDomain(): ApiFailure {
  return badRequest('No sending domain is configured for this team');
}

/**
 * A record's page in the Loops app, as the API's `url` fields give it: the sandbox's records are
 * named as the team's own would be, so the link has the platform's form.
 */
export function appUrl(kind: 'campaigns' | 'transactional' | 'workflows', id: string): string {
  return `https://app.loops.so/${kind}/${encodeURIComponent(id)}`;
}

/** A new id for a record the team makes, derived from the state's counter so runs are repeatable. */
export function newId(state: StateCore): string {
  state.sequence += 1;
  return createdId(state.sequence);
}

/** How many base-36 characters follow a cuid's leading `c`. */
const CUID_CHARACTERS = 24;
/** How many of them a created id gives its place in the sequence, as a cuid's first eight are its time. */
const SEQUENCE_CHARACTERS = 8;

/**
 * The id of the record made `sequence`th: cuid-shaped, and led by the sequence, as a cuid is by its
 * time, so that ids sort in the order the records were made. A new record's id then goes at the end
 * of the state file's index of ids, not into a page of it at random: one page written a group of
 * writes rather than one a write. The rest looks random, as a cuid's does, and needs no hash: the
 * sequence already makes the id its own.
 */
export function createdId(sequence: number): string {
  return `c${sequence.toString(36).padStart(SEQUENCE_CHARACTERS, '0')}${scrambled(sequence, CUID_CHARACTERS - SEQUENCE_CHARACTERS)}`;
}

/** `length` base-36 characters that look random, the same for the same number (each a step of splitmix32). */
function scrambled(value: number, length: number): string {
  let state = value | 0;
  let text = '';
  while (text.length < length) {
    state = (state + 0x9e3779b9) | 0;
    let mixed = Math.imul(state ^ (state >>> 16), 0x85ebca6b);
    mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
    text += (((mixed ^ (mixed >>> 16)) >>> 0) % 36).toString(36);
  }
  return text;
}

/**
 * A cuid-shaped id derived from a label: the same label always gives the same id. node:crypto is
 * loaded here, when a seed is made, not by every request to a sandbox whose state already exists.
 */
export function seedId(label: string): string {
  const digest = builtinModule('node:crypto').createHash('sha256').update(label).digest();
  const chars = Array.from(digest.subarray(0, CUID_CHARACTERS), (byte) => (byte % 36).toString(36));
  return `c${chars.join('')}`;
}

const EPOCH = Date.parse('2024-09-02T08:00:00.000Z');
const HOUR = 3_600_000;

/** A fixed timestamp of the seed, `hours` after the team's first day. */
export function seedTime(hours: number): string {
  return new Date(EPOCH + hours * HOUR).toISOString();
}

/** The body as an object holding only the allowed fields and every required one. */
export function objectBody(body: unknown, allowed: string[], required: string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw badRequest(`unknown field${unknown.length === 1 ? '' : 's'} in the request body: ${unknown.join(', ')}`);
  const missing = required.filter((key) => !Object.hasOwn(body, key));
  if (missing.length > 0) throw badRequest(`missing field${missing.length === 1 ? '' : 's'} in the request body: ${missing.join(', ')}`);
  return body as Record<string, unknown>;
}

export function stringField(fields: Record<string, unknown>, key: string): string {
  const value = fields[key];
  if (typeof value !== 'string') throw badRequest(`${key} must be a string`);
  return value;
}

export function find<T extends { id: string }>(items: T[], id: string, noun: string): T {
  const found = items.find((item) => item.id === id);
  if (found === undefined) throw notFound(`${noun} ${id} not found`);
  return found;
}

/** Checks an answer against the strict form of the client's schema; a mismatch is a sandbox bug. */
export function answer(schema: z.ZodMiniType, body: unknown, status = 200, headers?: Record<string, string>): ApiAnswer {
  const result = strictFormOf(schema).safeParse(body);
  if (!result.success) throw new Error(`the sandbox built an answer the client would refuse: ${result.error.message}`);
  return { status, body, headers };
}

/**
 * An answer that never varies (`{success: true}`), its body checked as `answer` checks it, once at
 * its first use rather than at every request: frozen, it stays the body that was checked. Each
 * request gets an answer object of its own, which a hook (`onRequest`) or the server may change.
 */
export function fixedAnswer(schema: z.ZodMiniType, body: Record<string, unknown>): () => ApiAnswer {
  let checked: unknown;
  return () => {
    checked ??= answer(schema, Object.freeze(body)).body;
    return { status: 200, body: checked, headers: undefined };
  };
}

/** Most operations: `{message}`. */
const plainFailures: FailureShape = { schema: errorBody, body: (failure) => ({ message: failure.message }) };

/**
 * Contacts, contact properties, events and sends: `{success: false, message}`. Its schema is made
 * when a request first fails so: a listing of workflows makes no boolean schema but this one.
 */
export const flaggedFailures: FailureShape = {
  schema: madeOnUse(() => zod.looseObject({ success: zod.boolean(), message: zod.string() })),
  body: (failure) => ({ success: false, message: failure.message }),
};

export function errorAnswer(failure: ApiFailure, shape: FailureShape = plainFailures): ApiAnswer {
  return answer(shape.schema, shape.body(failure), failure.status, failure.headers);
}

const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8');

/**
 * One page of a collection kept in creation order, most recent first. A cursor names the first
 * item of the page it leads to; one that names no item is refused.
 */
export function listAnswer<T extends { id: string }>(
  item: z.ZodMiniType,
  inCreationOrder: T[],
  { query, location }: Pick<RouteContext, 'query' | 'location'>,
): ApiAnswer {
  const perPage = pageSize(query.get('perPage'));
  const items = [...inCreationOrder].reverse();
  const cursor = query.get('cursor');
  let start = 0;
  if (cursor !== null) {
    const id = decodeCursor(cursor);
    start = items.findIndex((candidate) => candidate.id === id);
    if (start < 0 || encodeCursor(id) !== cursor) throw badRequest(`invalid cursor: "${cursor}"`);
  }
  const data = items.slice(start, start + perPage);
  const next = items[start + perPage];
  const nextCursor = next === undefined ? null : encodeCursor(next.id);
  const pagination = {
    totalResults: items.length,
    returnedResults: data.length,
    perPage,
    totalPages: Math.ceil(items.length / perPage),
    nextCursor,
    // A full URL, as the API gives it: the same list on the origin (and under the prefix) the request used.
    nextPage: nextCursor === null ? null : `${location}?cursor=${nextCursor}&perPage=${perPage}`,
  };
  return answer(pageOf(item), { pagination, data });
}

function pageSize(raw: string | null): number {
  if (raw === null) return 20;
  const size = Number(raw);
  if (!/^\d+$/.test(raw) || size < PER_PAGE_MIN || size > PER_PAGE_MAX) {
    throw badRequest(`perPage must be a whole number from ${PER_PAGE_MIN} to ${PER_PAGE_MAX}, not "${raw}"`);
  }
  return size;
}
