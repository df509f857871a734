/**
 * Paths kept under one directory: the root a person gives `loopsctl mcp`, outside which an agent's
 * call may neither read nor write. A path is taken relative to the root; `..`, an absolute path
 * elsewhere and a symbolic link anywhere under the root (one that leads out, one that leads
 * nowhere yet, one that stays inside) are all refused: nothing under the root is reached through
 * a link, as a content tree's files never are (src/base/tree-files.ts).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../base/errors.js';

/** The path resolved under the root, or a usage error naming what was given. */
export function pathUnder(root: string, path: string, what: string): string {
  return placeUnder(root, path, what).full;
}

/**
 * The path under the root as the root (its real path) and the path below it, every segment that
 * exists looked at with lstat: what the tree-files module then reads and writes it by.
 */
export function placeUnder(root: string, path: string, what: string): { root: string; path: string; full: string } {
  const realRoot = realpathSync(root);
  const full = resolve(realRoot, path);
  const rest = relative(realRoot, full);
  const outside = () =>
    new UsageError(`${what} "${path}" is outside the directory this server may use`, {
      hint: 'give a path relative to the root the server was started with (--root)',
    });
  if (rest.startsWith('..') || isAbsolute(rest)) throw outside();
  let reached = realRoot;
  for (const segment of rest === '' ? [] : rest.split(sep)) {
    reached = join(reached, segment);
    const stats = lstatSync(reached, { throwIfNoEntry: false });
    if (stats === undefined) break;
    if (stats.isSymbolicLink()) {
      // A link that leads out is said as such; any other is refused too, dangling or not.
      throw realTarget(reached)?.startsWith(realRoot + sep) === false
        ? outside()
        : new UsageError(`${what} "${path}" passes through a symbolic link (${relative(realRoot, reached)}), which this server never follows`, {
            hint: 'give the path of the file itself',
          });
    }
  }
  return { root: realRoot, path: rest, full };
}

/** Where a link leads, or undefined when it leads nowhere. */
function realTarget(link: string): string | undefined {
  try {
    return realpathSync(link);
  } catch {
    return undefined;
  }
}
