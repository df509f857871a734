import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { run, sandboxEnv, startTestSandbox } from '../../support/main.js';

/** The perPage of every listing request the sandbox saw while running the command. */
describe('the page size a listing asks for', () => {
  let server: SandboxServer;
  const seen: (string | null)[] = [];

  beforeAll(async () => {
    server = await startTestSandbox({ onRequest: (request) => void (request.path === '/v1/transactional-emails' && seen.push(request.query.get('perPage'))) });
  });
  afterAll(() => server.close());

  async function pageSizes(args: string[]): Promise<(string | null)[]> {
    seen.splice(0);
    const result = await run(['transactional', 'list', '--json', ...args], { env: sandboxEnv(server) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return [...seen];
  }

  it('is the largest the API allows for a full listing, the fewest requests', async () => {
    const sizes = await pageSizes([]);
    expect(sizes.length).toBeGreaterThan(0);
    expect(new Set(sizes)).toEqual(new Set(['50']));
  });

  it('is no more than a small limit needs, but at least the API minimum', async () => {
    expect(await pageSizes(['--limit', '3'])).toEqual(['10']);
    expect(await pageSizes(['--limit', '25'])).toEqual(['25']);
    expect(await pageSizes(['--limit', '50'])).toEqual(['50']);
  });

  it('stays the largest for a limit above it', async () => {
    expect(new Set(await pageSizes(['--limit', '120']))).toEqual(new Set(['50']));
  });

  it('is what --per-page says, with or without a limit', async () => {
    expect(new Set(await pageSizes(['--per-page', '10']))).toEqual(new Set(['10']));
    expect(await pageSizes(['--per-page', '40', '--limit', '5'])).toEqual(['40']);
  });

  it('is stated in the help', async () => {
    const help = await run(['transactional', 'list', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('default 50');
  });
});
