/**
 * `loopsctl/sandbox` as an app uses it: the example app in test/examples/app, with the package
 * installed as npm would put it (package.json and dist/ in its node_modules), runs its own vitest
 * suite, which starts sandboxes from a fixture file and tests its handling of 429s. The suite must
 * pass and end on its own: a sandbox left running would keep it from exiting. It is run once: an
 * app's sandboxes keep their state in memory and write no file (a run leaves the app as it found
 * it but for vitest's own results), so a second run met what the first did. Its TypeScript is
 * checked against the package's declarations, as the app's editor would.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installSandboxPackage } from '../../support/installed-sandbox.js';
import { HUNG_AFTER_MS } from '../../support/run-cli.js';
import { tempDir } from '../../support/temp.js';

const REPO = resolve(import.meta.dirname, '../../..');

/** The example app in a directory of its own, with loopsctl installed from the build, and vitest and Node's types beside it. */
function exampleApp(): string {
  const app = tempDir('loopsctl-example-app-');
  cpSync(join(REPO, 'test/examples/app'), app, { recursive: true });
  installSandboxPackage(app);
  symlinkSync(join(REPO, 'node_modules/vitest'), join(app, 'node_modules/vitest'), 'dir');
  mkdirSync(join(app, 'node_modules/@types'));
  symlinkSync(join(REPO, 'node_modules/@types/node'), join(app, 'node_modules/@types/node'), 'dir');
  return app;
}

describe('an app testing with loopsctl/sandbox', () => {
  it('runs its vitest suite, which ends on its own, and type-checks against the package', () => {
    const app = exampleApp();
    const env = { PATH: process.env.PATH ?? '', HOME: app, CI: '1', NO_COLOR: '1' };
    // The time limit only stops a run that never ends, which is the failure: a leaked server.
    const suite = spawnSync(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run'], {
      cwd: app,
      env,
      encoding: 'utf8',
      timeout: HUNG_AFTER_MS,
    });
    expect(suite.signal, `the run did not end on its own:\n${suite.stdout}\n${suite.stderr}`).toBeNull();
    expect(suite.status, `${suite.stdout}\n${suite.stderr}`).toBe(0);
    expect(suite.stdout).toMatch(/Tests\s+3 passed \(3\)/);
    const typed = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', app], { cwd: app, env, encoding: 'utf8' });
    expect(typed.status, typed.stdout).toBe(0);
  });
});
