/**
 * The sandbox's state file as tests look into it: read whole, and damaged the way a person or
 * another program could damage it (a member or a row of the wrong shape), through SQLite itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { StateCore } from '../../src/emulator/module.js';
import { defaultStatePath, readState } from '../../src/emulator/state/index.js';
import { sandboxModules } from './sandbox.js';

/** The file a config directory's sandbox keeps its state in. */
export function stateFileIn(configDir: string): string {
  return defaultStatePath(configDir);
}

/** The whole state of a state file, or of a config directory's (every slice read and checked). */
export function stateIn(fileOrConfigDir: string): StateCore & Record<string, any> {
  const file = fileOrConfigDir.endsWith('.db') || fileOrConfigDir.endsWith('.json') ? fileOrConfigDir : join(fileOrConfigDir, 'sandbox-state.db');
  const state = readState(file, sandboxModules);
  if (state === undefined) throw new Error(`no sandbox state at ${file}`);
  return state;
}

/** Sets a member of the state (a slice, or the team's own fields) to this JSON text, as an edit by hand would. */
export function setMember(file: string, key: string, json: string): void {
  withDatabase(file, (database) => database.prepare('UPDATE members SET value = ? WHERE key = ?').run(json, key));
}

/** Adds a row to a row slice (contacts) holding this JSON text, found by these keys. */
export function addRow(file: string, slice: string, id: string, keys: [string, string | null], json: string): void {
  withDatabase(file, (database) =>
    database.prepare('INSERT INTO rows (slice, id, key0, key1, value) VALUES (?, ?, ?, ?, ?)').run(slice, id, keys[0], keys[1], json),
  );
}

/** Runs SQL on a state file as another program would, and answers the rows it gives. */
export function queryState(file: string, sql: string): Record<string, unknown>[] {
  let rows: Record<string, unknown>[] = [];
  withDatabase(file, (database) => (rows = database.prepare(sql).all() as Record<string, unknown>[]));
  return rows;
}

function withDatabase(file: string, fn: (database: DatabaseSync) => unknown): void {
  const database = new DatabaseSync(file);
  try {
    database.exec('PRAGMA busy_timeout = 5000');
    fn(database);
  } finally {
    database.close();
  }
}

/**
 * How many transactions the write-ahead log beside a state file holds, as SQLite's file format
 * says (https://www.sqlite.org/fileformat2.html#walformat): a frame header's second field is the
 * database's size after a commit, "for all other records, zero"; frames whose salt is not the
 * header's are left from before the log was started over.
 */
export function commitsLogged(file: string): number {
  const log = `${file}-wal`;
  if (!existsSync(log)) return 0;
  const bytes = readFileSync(log);
  if (bytes.length < 32) return 0;
  const pageSize = bytes.readUInt32BE(8);
  let commits = 0;
  for (let frame = 32; frame + 24 + pageSize <= bytes.length; frame += 24 + pageSize) {
    if (!bytes.subarray(frame + 8, frame + 16).equals(bytes.subarray(16, 24))) break;
    if (bytes.readUInt32BE(frame + 4) !== 0) commits += 1;
  }
  return commits;
}
