import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../support/run-cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('start-up paths of the built CLI', () => {
  it('ends quietly with status 0 when the reader of --version has gone', async () => {
    const result = await spawnCli(['--version'], { onSpawn: (child) => child.stdout.destroy() });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('--version and -V print the package version alone', async () => {
    for (const flag of ['--version', '-V']) {
      expect(await runCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      // bin/loopsctl.js answers them itself.
      expect(await spawnCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('--version among other options prints the same', async () => {
    expect(await runCli(['--json', '--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help lists every command group', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const group of ['transactional', 'groups', 'campaign-groups', 'workflow', 'themes', 'segments', 'ips', 'auth']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${group}\\b`, 'm'));
    }
  });
});
