/**
 * Paths kept under one directory: the root a person gives `loopsctl mcp`, outside which an agent's
 * call may neither read nor write. A path is taken relative to the root; `..`, an absolute path
 * elsewhere and a symbolic link that leads out of it all end outside, and are refused.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../base/errors.js';

/** The path resolved under the root, or a usage error naming what was given. */
export function pathUnder(root: string, path: string, what: string): string {
  const realRoot = realpathSync(root);
  const full = resolve(realRoot, path);
  // The deepest part of the path that exists, with its links followed, must stay inside.
  let existing = full;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const reached = resolve(realpathSync(existing), relative(existing, full));
  if (!inside(realRoot, full) || !inside(realRoot, reached)) {
    throw new UsageError(`${what} "${path}" is outside the directory this server may use`, {
      hint: 'give a path relative to the root the server was started with (--root)',
    });
  }
  return reached;
}

function inside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}
