/** --debug: a stack trace for a bug, in terms of the TypeScript sources; none for other errors. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../../support/run-cli.js';

const FAILING_STDOUT = { NODE_OPTIONS: `--require ${resolve(import.meta.dirname, '../../support/failing-stdout.cjs')}` };

describe('--debug', () => {
  it('shows an internal error’s stack trace at the TypeScript sources', async () => {
    const { code, stderr } = await spawnCli(['--sandbox', '--debug', 'themes', 'list'], { env: FAILING_STDOUT });
    expect(code).toBe(70);
    expect(stderr).toContain('Error: stdout write failed on purpose\n');
    expect(stderr).toContain('This is a bug in loopsctl');
    const frames = stderr.split('\n').filter((line) => /^\s+at /.test(line));
    expect(frames.length).toBeGreaterThan(0);
    // The frames of loopsctl's own code name its sources, not positions in the bundles.
    expect(frames.some((line) => /\bsrc\/render\/output\.ts:\d+:\d+/.test(line))).toBe(true);
    expect(frames.filter((line) => /dist\/[\w-]+\.cjs/.test(line))).toEqual([]);
  });

  it('shows no stack trace without --debug, nor for an error that is not a bug', async () => {
    const quiet = await spawnCli(['--sandbox', 'themes', 'list'], { env: FAILING_STDOUT });
    expect(quiet.code).toBe(70);
    expect(quiet.stderr).not.toMatch(/^\s+at /m);
    // Where to report it: the project's issues, as package.json names them.
    const { bugs } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { bugs: { url: string } };
    expect(quiet.stderr).toContain(`This is a bug in loopsctl; please report it at ${bugs.url}, with the output of the command run again with --debug.\n`);
    const notFound = await spawnCli(['--sandbox', '--debug', 'themes', 'get', 'cnosuchtheme000000000000']);
    expect(notFound.code).toBe(4);
    expect(notFound.stderr).toContain('Error: theme cnosuchtheme000000000000 not found\n');
    expect(notFound.stderr).not.toMatch(/^\s+at /m);
  });
});
