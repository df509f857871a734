/**
 * loopsctl started by a Node older than it runs on (Node 20, still many machines' `node`): in a
 * clone, bin/loopsctl.js runs itself on the Node the clone's `npm install` fetched
 * (node_modules/node, the `node` development dependency); anywhere else it says in one line, at
 * once, which Node it needs and what to run, as the build (`prepare`) does. Never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { olderNode, oldestNode } from '../support/programs.js';
import { tempDir } from '../support/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const old = olderNode();

/** Runs `node script args` with the older Node, a config directory of its own and no terminal. */
function runOld(script: string, args: string[], cwd = ROOT) {
  const config = tempDir();
  const env = { PATH: process.env.PATH, HOME: config, LOOPSCTL_CONFIG_DIR: config, XDG_CACHE_HOME: join(config, 'cache'), DO_NOT_TRACK: '1' };
  const result = spawnSync(old.node!, [script, ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The bin alone in a folder, as a package or a clone before its install holds it. */
function binIn(folder: string, { clone }: { clone: boolean }): string {
  mkdirSync(join(folder, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin', 'loopsctl.js'), join(folder, 'bin', 'loopsctl.js'));
  copyFileSync(join(ROOT, 'bin', 'package.json'), join(folder, 'bin', 'package.json'));
  copyFileSync(join(ROOT, 'package.json'), join(folder, 'package.json'));
  if (clone) {
    mkdirSync(join(folder, 'src', 'build'), { recursive: true });
    writeFileSync(join(folder, 'src', 'build', 'prepare.mjs'), '');
  }
  return join(folder, 'bin', 'loopsctl.js');
}

describe('on a Node older than loopsctl runs on', () => {
  const oldest = oldestNode().join('.');

  it(old.title('runs the clone on the Node its install fetched, with the command’s own output and exit code'), { skip: old.skip }, () => {
    expect(existsSync(join(ROOT, 'node_modules', 'node', 'bin', 'node')), 'npm install fetches node_modules/node').toBe(true);
    const listed = runOld('bin/loopsctl.js', ['--sandbox', 'workflow', 'list']);
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    expect(listed.stdout).toMatch(/\tTrial conversion\t/);
    const missing = runOld('bin/loopsctl.js', ['--sandbox', 'api', '/v1/no-such-path']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^Error: no such path/);
  });

  it(old.title('says in one line, before anything else, what an installed package needs (exit 2)'), { skip: old.skip }, () => {
    const result = runOld(binIn(tempDir(), { clone: false }), ['--sandbox', 'workflow', 'list']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const version = spawnSync(old.node!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    expect(result.stderr).toBe(
      `loopsctl: runs on Node.js ${oldest} or later, and this is Node.js ${version} (${old.node}): install that Node, or the single executable, which brings its own (see docs/install.md)\n`,
    );
    // --version too: nothing runs on a Node too old.
    const asked = runOld(binIn(tempDir(), { clone: false }), ['--version']);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/^loopsctl: runs on Node\.js /);
  });

  it(old.title('says in one line that a clone before its install gets its Node from npm install'), { skip: old.skip }, () => {
    const folder = tempDir();
    const result = runOld(binIn(folder, { clone: true }), ['--sandbox', 'workflow', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^loopsctl: runs on Node\\.js ${oldest.replaceAll('.', '\\.')} or later, and this is Node\\.js [\\d.]+ \\(.*\\): run npm install in ${folder}, which fetches a Node it runs on into node_modules/node\\n$`,
      ),
    );
  });

  it(old.title('stops the build in one line before it starts, where no Node was fetched'), { skip: old.skip }, () => {
    const result = runOld('src/build/prepare.mjs', []);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^loopsctl's build runs on Node\\.js ${oldest.replaceAll('.', '\\.')} or later, and this is Node\\.js [\\d.]+: run npm install \\(without --ignore-scripts or --omit=dev\\), which fetches one into node_modules/node\\n$`,
      ),
    );
  });
});

describe('the Node a clone fetches', () => {
  it('is a development dependency, the Node CI runs the suite on and the executable embeds', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const fetched = manifest.devDependencies.node as string;
    expect(fetched).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies?.node).toBeUndefined();
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toContain(`SUITE_NODE=${fetched}\n`);
    expect(readFileSync(join(ROOT, 'src', 'build', 'release.mjs'), 'utf8')).toContain(`const EMBEDDED_NODE = '${fetched}';`);
  });
});
