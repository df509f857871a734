/**
 * The oldest Node.js line loopsctl supports (22, from 22.13: `engines`), where the sandbox's store,
 * node:sqlite, is still experimental and says so on stderr as it loads: a --sandbox command's
 * stderr must not show it. CI fetches a Node 22 and names it in LOOPSCTL_TEST_NODE_22
 * (docs/development.md); without one, these are skipped.
 */
import { describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../../../support/run-cli.js';

const node22 = process.env.LOOPSCTL_TEST_NODE_22;

const ON_NODE_22 = `on Node.js 22${node22 === undefined ? ' (skipped: LOOPSCTL_TEST_NODE_22 names no Node 22; .ci/run sets it)' : ''}`;

describe.skipIf(node22 === undefined)(ON_NODE_22, () => {
  it('keeps the sandbox in node:sqlite with nothing said on stderr, and finds what it kept', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempConfigDir() };
    const created = await spawnCli(['--sandbox', 'contacts', 'create', '--email', 'oldest@example.com', '--json'], { env, node: node22 });
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(JSON.parse(created.stdout)).toMatchObject({ success: true });
    const found = await spawnCli(['--sandbox', 'contacts', 'find', '--email', 'OLDEST@example.com', '--json'], { env, node: node22 });
    expect([found.code, found.stderr]).toEqual([0, '']);
    expect(JSON.parse(found.stdout)).toMatchObject([{ email: 'oldest@example.com', id: JSON.parse(created.stdout).id }]);
  });
});
