/** A reader that goes away early, and Ctrl-C in the middle of paging. */
import { afterEach, describe, expect, it } from 'vitest';
import { json, startApiServer, type ApiServer } from '../support/api-server.js';
import { silent } from '../support/faults.js';
import { envelope, group } from '../support/fixtures.js';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli, tempConfigDir } from '../support/run-cli.js';

let server: ApiServer;
afterEach(() => server.close());

const LIST = 'GET /v1/transactional-groups';

/** Pages of 50 groups, as many as asked for, each with a long name so the output fills pipes. */
function endlessPages(pages: number) {
  return startApiServer({
    [LIST]: (req, res) => {
      const number = Number(req.query.get('cursor') ?? '0');
      const items = Array.from({ length: 50 }, (_, index) => group(number * 50 + index, 'n'.repeat(500)));
      json(res, 200, envelope(items, number + 1 < pages ? String(number + 1) : null));
    },
  });
}

describe('pipes', () => {
  it('ends quietly with status 0 when stdout closes early, as with | head -1', async () => {
    server = await endlessPages(40);
    const result = await runCli(['groups', 'list'], {
      env: { LOOPS_API_KEY: 'test-key-pipe', LOOPS_BASE_URL: server.url },
      onSpawn: (child) => child.stdout.once('data', () => child.stdout.destroy()),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(server.requests.length).toBeLessThan(40);
  });

  it('keeps a check\'s verdict when its reader goes away: a gate never fails open', async () => {
    server = await startApiServer({ 'GET /v1/dedicated-sending-ips': (_req, res) => json(res, 200, ['203.0.113.9']) });
    const dir = mkdtempSync(join(tmpdir(), 'loopsctl-verdict-'));
    const file = join(dir, 'allowlist.txt');
    writeFileSync(file, '198.51.100.1\n');
    const result = await runCli(['ips', 'check', file], {
      env: { LOOPS_API_KEY: 'test-key-pipe', LOOPS_BASE_URL: server.url },
      onSpawn: (child) => child.stdout.destroy(),
    });
    expect(result.code).toBe(1);
  });

  it('reports output that cannot be written (a full disk) with exit 74, not a stack trace', async () => {
    server = await endlessPages(2);
    const full = openSync('/dev/full', 'w');
    try {
      const result = await spawnWithStdout(['groups', 'list'], full, { LOOPS_API_KEY: 'test-key-pipe', LOOPS_BASE_URL: server.url });
      expect(result.code).toBe(74);
      expect(result.stderr).toContain('Error: could not write the output');
      expect(result.stderr).not.toContain('    at ');
    } finally {
      closeSync(full);
    }
  });
});

/** The built binary with stdout on a file descriptor of the test's choosing. */
function spawnWithStdout(args: string[], stdout: number, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', LOOPSCTL_CONFIG_DIR: tempConfigDir(), ...env }, stdio: ['ignore', stdout, 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('Ctrl-C', () => {
  it('mid-pagination exits 130 without a stack trace', async () => {
    server = await startApiServer();
    let served = 0;
    server.route(LIST, (req, res) => {
      served += 1;
      if (served === 1) return json(res, 200, envelope([group(1)], 'next'));
      return silent()(req, res);
    });
    const result = await runCli(['groups', 'list', '--per-page', '10'], {
      env: { LOOPS_API_KEY: 'test-key-sigint', LOOPS_BASE_URL: server.url },
      // Interrupt once the second page has been asked for and is hanging.
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (server.requests.length >= 2) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('Error: interrupted\n');
    expect(server.requests).toHaveLength(2);
  });

  it('during a wait between retries exits 130 at once', async () => {
    server = await startApiServer({ [LIST]: (_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '30' }) });
    const started = performance.now();
    const result = await runCli(['groups', 'list', '--json'], {
      env: { LOOPS_API_KEY: 'test-key-sigint', LOOPS_BASE_URL: server.url },
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (server.requests.length >= 1) {
            clearInterval(poll);
            setTimeout(() => child.kill('SIGINT'), 100);
          }
        }, 20);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'interrupted', exitCode: 130 });
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
