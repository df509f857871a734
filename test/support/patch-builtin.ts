/**
 * Replaces members of a Node builtin (node:fs, node:fs/promises) for the test that calls it, so
 * that a test can count what the sources ask of the system, refuse it or move something at an exact
 * point, without vi.mock and so in a process it shares with other files (vitest.config.ts).
 *
 * vitest leaves the builtins to Node: a source's `import { writeSync } from 'node:fs'` reads the
 * member of Node's own module when it is called. A builtin's ES module takes its members from the
 * CommonJS object (`import fs from 'node:fs'`) and `syncBuiltinESMExports()` brings them up to
 * date with it, so a member replaced on that object and synced reaches every module, the sources
 * loaded before the test as well. The replacement holds for the whole process: it is put back, and
 * synced again, when the test ends (pass or fail), or earlier by calling what this returns.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { onTestFinished } from 'vitest';

type Replacements<M> = { [K in keyof M]?: (original: M[K]) => M[K] };

/** The members replaced now, by builtin: one replacement of a member at a time, so each puts back the original. */
const replaced = new Map<object, Set<PropertyKey>>();

/**
 * Replaces each member named in `replace` with what its function makes of the original; `builtin`
 * is the CommonJS object (`import fs from 'node:fs'`), not a namespace (`import * as fs`), whose
 * members cannot be set. Only inside a test (or its beforeEach).
 */
export function patchBuiltin<M extends object>(builtin: M, replace: Replacements<M>): () => void {
  if (Object.prototype.toString.call(builtin) === '[object Module]')
    throw new TypeError("patchBuiltin takes a builtin's CommonJS object (import fs from 'node:fs'), not its namespace");
  const keys = Object.keys(replace) as (keyof M & string)[];
  const members = replaced.get(builtin) ?? new Set();
  const twice = keys.find((key) => members.has(key));
  if (twice !== undefined) throw new Error(`${twice} is replaced already: replace it once, with what the test needs`);
  const originals = new Map(keys.map((key) => [key, builtin[key]] as const));
  const restore = () => {
    if (originals.size === 0) return;
    for (const [key, original] of originals) {
      builtin[key] = original;
      members.delete(key);
    }
    originals.clear();
    syncBuiltinESMExports();
  };
  // Registered before anything is replaced: outside a test this throws, and nothing is left replaced.
  onTestFinished(restore);
  replaced.set(builtin, members);
  for (const [key, original] of originals) {
    builtin[key] = replace[key]!(original);
    members.add(key);
  }
  syncBuiltinESMExports();
  return restore;
}

/**
 * For the rest of the test, every `writeSync` takes at most `most` bytes of what it is given, as a
 * system may (a signal, a disk that fills part-way): text too, the first bytes of its UTF-8.
 */
export function cutWritesShort(most = 7): void {
  patchBuiltin(fs, {
    writeSync: (writeSync) =>
      ((fd: number, data: unknown, ...rest: unknown[]) => {
        if (typeof data === 'string') return writeSync(fd, Buffer.from(data), 0, Math.min(most, Buffer.byteLength(data)));
        if (!Buffer.isBuffer(data)) return (writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
        const offset = typeof rest[0] === 'number' ? rest[0] : 0;
        const length = typeof rest[1] === 'number' ? rest[1] : data.length - offset;
        return writeSync(fd, data, offset, Math.min(most, length));
      }) as typeof writeSync,
  });
}
