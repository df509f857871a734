import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleBuild } from '../../support/build-fresh.js';
import { tempDir } from '../../support/temp.js';

/** A project with src/ files and a build, each file's time given in seconds. */
function project(files: Record<string, number>): string {
  const root = tempDir();
  for (const [path, seconds] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  }
  return root;
}

describe('staleBuild', () => {
  it('passes a build made after every source file', () => {
    expect(staleBuild(project({ 'src/a.ts': 100, 'src/deep/b.ts': 200, 'dist/cli.cjs': 300 }))).toBeUndefined();
  });

  it('names the source file changed after the build, and says to build', () => {
    const stale = staleBuild(project({ 'src/a.ts': 100, 'src/deep/b.ts': 400, 'dist/cli.cjs': 300 }));
    expect(stale).toBe(
      'dist/ is older than src/ (src/deep/b.ts changed after the build): the spawned tests would run the code before it. Run `npm run build` first (npm test does).',
    );
  });

  it('says to build when there is no build', () => {
    expect(staleBuild(project({ 'src/a.ts': 100 }))).toMatch(/^dist\/ is not built: .* Run `npm run build` first/);
  });
});
