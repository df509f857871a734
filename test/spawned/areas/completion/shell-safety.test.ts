/**
 * Ids are text from the API (or from the completion cache): whoever controls an answer must not
 * run code, or expand anything, when a person presses Tab. Each shell's script is driven with a
 * stand-in loopsctl that answers hostile ids, in a directory where a glob would find files.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../../support/api-server.js';
import { envelope } from '../../../support/fixtures.js';
import { run, tempDir } from '../../../support/main.js';
import { needs } from '../../../support/programs.js';

const HOSTILE_IDS = [
  '$(touch pwned-subst)',
  '`touch pwned-backtick`',
  '*',
  '~root',
  '$((1+1))',
  'a$(touch pwned-inner)',
  ';touch pwned-semicolon',
  '-rf',
  'x y',
  'wf1\u001b[31m',
];
/** What the stand-in answers: the hostile ids, each with a name, and two safe ones, one with a hostile name. */
const ANSWER = [...HOSTILE_IDS.map((id) => `${id}\tHostile`), 'cw1\tWelcome', 'cw2.v2\t$(touch pwned-name)'].join('\n');

const zsh = needs('zsh');
const fish = needs('fish');

/** A directory with one file in it (for `*` to find) and the answer, which a stand-in loopsctl prints. */
function workDir(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'a-file'), '');
  writeFileSync(join(dir, 'answer'), `${ANSWER}\n`);
  return dir;
}

function expectNothingRan(dir: string): void {
  expect(readdirSync(dir).sort()).toEqual(['a-file', 'answer', 'driver']);
}

const env = () => ({ PATH: process.env.PATH, HOME: tempDir(), LOOPSCTL_COMPLETE_IDS: '1' });

describe('completion of hostile ids', () => {
  it.each([[''], ['$'], ['a'], ['*']])('bash offers only the safe ids, expanding and running nothing (typed: %j)', async (typed) => {
    const dir = workDir();
    const script = (await run(['completion', 'bash'])).stdout;
    writeFileSync(
      join(dir, 'driver'),
      `${script}
loopsctl() { cat answer; }
COMP_WORDS=(loopsctl --sandbox workflow show '${typed}'); COMP_CWORD=4
__loopsctl_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    );
    const result = spawnSync('bash', ['--norc', '--noprofile', join(dir, 'driver')], { cwd: dir, encoding: 'utf8', env: env() });
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(['cw1', 'cw2.v2'].filter((id) => id.startsWith(typed)));
    expectNothingRan(dir);
  });

  it.skipIf(zsh.skip)(zsh.title('zsh offers only the safe ids, with their names as text'), async () => {
    const dir = workDir();
    const script = (await run(['completion', 'zsh'])).stdout;
    // Stand-ins for compsys print what they are given.
    writeFileSync(
      join(dir, 'driver'),
      `compdef() { :; }
${script}
_describe() { local name=$4; print -rl -- "\${(@P)name}"; }
_files() { print FILES; }
loopsctl() { cat answer; }
words=(loopsctl --sandbox workflows get ''); CURRENT=5
_loopsctl`,
    );
    const result = spawnSync('zsh', ['-f', join(dir, 'driver')], { cwd: dir, encoding: 'utf8', env: env() });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('cw1:Welcome\ncw2.v2:$(touch pwned-name)\n');
    expectNothingRan(dir);
  });

  it.skipIf(fish.skip)(fish.title('fish offers only the safe ids, with their names as text'), async () => {
    const dir = workDir();
    const script = (await run(['completion', 'fish'])).stdout;
    writeFileSync(join(dir, 'driver'), `${script}\nfunction loopsctl; cat answer; end\ncomplete -C 'loopsctl --sandbox themes get '\n`);
    const result = spawnSync('fish', ['--no-config', join(dir, 'driver')], { cwd: dir, encoding: 'utf8', env: env() });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('cw1\tWelcome\ncw2.v2\t$(touch pwned-name)\n');
    expectNothingRan(dir);
  });

  describe('completion __ids', () => {
    let close: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });

    it('prints only ids of the safe alphabet, and names with their control characters escaped', async () => {
      const data = [...HOSTILE_IDS.map((id) => ({ id, name: 'Hostile' })), { id: 'cw1', name: 'Welcome\u001b]0;title\u0007' }];
      const api = await startApiServer({ 'GET /v1/themes': (_req, res) => json(res, 200, envelope(data)) });
      close = () => api.close();
      const result = await run(['completion', '__ids', 'themes'], {
        env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url, LOOPSCTL_CONFIG_DIR: tempDir(), LOOPSCTL_COMPLETE_TIMEOUT: '100' },
      });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toBe('cw1\tWelcome\\x1b]0;title\\x07\n');
      expect(existsSync('pwned-subst')).toBe(false);
    });
  });
});
