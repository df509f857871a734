/** The key never shows, and a config file loopsctl cannot read is reported and left as it was. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../support/api-server.js';
import { inTurn, raw, resetMidBody, status } from '../../support/faults.js';
import { metrics } from '../../support/fixtures.js';
import { runCli, tempConfigDir } from '../../support/run-cli.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-secret-key-that-must-never-show-0123456789';

describe('the API key', () => {
  it('is not in any output, error or --debug line, whatever goes wrong', async () => {
    server = await startApiServer({
      'GET /v1/transactional-emails/t1/metrics': inTurn(resetMidBody(), status(503), raw(200, 'text/html', '<html>'), status(200, metrics)),
      'GET /v1/transactional-emails/t2/metrics': status(401, { message: 'Invalid API key' }),
      'GET /v1/api-key': status(401, { message: 'Invalid API key' }),
    });
    for (const [args, failure] of [
      [['transactional', 'metrics', 't1'], 'Error: status 503 (gave up after 1 retry)\n'],
      [['transactional', 'metrics', 't2', '--json'], '"message":"Invalid API key (the key in the environment variable LOOPS_API_KEY)"'],
      [['auth', 'status'], 'Error: Invalid API key (key '],
    ] as const) {
      const result = await runCli([...args, '--debug', '--retries', '1'], { env: { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: server.url } });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(failure);
      expect(result.stdout + result.stderr).not.toContain(KEY);
      expect(result.stdout + result.stderr).not.toContain(KEY.slice(8));
    }
    // every() holds on no requests at all: the runs above made some, each with the key.
    expect(server.requests.length).toBeGreaterThan(3);
    expect(server.requests.filter((request) => request.headers.authorization !== `Bearer ${KEY}`)).toEqual([]);
  });

  it('with characters a header cannot carry is refused without being quoted', async () => {
    const result = await runCli(['ips', 'list'], { env: { LOOPS_API_KEY: `${KEY}\r\nX-Injected: 1`, LOOPS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the API key contains spaces, control characters or non-ASCII characters');
    expect(result.stderr).not.toContain(KEY.slice(8));
  });
});

describe('a corrupt config file', () => {
  const cases: [string, string][] = [
    ['not JSON', `{"profiles": {"default": {"apiKey": "${KEY}"`],
    ['the wrong shape', '["not", "a", "config"]'],
    ['a key of the wrong type', '{"profiles": {"default": {"apiKey": 42}}}'],
  ];

  for (const [what, content] of cases) {
    it(`(${what}) ends in exit 2 naming the file, and is left byte for byte as it was`, async () => {
      const dir = tempConfigDir();
      const file = join(dir, 'config.json');
      writeFileSync(file, content, { mode: 0o600 });
      for (const args of [
        ['ips', 'list'],
        ['auth', 'login', '--with-key-stdin', '--skip-verify'],
        ['auth', 'logout'],
      ]) {
        const result = await runCli(args, { env: { LOOPSCTL_CONFIG_DIR: dir }, input: 'sk-new-key-0123456789' });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`Error: the config file ${file} could not be read`);
        expect(result.stderr).toContain('Hint: fix the file by hand, or move it aside and run `loopsctl auth login` again');
        expect(result.stderr).not.toContain(KEY.slice(8));
        expect(readFileSync(file, 'utf8')).toBe(content);
      }
    });
  }
});
