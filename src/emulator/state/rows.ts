/**
 * The slices the sandbox's state file keeps as rows (state/store.ts): those that grow with the
 * audience, a row each, found by id or by one of two keys through an index, handed out as the same
 * object each time and written back only when changed.
 */
import type { KeptRows, RowKind, StateCore } from '../module.js';

type SqlValue = string | number | bigint | null | Uint8Array;
export type Row = Record<string, SqlValue>;
/** The part of node:sqlite's prepared statements the store uses. */
export interface Statement {
  run(...parameters: SqlValue[]): { lastInsertRowid: number | bigint };
  get(...parameters: SqlValue[]): Row | undefined;
  all(...parameters: SqlValue[]): Row[];
}

/** How a slice kept as rows names and finds its rows. */
export interface RowLayout {
  /** The row's id (KeptRows.byId); '' for a slice whose rows have none. */
  id(row: Record<string, unknown>): string;
  /** Its two keys (the second may be null), by which KeptRows.byKey and allByKey find it. */
  keys(row: Record<string, unknown>): readonly [string, string | null];
  /** Its place in the slice's queues (KeptRows.placed), read in the order of the places; null for none. */
  place?(row: Record<string, unknown>): string | null;
  /** The slice's rows, when its value is not a list of them (the layout of a member), and that value made from its rows. */
  rowsOf?(value: unknown): Record<string, unknown>[];
  fromRows?(rows: Record<string, unknown>[]): unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The slices kept as rows, those that grow with the audience and its sends:
 *   - contacts, by email in lower case (as the API compares emails) and by userId;
 *   - the outbox, by the journey that sent an email and, for a workflow's email, by its recipient
 *     in lower case (what a filter on a contact's activity reads; a send's row is appended to the
 *     end of both indexes, so a send costs the same however many came before);
 *   - journeys, by contact and (while waiting) by workflow, each in a queue by where it is: a
 *     timer's wait by when it ends (`t<time>`), one held by a paused workflow (`h<workflow id>`), an
 *     ended one by when it ended (`e<time>`), so that the next wait to end, the workflows that hold
 *     contacts and the oldest ended journeys are found through the index, never by reading them all.
 */
export const ROW_SLICES: Record<string, RowLayout> = {
  contacts: {
    id: (contact) => text(contact.id),
    keys: (contact) => [String(contact.email).toLowerCase(), typeof contact.userId === 'string' ? contact.userId : null],
  },
  outbox: {
    id: () => '',
    keys: (entry) => [text(entry.journeyId), entry.kind === 'workflow' ? text(entry.to).toLowerCase() : null],
  },
  journeys: {
    id: (journey) => text(journey.id),
    keys: (journey) => [text(journey.contactId), journey.status === 'waiting' ? text(journey.workflowId) : null],
    place: (journey) =>
      journey.status === 'ended'
        ? `e${text(journey.endedAt)}`
        : typeof journey.waitUntil === 'string'
          ? `t${journey.waitUntil}`
          : `h${text(journey.workflowId)}`,
    rowsOf: (setting) => {
      // The layout of a member: those still going by id (an array before), and the ended ones apart.
      const { journeys, ended } = setting as {
        journeys: Record<string, Record<string, unknown>> | Record<string, unknown>[];
        ended?: Record<string, unknown>[];
      };
      return [...(ended ?? []), ...Object.values(journeys)];
    },
    fromRows: journeySetting,
  },
};

/**
 * The journeys read whole, as the member kept them (journey-records.ts): those going by id, those
 * ended in the order they ended, the timer waits as a heap (a list sorted by when each ends is
 * one), and those held by workflow, each list in the order the journeys started.
 */
function journeySetting(all: Record<string, unknown>[]): unknown {
  const byTime = (time: (row: Record<string, unknown>) => string) => (a: Record<string, unknown>, b: Record<string, unknown>) =>
    time(a) < time(b) ? -1 : time(a) > time(b) ? 1 : 0;
  const going: Record<string, Record<string, unknown>> = {};
  const held: Record<string, string[]> = {};
  const ended: Record<string, unknown>[] = [];
  const timed: Record<string, unknown>[] = [];
  for (const journey of all) {
    if (journey.status === 'ended') {
      ended.push(journey);
      continue;
    }
    going[text(journey.id)] = journey;
    if (typeof journey.waitUntil === 'string') timed.push(journey);
    else (held[text(journey.workflowId)] ??= []).push(text(journey.id));
  }
  const waiting = timed
    .sort(byTime((journey) => text(journey.waitUntil)))
    .map((journey, index) => ({ until: text(journey.waitUntil), journeyId: text(journey.id), order: index + 1 }));
  return { journeys: going, ended: ended.sort(byTime((journey) => text(journey.endedAt))), waiting, held, waitOrder: waiting.length };
}

/**
 * Makes a member of the state a property that reads its value when first read (then an ordinary
 * property), or takes a value set before that.
 */
export function readOnUse(state: StateCore, key: string, read: () => unknown): void {
  const settle = (value: unknown) => Object.defineProperty(state, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(state, key, {
    get: () => {
      const value = read();
      settle(value);
      return value;
    },
    set: settle,
    enumerable: true,
    configurable: true,
  });
}

/** Whether a member of the state is still to be read (never read nor set): see readOnUse. */
export function unparsed(state: StateCore, key: string): boolean {
  return Object.getOwnPropertyDescriptor(state, key)?.get !== undefined;
}

/**
 * The look-ups by each key, written out whole: a statement is found by its text, and a text made
 * anew at each look-up would be hashed anew each time.
 */
const ROWS_BY_KEY = [
  'SELECT position, value FROM rows WHERE slice = ? AND key0 = ? ORDER BY position',
  'SELECT position, value FROM rows WHERE slice = ? AND key1 = ? ORDER BY position',
] as const;

/**
 * How many rows a slice keeps between transactions, read or written. Past it, they are let go at
 * the end of a transaction and read again when next asked for, so that a server taking an import
 * does not keep each of its contacts (their objects and their text) for as long as it runs.
 */
export const ROWS_KEPT = 1_000;

/** What the store knows of a row it handed out: where it is, and the text it was read or last written as. */
interface RowRecord {
  position: number;
  text: string;
}

type Shaped = Record<string, unknown>;

/**
 * A slice kept as rows. A row handed out is the same object every time; what is done to it, and
 * the rows added and removed, are written at the next save, or before a look-up by key or place
 * reads the database (within the transaction, so a failed request leaves none of it). Reading the
 * slice as a whole (the state's property, as `slice.of` reads it) reads every row into an array,
 * which is then the slice until that save writes it back as rows.
 */
export class SliceRows<T extends object> {
  private kind: RowKind<T> | undefined;
  private readonly layout: RowLayout;
  private readonly objects = new Map<number, T>();
  private records = new WeakMap<T, RowRecord>();
  /** Rows handed out or added since the last look-up: the ones the next look-up writes first. */
  private touched = new Set<T>();
  /** Rows written by a look-up since the last save, which may have changed since: a save looks at them again. */
  private synced = new Set<T>();
  private removed = new Set<T>();
  /**
   * The places nextPlace found, by what it was asked, as the database holds them: a request asks
   * for the next wait's end at its start and at its end, and nearly always nothing moved between.
   * Forgotten at any write of the slice's rows.
   */
  private readonly nextPlaces = new Map<string, string | undefined>();

  constructor(
    readonly key: string,
    private readonly statement: (sql: string) => Statement,
    private readonly state: StateCore,
    private readonly refuse: (reason: string) => Error,
  ) {
    this.layout = ROW_SLICES[key]!;
  }

  bind(kind: RowKind<T>): KeptRows<T> {
    this.kind = kind;
    const { key } = this;
    return {
      loaded: () => !unparsed(this.state, key),
      byId: (id) =>
        this.first(
          this.statement('SELECT position, value FROM rows WHERE slice = ? AND id = ? ORDER BY position').all(key, id),
          (row) => this.idOf(row) === id,
        ),
      byKey: (which, value) => this.first(this.statement(ROWS_BY_KEY[which]).all(key, value), (row) => this.keysOf(row)[which] === value),
      allByKey: (which, value) => {
        this.sync();
        return this.objectsOf(this.statement(ROWS_BY_KEY[which]).all(key, value), (row) => this.keysOf(row)[which] === value);
      },
      placed: (from, below, limit = -1) => {
        this.sync();
        return this.objectsOf(
          this.statement('SELECT position, value FROM rows WHERE slice = ? AND place >= ? AND place < ? ORDER BY place, position LIMIT ?').all(
            key,
            from,
            below,
            limit,
          ),
          (row) => {
            const place = this.layout.place?.(row as Shaped) ?? null;
            return place !== null && place >= from && place < below;
          },
        );
      },
      nextPlace: (after, below) => {
        this.sync();
        const asked = `${after}\u0000${below}`;
        if (this.nextPlaces.has(asked)) return this.nextPlaces.get(asked);
        const found = this.statement('SELECT place FROM rows WHERE slice = ? AND place > ? AND place < ? ORDER BY place LIMIT 1').get(key, after, below);
        const next = found === undefined ? undefined : String(found.place);
        this.nextPlaces.set(asked, next);
        return next;
      },
      countPlaced: (from, below) => {
        this.sync();
        return Number(this.statement('SELECT count(*) AS count FROM rows WHERE slice = ? AND place >= ? AND place < ?').get(key, from, below)!.count);
      },
      every: () => this.all(),
      add: (row) => {
        this.removed.delete(row);
        this.touched.add(row);
      },
      remove: (row) => {
        this.touched.delete(row);
        this.synced.delete(row);
        if (this.records.has(row)) this.removed.add(row);
      },
    };
  }

  /** Makes the slice's property read every row when first read. */
  unload(): void {
    readOnUse(this.state, this.key, () => {
      const all = this.all();
      return this.layout.fromRows?.(all as Shaped[]) ?? all;
    });
  }

  /** Writes what changed: the whole slice when it was read as a whole, else the rows touched. */
  flush(): void {
    if (!unparsed(this.state, this.key)) {
      const value = this.state[this.key];
      const all = (Array.isArray(value) ? value : (this.layout.rowsOf?.(value) ?? [])) as T[];
      const kept = new Set<number>();
      for (const row of all) {
        const record = this.records.get(row);
        if (record !== undefined) kept.add(record.position);
      }
      this.changeRows('DELETE FROM rows WHERE slice = ? AND position NOT IN (SELECT value FROM json_each(?))', this.key, JSON.stringify([...kept]));
      for (const [position, row] of [...this.objects]) if (!kept.has(position)) this.forgetRow(row);
      for (const row of all) this.write(row);
      this.touched.clear();
      this.synced.clear();
      this.removed.clear();
      this.unload();
      return;
    }
    for (const row of this.synced) this.touched.add(row);
    this.sync();
    this.synced.clear();
  }

  /**
   * Lets go of the rows held once more than ROWS_KEPT are, after a transaction that left none to
   * write; never those of a slice read whole, whose array is then the slice.
   */
  letGo(): void {
    if (this.objects.size <= ROWS_KEPT || this.touched.size + this.synced.size + this.removed.size > 0 || !unparsed(this.state, this.key)) return;
    this.objects.clear();
    this.records = new WeakMap();
  }

  /** Removes every row of the slice (it left the state). */
  drop(): void {
    this.changeRows('DELETE FROM rows WHERE slice = ?', this.key);
    this.statement('DELETE FROM row_slices WHERE key = ?').run(this.key);
  }

  /**
   * Writes the rows removed, and those added or handed out since the last look-up, into the open
   * transaction, so that a look-up by key or place reads them as they are. A row written so stays
   * one the save looks at (it may change again); one changed after its look-up is found by its
   * keys as the look-up wrote them until the save, and a look-up drops a row that no longer fits.
   */
  private sync(): void {
    for (const row of this.removed) {
      const record = this.records.get(row);
      if (record !== undefined) this.changeRows('DELETE FROM rows WHERE position = ?', record.position);
      this.forgetRow(row);
      this.synced.delete(row);
    }
    for (const row of this.touched) {
      this.write(row);
      this.synced.add(row);
    }
    this.touched.clear();
    this.removed.clear();
  }

  private idOf(row: T): string {
    return this.layout.id(row as Shaped);
  }

  private keysOf(row: T): readonly [string, string | null] {
    return this.layout.keys(row as Shaped);
  }

  private write(row: T): void {
    const text = JSON.stringify(row);
    const record = this.records.get(row);
    const [key0, key1] = this.keysOf(row);
    const place = this.layout.place?.(row as Shaped) ?? null;
    if (record === undefined) {
      const position = Number(
        this.changeRows('INSERT INTO rows (slice, id, key0, key1, place, value) VALUES (?, ?, ?, ?, ?, ?)', this.key, this.idOf(row), key0, key1, place, text)
          .lastInsertRowid,
      );
      this.records.set(row, { position, text });
      this.objects.set(position, row);
    } else if (record.text !== text) {
      this.changeRows(
        'UPDATE rows SET id = ?, key0 = ?, key1 = ?, place = ?, value = ? WHERE position = ?',
        this.idOf(row),
        key0,
        key1,
        place,
        text,
        record.position,
      );
      record.text = text;
    }
  }

  /** Runs a statement that writes the slice's rows: what nextPlace found may then have moved. */
  private changeRows(sql: string, ...parameters: SqlValue[]): ReturnType<Statement['run']> {
    this.nextPlaces.clear();
    return this.statement(sql).run(...parameters);
  }

  private forgetRow(row: T): void {
    const record = this.records.get(row);
    if (record !== undefined) this.objects.delete(record.position);
    this.records.delete(row);
  }

  /** The object of a row read, the same each time it is read. */
  private objectOf(found: Row): T {
    const position = Number(found.position);
    let row = this.objects.get(position);
    if (row === undefined) {
      const text = String(found.value);
      // Read whole (its kind not asked for), a row is checked with the slice, as slice.of reads it.
      const check = this.kind?.check ?? ((parsed: unknown) => parsed as T);
      try {
        row = check(JSON.parse(text)) as T;
      } catch (error) {
        const issue = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
        const where =
          issue === undefined ? (error instanceof SyntaxError ? ': it is not valid JSON' : '') : `.${issue.path.map(String).join('.')}: ${issue.message}`;
        throw this.refuse(`${this.key} (the row at ${position})${where}`);
      }
      this.objects.set(position, row);
      this.records.set(row, { position, text });
    }
    return row;
  }

  /** The objects of rows read (in the database's order, after a sync) that still fit, but for those removed since. */
  private objectsOf(found: Row[], fits: (row: T) => boolean): T[] {
    const rows: T[] = [];
    for (const each of found) {
      const row = this.objectOf(each);
      if (!this.removed.has(row) && fits(row)) {
        rows.push(row);
        if (!this.synced.has(row)) this.touched.add(row);
      }
    }
    return rows;
  }

  /**
   * The first of the rows found (by position) that still fits, or of those changed or added since
   * the last save that fit now: a row's keys may have changed since it was written.
   */
  private first(found: Row[], fits: (row: T) => boolean): T | undefined {
    let best: T | undefined;
    let bestPosition = Number.POSITIVE_INFINITY;
    for (const candidate of found) {
      const row = this.objectOf(candidate);
      if (this.removed.has(row) || !fits(row)) continue;
      const position = Number(candidate.position);
      if (position < bestPosition) [best, bestPosition] = [row, position];
      break;
    }
    for (const row of this.touched) {
      if (!fits(row)) continue;
      const position = this.records.get(row)?.position ?? Number.MAX_SAFE_INTEGER;
      if (position < bestPosition) [best, bestPosition] = [row, position];
    }
    if (best !== undefined) this.touched.add(best);
    return best;
  }

  /** Every row, in order, with the rows added since the last save and without those removed. */
  private all(): T[] {
    const all: T[] = [];
    for (const found of this.statement('SELECT position, value FROM rows WHERE slice = ? ORDER BY position').all(this.key)) {
      const row = this.objectOf(found);
      if (!this.removed.has(row)) all.push(row);
    }
    for (const row of this.touched) if (!this.records.has(row)) all.push(row);
    return all;
  }
}
