/**
 * loopsctl/sandbox as the build makes it (dist/sandbox): its ES module entry and its CommonJS one
 * both start a sandbox, whose bundle runs with V8's code cache: the one the build recorded beside
 * it, or, where none serves (the npm package ships none), one written to the user's cache
 * directory by a first run and read by the next. Spawns Node on a script of its own (npm test
 * builds first); nothing here is timed.
 */
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../../support/run-cli.js';
import { runNode } from '../../support/run-node.js';
import { tempDir } from '../../support/temp.js';

const REPO = resolve(import.meta.dirname, '../../..');
const scratch = tempDir('loopsctl-sandbox-bundle-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A script that starts a sandbox from `entry`, finds a contact through it over HTTP, and prints the answer's status and body. */
function appScript(name: string, entry: string, importIt: boolean): string {
  const load = importIt ? `const { startSandbox } = await import(${JSON.stringify(entry)});` : `const { startSandbox } = require(${JSON.stringify(entry)});`;
  const file = join(scratch, name);
  const body = [
    load,
    "const sandbox = await startSandbox({ seed: 'demo' });",
    'const answer = await fetch(`${sandbox.url}/v1/contacts/find?email=ada%40example.com`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });',
    'console.log(answer.status, JSON.stringify(await answer.json()));',
    'await sandbox.close();',
  ].join('\n');
  writeFileSync(file, importIt ? body : `(async () => {\n${body}\n})();\n`);
  return file;
}

function spawnNode(script: string, cacheHome: string): Promise<CliResult> {
  return runNode([script], { PATH: process.env.PATH ?? '', HOME: scratch, XDG_CACHE_HOME: cacheHome, LOOPSCTL_REPORT_CODE_CACHE: '1' });
}

describe("loopsctl/sandbox's bundle", () => {
  const shipped = join(REPO, 'dist/sandbox', `sandbox.cjs.${process.version}-${process.arch}.cache`);

  it('starts a sandbox from its ES module entry, with the code cache the build recorded beside it', async () => {
    const result = await spawnNode(appScript('app.mjs', join(REPO, 'dist/sandbox/index.mjs'), true), join(scratch, 'cache-esm'));
    expect(result.stdout).toMatch(/^200 \[\{"id":"[^"]+","email":"ada@example.com"/);
    expect(result.stderr).toBe(`sandbox code cache: used ${shipped}\n`);
    expect(result.code).toBe(0);
  });

  it('starts one from its CommonJS entry the same way', async () => {
    const result = await spawnNode(appScript('app.cjs', join(REPO, 'dist/sandbox/index.cjs'), false), join(scratch, 'cache-cjs'));
    expect(result.stdout).toMatch(/^200 \[\{"id":"[^"]+","email":"ada@example.com"/);
    expect(result.stderr).toBe(`sandbox code cache: used ${shipped}\n`);
  });

  it("names its bundle where it is in an app's stack traces, not where the build made it", async () => {
    // V8 keeps the name a script was compiled under in its cache, over the name a later run gives.
    const script = join(scratch, 'stack.mjs');
    writeFileSync(
      script,
      [
        `const { startSandbox } = await import(${JSON.stringify(join(REPO, 'dist/sandbox/index.mjs'))});`,
        "await startSandbox({ fixtures: '/no/such/fixtures.json' }).catch((error) => console.log(error.stack));",
      ].join('\n'),
    );
    const result = await spawnNode(script, join(scratch, 'cache-stack'));
    expect(result.stderr).toBe(`sandbox code cache: used ${shipped}\n`);
    expect(result.stdout).toContain(` (${join(REPO, 'dist/sandbox/sandbox.cjs')}:`);
    expect(result.stdout).not.toContain('.build-');
  });

  it('without a shipped cache, as the npm package is, writes one in the cache directory at its first run and uses it from the next', async () => {
    const copy = join(scratch, 'package/dist/sandbox');
    const noCache = (source: string) => !source.endsWith('.cache');
    cpSync(join(REPO, 'dist/sandbox'), copy, { recursive: true, filter: noCache });
    // With the files it shares with the CLI (zod, yaml, the icons' glyphs), beside it as in the package.
    cpSync(join(REPO, 'dist/vendor'), join(copy, '../vendor'), { recursive: true, filter: noCache });
    const script = appScript('copy.mjs', join(copy, 'index.mjs'), true);
    const cacheHome = join(scratch, 'cache-package');
    const first = await spawnNode(script, cacheHome);
    expect(first.stderr).toBe('sandbox code cache: not used (none yet)\n');
    expect(readdirSync(join(cacheHome, 'loopsctl'))).toEqual([expect.stringMatching(/^sandbox@[^/]+\.cache$/)]);
    const second = await spawnNode(script, cacheHome);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(new RegExp(`^sandbox code cache: used ${cacheHome}/loopsctl/sandbox@[^/]+\\.cache\\n$`));
  });
});
