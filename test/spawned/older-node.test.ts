/**
 * Node 21 and 22.0 to 22.2 have no process.getBuiltinModule: the built binary, run with it taken
 * away, loads the built-ins that commands load on first use (tty, crypto, os, http) all the same.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../support/api-server.js';
import { closedAfter } from '../support/closing.js';
import { envelope, group } from '../support/fixtures.js';
import { spawnCli } from '../support/run-cli.js';
import { tempDir } from '../support/temp.js';

const WITHOUT = { NODE_OPTIONS: `--require ${resolve(import.meta.dirname, '../support/without-get-builtin-module.cjs')}` };
// The tests run at once, each with servers of its own.
const keep = closedAfter(afterAll);

describe.concurrent('on a Node without process.getBuiltinModule', () => {
  it('signs a webhook body from stdin (node:tty)', async () => {
    const result = await spawnCli(['webhooks', 'sign', '--json'], {
      env: { ...WITHOUT, LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtdGVzdC1zZWNyZXQ=' },
      input: '{"type":"test"}',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ 'webhook-id': expect.stringMatching(/^msg_/), 'webhook-signature': expect.stringMatching(/^v1,/) });
  });

  it('lists every page from the API (node:http, and node:crypto for the cursors)', async () => {
    const server = keep(
      await startApiServer({
        'GET /v1/transactional-groups': (req, res) =>
          req.query.has('cursor') ? json(res, 200, envelope([group(2)], null, 50, 2)) : json(res, 200, envelope([group(1)], 'next', 50, 2)),
      }),
    );
    const result = await spawnCli(['groups', 'list', '--json'], { env: { ...WITHOUT, LOOPS_API_KEY: 'test-key-older-node', LOOPS_BASE_URL: server.url } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((item: { id: string }) => item.id)).toEqual(['grp_1', 'grp_2']);
  });

  it('stores a key in the config dir under the home directory (node:os, and node:crypto for the write)', async () => {
    const home = tempDir('loopsctl-home-');
    const env = { ...WITHOUT, HOME: home, LOOPSCTL_CONFIG_DIR: undefined };
    const result = await spawnCli(['auth', 'login', '--with-key-stdin', '--skip-verify'], { env, input: 'older-node-key-0123456789\n' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(home, '.config', 'loopsctl', 'config.json'))).toBe(true);
  });
});

describe('the source', () => {
  it('loads built-ins on first use through builtinModule alone, which works on every Node it runs on', () => {
    const src = resolve(import.meta.dirname, '../../src');
    const direct = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && file !== join('base', 'builtin.ts'))
      .filter((file) => readFileSync(join(src, file), 'utf8').includes('getBuiltinModule'));
    expect(direct).toEqual([]);
  });
});
