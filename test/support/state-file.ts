/**
 * The sandbox's state file as tests look into it: read whole, and damaged the way a person or
 * another program could damage it (a member or a row of the wrong shape), through SQLite itself.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { StateCore } from '../../src/emulator/module.js';
import { defaultStatePath, readState } from '../../src/emulator/state.js';
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
