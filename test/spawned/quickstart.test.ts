/**
 * The README's Quickstart, as written, in a fresh clone of the repository: the first commands a
 * newcomer copies. The clone's packages come from npm's cache (offline), where the `npm ci` that
 * set up this checkout left them: a real install, with the clone's own `prepare` build, as a
 * newcomer's `npm install` does, without the network. Before that, the clone's bin says in one
 * line that it is not built. A clone and a build of its own take a minute or more of CPU, more than
 * any other file of the suite: this runs with the package's check (`npm run check:package`, which
 * sets LOOPSCTL_TEST_QUICKSTART=1), as CI does after `npm test`, which skips it and says so.
 *
 * The shell's `node` is one older than loopsctl runs on where the machine has one (Node 20, the
 * `node` of many machines, CI's among them): the install fetches the Node the clone runs on (the
 * `node` package, from the same cache), and the commands run as written all the same.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { olderNode } from '../support/programs.js';
import { tempDir } from '../support/temp.js';

const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The ```sh blocks of the README's section `## <title>`, as lists of command lines without comments. */
function blocks(title: string): string[][] {
  const section = readme.split(/^## /m).find((part) => part.startsWith(`${title}\n`));
  if (section === undefined) throw new Error(`the README has no section "${title}"`);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map(([, block]) =>
    block!
      .split('\n')
      .map((line) => line.replace(/\s+#\s.*$/, '').trim())
      .filter((line) => line !== ''),
  );
}

const enabled = process.env.LOOPSCTL_TEST_QUICKSTART === '1';
if (!enabled) process.stderr.write('test/spawned/quickstart.test.ts: skipped, run `npm run check:package` to try the Quickstart in a fresh clone\n');

const work = enabled ? tempDir('loopsctl-quickstart-') : '';

/**
 * The npm cache this run's npm uses, wherever it was set (npm_config_cache, an .npmrc, the
 * default): the clone's offline install finds its packages there, not in ~/.npm.
 */
const npmCache = enabled ? execFileSync('npm', ['config', 'get', 'cache'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() : '';

const oldNode = olderNode().node;
/** The directory of the shell's `node`, first on its PATH: the older Node, where there is one. */
const oldNodeDir = join(work, 'old-node');
if (enabled && oldNode !== undefined) {
  mkdirSync(oldNodeDir);
  symlinkSync(oldNode, join(oldNodeDir, 'node'));
}

/** A shell command line in the clone, as a person would type it; npm stays offline and quiet. */
function shell(line: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = {
    PATH: oldNode === undefined ? (process.env.PATH ?? '') : `${oldNodeDir}${delimiter}${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '',
    LOOPSCTL_CONFIG_DIR: join(work, 'config'),
    XDG_CACHE_HOME: join(work, 'cache'),
    npm_config_cache: npmCache,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  return new Promise((resolvePromise, reject) => {
    const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe.runIf(enabled)('the Quickstart in a fresh clone', () => {
  const clone = join(work, 'loopsctl');

  it('says in one line that the clone is not built yet, before the install, through npx too', async () => {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { stdio: 'ignore' });
    // On a Node too old, that comes first: the same remedy, the install, which fetches one.
    const notBuilt =
      oldNode === undefined
        ? /^loopsctl: not built yet \(no .*dist\/cli\.cjs\): run npm install, which builds it \(or npm run build\)$/m
        : /^loopsctl: runs on Node\.js 22\.13\.0 or later, and this is Node\.js \d+\.\d+\.\d+ \(.*\): run npm install in .*, which fetches a Node it runs on into node_modules\/node$/m;
    const result = await shell('node bin/loopsctl.js --sandbox workflow list', clone);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^${notBuilt.source.slice(1, -1)}\n$`));
    // npx links the clone into its own cache and runs its prepare script, which finds no build
    // tools yet: the bin says the same, and npx's cache stays whole for the run after the install.
    const npx = await shell('npx loopsctl --sandbox workflow list', clone);
    expect(npx.code, npx.stderr).toBe(2);
    expect(npx.stderr).toMatch(notBuilt);
    expect(npx.stderr.split('\n').filter((line) => !line.startsWith('npm warn'))).toHaveLength(2);
  });

  it('runs as written: the install builds, and loopsctl lists the sandbox workflows', { timeout: 600_000 }, async () => {
    const [setUp, tests] = blocks('Quickstart');
    expect(setUp![0]).toBe('npm install');
    // Started by the shell's own node, the clone's bin runs on the Node the install fetched.
    expect(setUp).toContain('node bin/loopsctl.js --sandbox workflow list');
    for (const line of setUp!) {
      const result = await shell(line, clone);
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      if (line.includes('workflow list')) expect([result.stdout, result.stderr]).toEqual([expect.stringMatching(/\tTrial conversion\t/), '']);
      // What a Node too old gets from npm is its warning about the clone's engines, never a stack trace.
      expect(result.stderr).not.toMatch(/^\s+at /m);
      // package.json's allowScripts approves (or turns down) every install script: npm 11.16 and later list none.
      expect(result.stderr).not.toContain('not yet covered by allowScripts');
    }
    // The Node the `node` package's preinstall fetched is there, whatever npm made of allowScripts.
    const fetched = await shell('node_modules/node/bin/node --version', clone);
    expect(fetched.stdout.trim()).toBe(`v${JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).devDependencies.node}`);
    // npx runs the same, more slowly (docs/install.md says why).
    const npx = await shell('npx loopsctl --sandbox workflow list', clone);
    expect(npx.code, npx.stderr).toBe(0);
    expect(npx.stdout).toMatch(/\tTrial conversion\t/);
    // The second command is the test suite, which CI runs in a clone after `npm ci`, and this test after it.
    expect(tests).toEqual(['npm test']);
  });
});
