/**
 * The slices the sandbox's state file keeps as rows (state-store.ts): those that grow with the
 * audience, a row each, found by id or by one of two keys through an index, handed out as the same
 * object each time and written back only when changed.
 */
import type { KeptRows, RowKind, StateCore } from './module.js';

type SqlValue = string | number | bigint | null | Uint8Array;
export type Row = Record<string, SqlValue>;
/** The part of node:sqlite's prepared statements the store uses. */
export interface Statement {
  run(...parameters: SqlValue[]): { lastInsertRowid: number | bigint };
  get(...parameters: SqlValue[]): Row | undefined;
  all(...parameters: SqlValue[]): Row[];
}

/**
 * The slices kept as rows, those that grow with the audience, and each row's two keys (the second
 * may be null), by which KeptRows.byKey finds it: a contact by its email in lower case, as the API
 * compares emails, and by its userId.
 */
export const ROW_SLICES: Record<string, (row: Record<string, unknown>) => readonly [string, string | null]> = {
  contacts: (contact) => [String(contact.email).toLowerCase(), typeof contact.userId === 'string' ? contact.userId : null],
};

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

/** What the store knows of a row it handed out: where it is, and the text it was read or last written as. */
interface RowRecord {
  position: number;
  id: string;
  text: string;
}

/**
 * A slice kept as rows. A row handed out is the same object every time; what is done to it, and
 * the rows added and removed, are written at the next save. Reading the slice as a whole (the
 * state's property, as `slice.of` reads it) reads every row into an array, which is then the
 * slice until that save writes it back as rows.
 */
export class SliceRows<T extends { id: string }> {
  private kind: RowKind<T> | undefined;
  private readonly keysOf: (row: T) => readonly [string, string | null];
  private readonly objects = new Map<number, T>();
  private readonly records = new WeakMap<T, RowRecord>();
  /** Rows handed out or added since the last save: the ones a save looks at. */
  private touched = new Set<T>();
  private removed = new Set<T>();

  constructor(
    readonly key: string,
    private readonly statement: (sql: string) => Statement,
    private readonly state: StateCore,
    private readonly refuse: (reason: string) => Error,
  ) {
    this.keysOf = ROW_SLICES[key]! as unknown as (row: T) => readonly [string, string | null];
  }

  bind(kind: RowKind<T>): KeptRows<T> {
    this.kind = kind;
    return {
      loaded: () => !unparsed(this.state, this.key),
      byId: (id) =>
        this.first(this.statement('SELECT position, value FROM rows WHERE slice = ? AND id = ? ORDER BY position').all(this.key, id), (row) => row.id === id),
      byKey: (which, value) =>
        this.first(
          this.statement(`SELECT position, value FROM rows WHERE slice = ? AND key${which} = ? ORDER BY position`).all(this.key, value),
          (row) => this.keysOf(row)[which] === value,
        ),
      add: (row) => {
        this.removed.delete(row);
        this.touched.add(row);
      },
      remove: (row) => {
        this.touched.delete(row);
        if (this.records.has(row)) this.removed.add(row);
      },
    };
  }

  /** Makes the slice's property read every row when first read. */
  unload(): void {
    readOnUse(this.state, this.key, () => this.all());
  }

  /** Writes what changed: the whole slice when it was read as an array, else the rows touched. */
  flush(): void {
    if (!unparsed(this.state, this.key)) {
      const all = this.state[this.key] as T[];
      const kept = new Set<number>();
      for (const row of all) {
        const record = this.records.get(row);
        if (record !== undefined) kept.add(record.position);
      }
      this.statement('DELETE FROM rows WHERE slice = ? AND position NOT IN (SELECT value FROM json_each(?))').run(this.key, JSON.stringify([...kept]));
      for (const [position, row] of [...this.objects]) if (!kept.has(position)) this.forgetRow(row);
      for (const row of all) this.write(row);
      this.touched.clear();
      this.removed.clear();
      this.unload();
      return;
    }
    for (const row of this.removed) {
      const record = this.records.get(row);
      if (record !== undefined) this.statement('DELETE FROM rows WHERE position = ?').run(record.position);
      this.forgetRow(row);
    }
    for (const row of this.touched) this.write(row);
    this.touched.clear();
    this.removed.clear();
  }

  /** Removes every row of the slice (it left the state). */
  drop(): void {
    this.statement('DELETE FROM rows WHERE slice = ?').run(this.key);
    this.statement('DELETE FROM row_slices WHERE key = ?').run(this.key);
  }

  private write(row: T): void {
    const text = JSON.stringify(row);
    const record = this.records.get(row);
    const [key0, key1] = this.keysOf(row);
    if (record === undefined) {
      const position = Number(
        this.statement('INSERT INTO rows (slice, id, key0, key1, value) VALUES (?, ?, ?, ?, ?)').run(this.key, row.id, key0, key1, text).lastInsertRowid,
      );
      this.records.set(row, { position, id: row.id, text });
      this.objects.set(position, row);
    } else if (record.text !== text) {
      this.statement('UPDATE rows SET id = ?, key0 = ?, key1 = ?, value = ? WHERE position = ?').run(row.id, key0, key1, text, record.position);
      record.text = text;
      record.id = row.id;
    }
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
        throw this.refuse(`${this.key} (the row at ${position})${issue === undefined ? '' : `.${issue.path.map(String).join('.')}: ${issue.message}`}`);
      }
      this.objects.set(position, row);
      this.records.set(row, { position, id: row.id, text });
    }
    return row;
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
