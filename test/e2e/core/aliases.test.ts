/** The Loops CLI's names, accepted as aliases: someone coming from it types what they know. */
import { describe, expect, it } from 'vitest';
import { run } from '../../support/main.js';

describe("the Loops CLI's names", () => {
  it.each([
    [
      ['audience-segments', 'list'],
      ['segments', 'list'],
    ],
    [
      ['dedicated-sending-ips', 'list'],
      ['ips', 'list'],
    ],
    [
      ['contacts', 'suppression', 'check', '--email', 'ada@example.com'],
      ['contacts', 'suppression', 'get', '--email', 'ada@example.com'],
    ],
  ])('%j runs as %j', async (theirs, ours) => {
    const [alias, own] = await Promise.all([run(['--sandbox', ...theirs, '--json']), run(['--sandbox', ...ours, '--json'])]);
    expect(own.code, own.stderr).toBe(0);
    expect(alias).toMatchObject({ code: 0, stdout: own.stdout });
  });

  it('workflow nodes create is nodes add', async () => {
    const [alias, own] = await Promise.all([run(['workflow', 'nodes', 'create', '--help']), run(['workflow', 'nodes', 'add', '--help'])]);
    expect(alias.code).toBe(0);
    expect(alias.stdout).toBe(own.stdout);
  });

  it('-o json (and --output json) is --json, for output and for errors; -o text is the default', async () => {
    const json = await run(['--sandbox', 'ips', 'list', '--json']);
    for (const flags of [['-o', 'json'], ['--output', 'json'], ['--output=json']]) {
      expect(await run(['--sandbox', 'ips', 'list', ...flags])).toMatchObject({ code: 0, stdout: json.stdout });
    }
    expect((await run(['--sandbox', 'ips', 'list', '-o', 'text'])).stdout).toBe((await run(['--sandbox', 'ips', 'list'])).stdout);
    const error = await run(['--sandbox', 'themes', 'get', 'cnosuchtheme000000000000', '-o', 'json']);
    expect(error.code).toBe(4);
    expect(JSON.parse(error.stderr)).toMatchObject({ error: { code: 'not_found', message: 'theme cnosuchtheme000000000000 not found' } });
    const wrong = await run(['--sandbox', 'ips', 'list', '-o', 'yaml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("argument 'yaml' is invalid");
  });

  it('-o json goes with the flags --json goes with, and -o text with --json is a usage error', async () => {
    const both = await run(['--sandbox', 'themes', 'list', '-o', 'json', '--jsonl']);
    expect(both).toMatchObject({ code: 2, stdout: '' });
    expect(both.stderr).toContain('--json and --jsonl cannot be used together');
    const contradicting = await run(['--sandbox', 'themes', 'list', '-o', 'text', '--json']);
    expect(contradicting).toMatchObject({ code: 2, stdout: '' });
    expect(contradicting.stderr).toContain('-o text and --json cannot be used together');
  });
});
