/** A reader that goes away early, and Ctrl-C in the middle of paging. */

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../support/api-server.js';
import { closedAfter } from '../support/closing.js';
import { silent } from '../support/faults.js';
import { envelope, group, theme } from '../support/fixtures.js';
import { BIN, HUNG_AFTER_MS, runCli, tempConfigDir } from '../support/run-cli.js';
import { tempDir } from '../support/temp.js';

// The tests run at once, each with servers of its own.
const keep = closedAfter(afterAll);

const LIST = 'GET /v1/transactional-groups';

/** The groups of page `number` (from 0): 50, each with a long name so the output fills pipes. */
function pageOfGroups(number: number) {
  return Array.from({ length: 50 }, (_, index) => group(number * 50 + index, 'n'.repeat(500)));
}

/** A listing of that many pages; `headers` go on every answer. */
function endlessPages(pages: number, headers: Record<string, string> = {}) {
  return startApiServer({
    [LIST]: (req, res) => {
      const number = Number(req.query.get('cursor') ?? '0');
      json(res, 200, envelope(pageOfGroups(number), number + 1 < pages ? String(number + 1) : null, 50, pages * 50), headers);
    },
  });
}

describe.concurrent('pipes', () => {
  it('ends quietly with status 0 when stdout closes early, as with | head -1', async () => {
    const server = keep(await endlessPages(40));
    const result = await runCli(['groups', 'list'], {
      env: { LOOPS_API_KEY: 'test-key-pipe', LOOPS_BASE_URL: server.url },
      onSpawn: (child) => child.stdout.once('data', () => child.stdout.destroy()),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(server.requests.length).toBeLessThan(40);
  });

  it('delivers long output whole and in order to a slow reader before exiting', async () => {
    // A high stated limit lets the pages come faster than the reader takes them.
    const server = keep(await endlessPages(40, { 'x-ratelimit-limit': '1000' }));
    const slow = await runCli(['groups', 'list', '--json'], {
      env: { LOOPS_API_KEY: 'test-key-pipe', LOOPS_BASE_URL: server.url },
      // Each chunk read makes the reader look away for a while, so loopsctl keeps finding the pipe full.
      onSpawn: (child) =>
        child.stdout.on('data', () => {
          child.stdout.pause();
          setTimeout(() => child.stdout.resume(), 20);
        }),
    });
    const groups = Array.from({ length: 40 }, (_, number) => pageOfGroups(number)).flat();
    expect(slow).toEqual({ code: 0, stdout: `${JSON.stringify(groups, null, 2)}\n`, stderr: '' });
  });

  it("keeps a check's verdict when its reader goes away: a gate never fails open", async () => {
    const server = keep(await startApiServer({ 'GET /v1/dedicated-sending-ips': (_req, res) => json(res, 200, ['203.0.113.9']) }));
    const dir = tempDir('loopsctl-verdict-');
    const file = join(dir, 'allowlist.txt');
    writeFileSync(file, '198.51.100.1\n');
    const result = await runCli(['ips', 'check', file], {
      env: { LOOPS_API_KEY: 'test-key-pipe', LOOPS_BASE_URL: server.url },
      onSpawn: (child) => child.stdout.destroy(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: ${file} is out of step with the API: 1 to add, 1 to remove\nHint: add the addresses marked + and remove the entries marked -; or, for a file without comments or ranges, write it anew with \`loopsctl ips list --plain > ${file}\`\n`,
    );
  });

  it('waits for a reader that comes late for the output left when the command has ended', async () => {
    // As in the Ctrl-C case below: the last page does not fit in the pipe, and nothing else is left to do.
    const capacity = pipeCapacity();
    const pages = [[groupOfLineLength(0, capacity - 2_000)], [groupOfLineLength(1, 8_000)]];
    const server = keep(
      await startApiServer({
        [LIST]: (req, res) => (req.query.has('cursor') ? json(res, 200, envelope(pages[1]!)) : json(res, 200, envelope(pages[0]!, 'next'))),
      }),
    );
    const path = join(tempDir('loopsctl-fifo-'), 'stdout');
    execFileSync('mkfifo', [path]);
    const readEnd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writeEnd = openSync(path, constants.O_WRONLY);
    const chunks: Buffer[] = [];
    try {
      let blocked!: () => void;
      const waiting = new Promise<void>((resolve) => (blocked = resolve));
      const ended = spawnWithStdout(
        ['groups', 'list', '--jsonl', '--debug'],
        writeEnd,
        { LOOPS_API_KEY: 'test-key-pipe', LOOPS_BASE_URL: server.url },
        (child) => whenWaiting(child, blocked),
      );
      closeSync(writeEnd);
      // The reader comes once the command's output waits for it, both pages fetched.
      await waiting;
      expect(server.requests).toHaveLength(2);
      for (;;) {
        const chunk = Buffer.alloc(65_536);
        let read: number;
        try {
          read = readSync(readEnd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        if (read === 0) break;
        chunks.push(chunk.subarray(0, read));
      }
      const result = await ended;
      expect(result.code).toBe(0);
      expect(withoutDebugLines(result.stderr)).toBe('');
    } finally {
      closeSync(readEnd);
    }
    expect(Buffer.concat(chunks).toString('utf8')).toBe(
      pages
        .flat()
        .map((item) => `${JSON.stringify(item)}\n`)
        .join(''),
    );
  });

  it('reports output that cannot be written (a full disk) with exit 74, not a stack trace', async () => {
    const server = keep(await endlessPages(2));
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

/**
 * The built binary with stdout on a file descriptor of the test's choosing; killed if it is still
 * running when the test's own time is nearly up, so that a run that never ends shows as a null
 * code rather than as a process left behind.
 */
function spawnWithStdout(
  args: string[],
  stdout: number,
  env: Record<string, string>,
  onSpawn?: (child: ChildProcess) => void,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', LOOPSCTL_CONFIG_DIR: tempConfigDir(), ...env },
      stdio: ['ignore', stdout, 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), HUNG_AFTER_MS);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    onSpawn?.(child);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/**
 * A pipe that nothing reads, as in `loopsctl ... | (sleep 100)`: a FIFO whose read end stays open
 * and unread, so once it is full every write to it waits. `nonBlocking`: writes that would wait
 * fail with EAGAIN instead.
 */
function unreadPipe({ nonBlocking = false } = {}): { writeEnd: number; close: () => void } {
  const path = join(tempDir('loopsctl-fifo-'), 'stdout');
  execFileSync('mkfifo', [path]);
  // Opening the read end without waiting for a writer lets the write end open at once.
  const readEnd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(path, constants.O_WRONLY | (nonBlocking ? constants.O_NONBLOCK : 0));
  return {
    writeEnd,
    close: () => {
      closeSync(writeEnd);
      closeSync(readEnd);
    },
  };
}

/** The bytes a pipe holds before writes to it wait: 64 KiB on Linux, unless configured otherwise. */
function pipeCapacity(): number {
  const pipe = unreadPipe({ nonBlocking: true });
  let capacity = 0;
  try {
    for (;;) capacity += writeSync(pipe.writeEnd, Buffer.alloc(4096));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
  } finally {
    pipe.close();
  }
  return capacity;
}

/** A group whose line under --jsonl is about that many bytes long. */
function groupOfLineLength(index: number, bytes: number) {
  const bare = JSON.stringify(group(index, '')).length + 1;
  // The name appears twice: as the name, and in the description.
  return group(index, 'n'.repeat(Math.floor((bytes - bare) / 2)));
}

/**
 * Runs loopsctl (with --debug) against `server` with stdout into a pipe that nothing reads, and
 * sends it `signal` once it says that its output waits for the reader.
 */
async function signalWhenBlocked(server: ApiServer, args: string[], signal: NodeJS.Signals = 'SIGINT') {
  const pipe = unreadPipe();
  try {
    const result = await spawnWithStdout([...args, '--debug'], pipe.writeEnd, { LOOPS_API_KEY: 'test-key-sigint', LOOPS_BASE_URL: server.url }, (child) =>
      whenWaiting(child, () => child.kill(signal)),
    );
    return { code: result.code, stderr: withoutDebugLines(result.stderr) };
  } finally {
    pipe.close();
  }
}

/** The debug line a run writes when its output is left waiting for stdout's reader (src/render/output.ts). */
const WAITING = /^stdout: \d+ bytes wait for the reader to take them$/m;

/** Calls `then` once the child says on stderr (under --debug) that its output waits for the reader. */
function whenWaiting(child: ChildProcess, then: () => void): void {
  let stderr = '';
  const look = (chunk: string) => {
    stderr += chunk;
    if (!WAITING.test(stderr)) return;
    child.stderr!.off('data', look);
    then();
  };
  child.stderr!.on('data', look);
}

/** stderr without --debug's lines (requests, the wait for the reader) and the stack trace after an error line. */
function withoutDebugLines(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => !/^[<>] /.test(line) && !WAITING.test(line));
  const error = lines.findIndex((line) => line.startsWith('Error: '));
  return (error < 0 ? lines : lines.slice(0, error + 1)).join('\n').replace(/^\n+/, '');
}

describe.concurrent('Ctrl-C', () => {
  it('mid-pagination exits 130 without a stack trace', async () => {
    const server = keep(await startApiServer());
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
    // A wait longer than the test may take: only ending it at once lets the run finish in time.
    const server = keep(await startApiServer({ [LIST]: (_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '55' }) }));
    const result = await runCli(['groups', 'list', '--json', '--debug'], {
      env: { LOOPS_API_KEY: 'test-key-sigint', LOOPS_BASE_URL: server.url },
      // Interrupt once the run says it waits to retry.
      onSpawn: (child) => {
        let stderr = '';
        const look = (chunk: Buffer | string) => {
          stderr += String(chunk);
          if (!stderr.includes('retrying in 55 s')) return;
          child.stderr.off('data', look);
          child.kill('SIGINT');
        };
        child.stderr.on('data', look);
      },
    });
    expect(result.code).toBe(130);
    const errorLine = result.stderr.split('\n').find((line) => line.startsWith('{'));
    expect(JSON.parse(errorLine!).error).toMatchObject({ code: 'interrupted', exitCode: 130, message: 'interrupted' });
    expect(server.requests).toHaveLength(1);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s exits 130 at once while stdout is a full pipe that nothing reads', async (signal) => {
    const server = keep(await endlessPages(40));
    const result = await signalWhenBlocked(server, ['groups', 'list'], signal);
    expect(result).toEqual({ code: 130, stderr: 'Error: interrupted' });
    // The pipe filled long before the listing's 40 pages were fetched.
    expect(server.requests.length).toBeLessThan(10);
  });

  it('exits 130 at once when Ctrl-C comes while one large write waits for the reader', async () => {
    const server = keep(await startApiServer({ 'GET /v1/dedicated-sending-ips': (_req, res) => json(res, 200, ['x'.repeat(pipeCapacity() * 2)]) }));
    expect(await signalWhenBlocked(server, ['api', '/v1/dedicated-sending-ips'])).toEqual({ code: 130, stderr: 'Error: interrupted' });
  });

  it('exits 130 at once when --jq prints faster than the reader takes it: jq waits for the reader, its output never piles up', async () => {
    const server = keep(await startApiServer({ 'GET /v1/themes': (_req, res) => json(res, 200, envelope([theme(1)])) }));
    const result = await signalWhenBlocked(server, ['themes', 'list', '--jq', 'range(1e9)']);
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'interrupted', exitCode: 130, message: 'interrupted' });
  });

  it('exits 130 at once when the command has ended and only its last output waits for the reader', async () => {
    // The first page nearly fills the pipe; the second, smaller than a stream's buffer, does not
    // fit, yet leaves the command nothing to wait for.
    const capacity = pipeCapacity();
    const pages = [[groupOfLineLength(0, capacity - 2_000)], [groupOfLineLength(1, 8_000)]];
    const server = keep(
      await startApiServer({
        [LIST]: (req, res) => (req.query.has('cursor') ? json(res, 200, envelope(pages[1]!)) : json(res, 200, envelope(pages[0]!, 'next'))),
      }),
    );
    expect(await signalWhenBlocked(server, ['groups', 'list', '--jsonl'])).toEqual({ code: 130, stderr: '' });
    expect(server.requests).toHaveLength(2);
  });
});
