/**
 * Whether dist/ was built from the src/ the tests read: the spawned tests run the built bundles, and
 * a build older than a change to src/ would test the code before it (test/support/setup.ts checks it
 * for every file under test/spawned/).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The build's mark: dist/cli.cjs, which every build writes. */
export const BUILD_MARK = 'dist/cli.cjs';

/** The file under `dir` changed last, with its time. */
function newestUnder(dir: string): { file: string; ms: number } | undefined {
  let newest: { file: string; ms: number } | undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const ms = statSync(file).mtimeMs;
    if (newest === undefined || ms > newest.ms) newest = { file, ms };
  }
  return newest;
}

/** Why the build under `root` cannot be tested as src/ stands (none built, or older than a source file), or undefined when it can. */
export function staleBuild(root: string): string | undefined {
  let builtMs: number;
  try {
    builtMs = statSync(join(root, BUILD_MARK)).mtimeMs;
  } catch {
    return `dist/ is not built: the spawned tests run the built loopsctl. Run \`npm run build\` first (npm test does).`;
  }
  const newest = newestUnder(join(root, 'src'));
  if (newest === undefined || newest.ms <= builtMs) return undefined;
  return `dist/ is older than src/ (${relative(root, newest.file)} changed after the build): the spawned tests would run the code before it. Run \`npm run build\` first (npm test does).`;
}
