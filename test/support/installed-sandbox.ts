/**
 * loopsctl/sandbox installed into an app's node_modules from the build, as the npm package lays it
 * out: package.json, dist/sandbox/ and the files of dist/vendor/ it shares with the CLI (zod,
 * yaml, the icons' glyphs), which it requires beside it.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '../..');

/** Installs loopsctl/sandbox into `app`/node_modules/loopsctl; the directory it made. */
export function installSandboxPackage(app: string): string {
  const installed = join(app, 'node_modules/loopsctl');
  mkdirSync(join(installed, 'dist'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(installed, 'package.json'));
  for (const shipped of ['dist/sandbox', 'dist/vendor']) cpSync(join(REPO, shipped), join(installed, shipped), { recursive: true });
  return installed;
}
