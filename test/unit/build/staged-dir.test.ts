/**
 * The build replaces dist/ whole (src/build/staged-dir.mjs, which src/build/build.mjs makes its
 * tree through): a run of the CLI in another shell while `npm test` builds finds the old build
 * whole until the new one is whole, never a mix of the two.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageBeside } from '../../../src/build/staged-dir.mjs';
import { tempDir } from '../../support/temp.js';

const OLD = { 'cli.cjs': 'old cli', 'vendor/jq.cjs': 'old jq', 'help/index.json': '[]' };
const NEW = { 'cli.cjs': 'new cli', 'vendor/jq.cjs': 'new jq', 'vendor/mjml.cjs': 'new mjml', 'sandbox/index.cjs': 'new sandbox' };

function writeTree(dir: string, tree: Record<string, string>): void {
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** Every file under dir by its path, or undefined when there is no dir. */
function treeOf(dir: string): Record<string, string> | undefined {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(dir, path)).isFile());
  return Object.fromEntries(files.sort().map((path) => [path, readFileSync(join(dir, path), 'utf8')]));
}

describe('the build replaces dist/ whole', () => {
  it('makes the new tree beside dist/ while dist/ stays the old one, whole, then puts it in place', () => {
    const root = tempDir('loopsctl-staged-');
    const target = join(root, 'dist');
    writeTree(target, OLD);
    const stage = stageBeside(target);
    // Beside dist/, so on its file system, where one rename moves a whole tree.
    expect(dirname(stage.staged)).toBe(root);
    for (const [path, text] of Object.entries(NEW)) {
      writeTree(stage.dir, { [path]: text });
      expect(treeOf(target)).toEqual(OLD);
    }
    stage.replace();
    expect(treeOf(target)).toEqual(NEW);
    stage.remove();
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('leaves a file open in the old build readable whole, as a run that started before the build reads it', () => {
    const root = tempDir('loopsctl-staged-');
    const target = join(root, 'dist');
    writeTree(target, { 'cli.cjs': 'x'.repeat(64 * 1024) });
    const open = openSync(join(target, 'cli.cjs'), 'r');
    try {
      const stage = stageBeside(target);
      writeTree(stage.dir, { 'cli.cjs': 'new cli' });
      stage.replace();
      const read = Buffer.alloc(64 * 1024 + 1);
      expect(readSync(open, read, 0, read.length, 0)).toBe(64 * 1024);
      expect(readFileSync(join(target, 'cli.cjs'), 'utf8')).toBe('new cli');
      stage.remove();
    } finally {
      closeSync(open);
    }
  });

  it('puts the tree in place where there was no dist/ yet', () => {
    const root = tempDir('loopsctl-staged-');
    const target = join(root, 'dist');
    const stage = stageBeside(target);
    writeTree(stage.dir, NEW);
    expect(treeOf(target)).toBeUndefined();
    stage.replace();
    expect(treeOf(target)).toEqual(NEW);
    stage.remove();
  });

  it('is what the build makes dist/ through: dist/ is named once, to stage beside it', () => {
    const build = readFileSync(join(import.meta.dirname, '../../../src/build/build.mjs'), 'utf8');
    expect(build.match(/\.\.\/\.\.\/dist\b/g)).toEqual(['../../dist']);
    expect(build).toContain("stageBeside(fileURLToPath(new URL('../../dist', import.meta.url)))");
    expect(build).toMatch(/\nstage\.replace\(\);\n/);
    // Every file of the build goes under the staged tree.
    expect(build).toContain("const dist = join(stage.dir, '/');");
  });
});
