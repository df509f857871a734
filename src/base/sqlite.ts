/**
 * node:sqlite, loaded on first use. Node 22 says "SQLite is an experimental feature" as it loads
 * the module: a command's stderr is the person's, and an app's log is the app's, so that one
 * warning is passed over. Undefined on a Node without it (20).
 */
import { builtinModule } from './builtin.js';

let loaded: typeof import('node:sqlite') | undefined;

export function quietSqlite(): typeof import('node:sqlite') | undefined {
  if (loaded !== undefined) return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/\bSQLite\b/.test(text)) return;
    return (emitWarning as (...parameters: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    loaded = builtinModule('node:sqlite');
  } catch {
    // A Node without it: the caller says so.
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded?.DatabaseSync === undefined ? undefined : loaded;
}
