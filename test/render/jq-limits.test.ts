/**
 * --jq runs an expression someone wrote, on data from the API: one that loops, recurses without
 * end, prints without end or writes control characters on jq's stderr must end in a clear error
 * naming it (exit 2), and Ctrl-C must end it at once (exit 130), never a hang or a crash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../support/api-server.js';
import { closedAfter } from '../support/closing.js';
import { envelope, theme } from '../support/fixtures.js';
import { run } from '../support/main.js';
import { runCli } from '../support/run-cli.js';

const kept = closedAfter(afterEach);
const sandbox = (args: string[], env: Record<string, string> = {}) => run(['--sandbox', ...args], { env });
const jqError = (stderr: string) => JSON.parse(stderr).error as { code: string; message: string; exitCode: number };

describe('--jq that does not stop by itself', () => {
  it('is stopped after its time limit, exit 2 naming the expression', async () => {
    const result = await sandbox(['themes', 'list', '--jq', 'until(false; .)'], { LOOPSCTL_JQ_TIMEOUT: '0.3' });
    expect(result.code).toBe(2);
    expect(jqError(result.stderr)).toMatchObject({ code: 'jq', message: 'the --jq expression "until(false; .)" was stopped: it ran longer than 0.3 s' });
  });

  it('is stopped when its output outgrows the memory limit, exit 2', async () => {
    const result = await sandbox(['themes', 'list', '--jq', 'repeat(1)'], { LOOPSCTL_JQ_MEMORY_MB: '32' });
    expect(result.code).toBe(2);
    expect(jqError(result.stderr).message).toBe('the --jq expression "repeat(1)" was stopped: it used more than 32 MB of memory');
  });

  it('recursing without end is exit 2 naming the expression, not a bug in loopsctl', async () => {
    const result = await sandbox(['themes', 'list', '--jq', 'def f: 1 + f; f']);
    expect(result.code).toBe(2);
    expect(jqError(result.stderr).message).toMatch(/^the --jq expression "def f: 1 \+ f; f" was stopped: jq aborted/);
  });

  it('stays usable after a failure on one page: the filter keeps running', async () => {
    const result = await sandbox(['themes', 'list', '--jq', '.[0].name | ascii_downcase | length']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\n$/);
  });

  it("shows jq's own stderr with control characters escaped", async () => {
    const result = await sandbox(['themes', 'list', '--jq', '"\\u001b]0;pwned\\u0007" | stderr | empty']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('jq: \\x1b]0;pwned\\x07\n');
  });

  it('refuses a limit that is no positive number', async () => {
    const result = await sandbox(['themes', 'list', '--jq', '.'], { LOOPSCTL_JQ_TIMEOUT: 'soon' });
    expect(result.code).toBe(2);
    expect(jqError(result.stderr).message).toBe('LOOPSCTL_JQ_TIMEOUT must be a positive number, not "soon"');
  });

  it('ends at Ctrl-C with exit 130', async () => {
    let answered!: () => void;
    const answer = new Promise<void>((resolve) => (answered = resolve));
    const server = kept(
      await startApiServer({
        'GET /v1/themes': (_req, res) => {
          res.once('finish', answered);
          json(res, 200, envelope([theme(1)]));
        },
      }),
    );
    const result = await runCli(['themes', 'list', '--jq', 'until(false; .)'], {
      env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: server.url },
      timeoutMs: 15_000,
      onSpawn: (child) => void answer.then(() => child.kill('SIGINT')),
    });
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'interrupted', exitCode: 130 });
  });
});
