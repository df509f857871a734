/**
 * --jq runs an expression someone wrote, on data from the API: one that loops, recurses without
 * end, prints without end or writes control characters on jq's stderr must end in a clear error
 * naming it (exit 2), and Ctrl-C must end it at once (exit 130), never a hang or a crash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../support/api-server.js';
import { closedAfter } from '../../support/closing.js';
import { envelope, theme } from '../../support/fixtures.js';
import { run } from '../../support/main.js';
import { runCli, spawnCli } from '../../support/run-cli.js';

const kept = closedAfter(afterEach);
const sandbox = (args: string[], env: Record<string, string> = {}) => run(['--sandbox', ...args], { env });
const jqError = (stderr: string) => JSON.parse(stderr).error as { code: string; message: string; exitCode: number; hint: string | null };

describe('--jq that does not stop by itself', () => {
  it('is stopped after its time limit, exit 2 naming the expression', async () => {
    const result = await sandbox(['themes', 'list', '--jq', 'until(false; .)'], { LOOPSCTL_JQ_TIMEOUT: '0.1' });
    expect(result.code).toBe(2);
    expect(jqError(result.stderr)).toMatchObject({ code: 'jq', message: 'the --jq expression "until(false; .)" was stopped: it ran longer than 0.1 s' });
  });

  it('is stopped when what it builds outgrows the memory limit, exit 2, whatever limit ran before', async () => {
    // The worker a run under the default limit leaves for the next run is not one for another limit.
    expect((await sandbox(['themes', 'list', '--jq', 'length'])).stdout).toMatch(/^\d+\n$/);
    // A string that doubles at each step reaches the limit in a few steps.
    const result = await sandbox(['themes', 'list', '--jq', '"x" | until(false; . + .)'], { LOOPSCTL_JQ_MEMORY_MB: '32' });
    expect(result.code).toBe(2);
    expect(jqError(result.stderr).message).toBe('the --jq expression "\\"x\\" | until(false; . + .)" was stopped: it used more than 32 MB of memory');
  });

  it('printing without end is stopped once its output passes 32 MiB, exit 2, in the built binary as well', async () => {
    // Lines of a kilobyte, so that the 32 MiB take few of them.
    const expression = 'range(1e9) | "\\(.) \\("x" * 1000)"';
    const result = await spawnCli(['--sandbox', 'themes', 'list', '--jq', expression]);
    expect(result.stderr).not.toContain('FATAL');
    expect(result.code).toBe(2);
    expect(jqError(result.stderr)).toMatchObject({
      code: 'jq',
      message: `the --jq expression ${JSON.stringify(expression)} was stopped: its output passed 32 MiB`,
    });
    // What was printed before the stop is jq's output as it came: whole lines, in order.
    const lines = result.stdout.split('\n').slice(0, -1);
    expect(lines.length).toBeGreaterThan(30_000);
    // One check for all of them: an expect a line, over 30,000 of them, cost some 0.3 s of CPU.
    const filler = 'x'.repeat(1000);
    const wrong = lines.findIndex((line, index) => line !== `${index} ${filler}`);
    expect(wrong, `line ${wrong}: ${lines[wrong]?.slice(0, 40)}`).toBe(-1);
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(32 * 1024 * 1024);
  });

  it("building a value without end is stopped at jq's memory limit, exit 2, in the built binary as well", async () => {
    const expression = '"x" | until(false; . + .) | length';
    const result = await spawnCli(['--sandbox', 'themes', 'list', '--jq', expression], {
      env: { LOOPSCTL_JQ_MEMORY_MB: '64' },
    });
    expect(result.stderr).not.toContain('FATAL');
    expect(result.code).toBe(2);
    expect(jqError(result.stderr)).toMatchObject({
      code: 'jq',
      message: `the --jq expression ${JSON.stringify(expression)} was stopped: it used more than 64 MB of memory`,
      hint: 'LOOPSCTL_JQ_MEMORY_MB sets the limit; an expression that builds or prints without end is stopped this way',
    });
    expect(result.stdout).toBe('');
  });

  it('recursing without end is exit 2 naming the expression, not a bug in loopsctl', async () => {
    const result = await sandbox(['themes', 'list', '--jq', 'def f: 1 + f; f']);
    expect(result.code).toBe(2);
    // jq keeps its frames in its own memory, so the recursion ends at the memory limit.
    expect(jqError(result.stderr).message).toBe('the --jq expression "def f: 1 + f; f" was stopped: it used more than 512 MB of memory');
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
      onSpawn: (child) => void answer.then(() => child.kill('SIGINT')),
    });
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'interrupted', exitCode: 130, message: 'interrupted' });
  });
});
