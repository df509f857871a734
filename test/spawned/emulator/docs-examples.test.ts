/**
 * The examples of docs/sandbox.md marked `<!-- example: … -->` run as written, each in an app of
 * its own with the built `loopsctl/sandbox` installed as npm would put it (and the official `loops`
 * SDK beside it): they assert what they show, so an example that no longer holds fails here.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installSandboxPackage } from '../../support/installed-sandbox.js';
import { tempDir } from '../../support/temp.js';

const REPO = resolve(import.meta.dirname, '../../..');

/** The docs' marked examples, by name: the first js block after each marker. */
function examples(): Map<string, string> {
  const text = readFileSync(join(REPO, 'docs/sandbox.md'), 'utf8');
  const found = new Map<string, string>();
  for (const match of text.matchAll(/<!-- example: (\w+)[^>]*-->\n```js\n([\s\S]*?)\n```/g)) found.set(match[1]!, match[2]!);
  return found;
}

function appWith(source: string): string {
  const app = tempDir('loopsctl-docs-example-');
  installSandboxPackage(app);
  symlinkSync(join(REPO, 'node_modules/loops'), join(app, 'node_modules/loops'), 'dir');
  writeFileSync(join(app, 'package.json'), '{"type": "module"}\n');
  writeFileSync(join(app, 'example.js'), `${source}\n`);
  return app;
}

describe('the examples of docs/sandbox.md', () => {
  it('has the examples this runs', () => {
    expect([...examples().keys()].sort()).toEqual(['activity', 'interceptor', 'trial']);
  });

  for (const name of ['activity', 'interceptor', 'trial']) {
    it(`runs "${name}" as written`, () => {
      const app = appWith(examples().get(name)!);
      // The time limit only stops a run that never ends (a sandbox left open), which is a failure.
      const run = spawnSync(process.execPath, ['example.js'], {
        cwd: app,
        env: { PATH: process.env.PATH ?? '', HOME: app },
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect(run.signal, `did not end on its own:\n${run.stderr}`).toBeNull();
      expect(run.status, run.stderr).toBe(0);
    });
  }
});
