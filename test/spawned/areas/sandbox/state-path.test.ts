/**
 * The sandbox's state file is opened only once it is known to be a regular file: a FIFO put at
 * its path is never opened (an open would hold the process past SIGTERM, which takes a process of
 * its own to see), each command that reads it says what it is, and `sandbox reset` puts a state
 * in its place. A wait of the state's readers and writers (another process's lock) ends on a
 * signal.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, existsSync, linkSync, lstatSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SpawnedCli, spawnCli } from '../../../support/run-cli.js';
import { tempDir } from '../../../support/temp.js';

/** Runs loopsctl, failing the test if it opens the FIFO (and then ending it). */
async function neverOpening(fifo: string, args: string[], env: Record<string, string> = {}) {
  // A second name of the FIFO, which stays when a reset puts a state at the first.
  const kept = `${fifo}.kept`;
  if (!existsSync(kept)) linkSync(fifo, kept);
  // Opening the write end waits until a reader opens the FIFO: if loopsctl does, this resolves.
  const writer = open(kept, 'w');
  let child: SpawnedCli | undefined;
  const run = spawnCli(args, { env, onSpawn: (spawned) => (child = spawned) });
  const first = await Promise.race([run.then((result) => ({ ended: result })), writer.then(() => ({ opened: true }) as const)]);
  if ('opened' in first) {
    // An open that waited past SIGTERM is what this guards against: ended for sure.
    child!.kill('SIGKILL');
    await run;
    expect.fail(`loopsctl ${args.join(' ')} opened the FIFO at the state's path`);
  }
  // The test's own pending open ends once a reader comes: this one, which it then closes.
  const reader = openSync(kept, constants.O_RDONLY | constants.O_NONBLOCK);
  await (await writer).close();
  closeSync(reader);
  return first.ended;
}

describe("a FIFO at the sandbox state's path", () => {
  it('is never opened: a --sandbox command and `sandbox outbox` say it is a FIFO, and `sandbox reset` puts a state there', async () => {
    const configDir = tempDir('loopsctl-state-fifo-');
    const fifo = join(configDir, 'sandbox-state.db');
    execFileSync('mkfifo', [fifo]);
    const listed = await neverOpening(fifo, ['--sandbox', 'lists', 'list'], { LOOPSCTL_CONFIG_DIR: configDir });
    expect(listed.code, listed.stderr).toBe(2);
    expect(listed.stderr).toContain(`Error: the sandbox state file ${fifo} could not be read: it is a FIFO, not a file`);
    const outbox = await neverOpening(fifo, ['sandbox', 'outbox', '--state', fifo]);
    expect(outbox.code, outbox.stderr).toBe(2);
    expect(outbox.stderr).toContain('it is a FIFO, not a file');
    const reset = await neverOpening(fifo, ['sandbox', 'reset', '--state', fifo]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(lstatSync(fifo).isFile()).toBe(true);
  });
});

describe('a synchronous wait', () => {
  it('ends on SIGTERM in a process that handles SIGTERM, and leaves its handlers as they were after', async () => {
    const module = resolve(import.meta.dirname, '../../../../src/base/blocking-wait.ts');
    // A process that handles SIGTERM without ending, as loopsctl does, waiting as a lock's wait does.
    const script = [
      `import { signalsEndWait } from ${JSON.stringify(module)};`,
      "process.on('SIGTERM', () => console.log('handled'));",
      "signalsEndWait(() => console.log(process.listenerCount('SIGTERM')));",
      "console.log(process.listenerCount('SIGTERM'));",
      "signalsEndWait(() => { console.log('waiting'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000); });",
      "console.log('waited');",
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    const waiting = new Promise<void>((resolveWaiting) =>
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString('utf8');
        if (printed.includes('waiting')) resolveWaiting();
      }),
    );
    const ended = new Promise<NodeJS.Signals | null>((resolveEnded) => child.on('exit', (_code, signal) => resolveEnded(signal)));
    await waiting;
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(printed).toBe('0\n1\nwaiting\n');
  });
});
