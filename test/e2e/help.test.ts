/** Every command, group and leaf, explains itself with an example. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

const leaves = [
  'transactional list', 'transactional metrics', 'transactional draft', 'transactional create',
  'groups list', 'groups get', 'campaign-groups list', 'campaign-groups get', 'campaign-groups update',
  'workflow list', 'workflow show', 'themes list', 'segments list', 'ips list',
  'auth login', 'auth status', 'auth logout',
];
const groups = [...new Set(leaves.map((leaf) => leaf.split(' ')[0]!))];

describe('help', () => {
  it.concurrent.each([...groups, ...leaves])('`%s --help` has usage and an example', async (command) => {
    const result = await runCli([...command.split(' '), '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: loopsctl ${command}`);
    expect(result.stdout).toMatch(/Examples:\n {2}\$ loopsctl /);
  });
});
