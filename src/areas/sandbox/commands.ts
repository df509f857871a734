/** What `loopsctl sandbox` does: serve the sandbox until interrupted, and show its outbox. */
import { spawn } from 'node:child_process';
import { LocalFileError, UsageError } from '../../api/errors.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { loadSandboxModules } from '../../sandbox/api.js';
import { SANDBOX_KEY, SANDBOX_KEYS } from '../../sandbox/keys.js';
import { startSandbox } from '../../sandbox/server.js';
import { defaultStatePath, readState, writeState } from '../../sandbox/state.js';
import { renderOutbox } from './render.js';
import { outbox as outboxSlice } from './sandbox.js';

interface ServeOptions {
  port: number;
  host: string;
  state?: string;
  reset?: boolean;
  detach?: boolean;
}

export const serve: Handler<[], ServeOptions> = async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  if (options.detach) return detach(context, { ...options, state: stateFile });
  const sandbox = await startSandbox({
    port: options.port,
    host: options.host,
    stateFile,
    reset: options.reset === true,
    now: context.runtime.now,
    log: (line) => context.runtime.stderr.write(`${line}\n`),
  });
  const { out } = context;
  if (out.json) await out.writeJson({ url: sandbox.url, apiKey: SANDBOX_KEY, keys: Object.keys(SANDBOX_KEYS), stateFile });
  else await out.write(`Sandbox listening on ${sandbox.url}\nexport LOOPS_BASE_URL=${sandbox.url}\nexport LOOPS_API_KEY=${SANDBOX_KEY}\n`);
  out.note(`State is kept in ${stateFile}. Press Ctrl-C to stop.`);
  await new Promise<void>((resolve) => {
    if (context.runtime.signal.aborted) return resolve();
    context.runtime.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  out.note('Sandbox stopped; state saved.');
};

/**
 * Starts the sandbox as a process of its own that outlives this one, waits until it listens, and
 * prints the lines a shell evaluates: `eval "$(loopsctl sandbox --detach)"` returns at once.
 */
async function detach(context: CommandContext, options: ServeOptions & { state: string }): Promise<number | void> {
  const [execPath, script] = context.runtime.command ?? [];
  if (execPath === undefined || script === undefined) throw new UsageError('--detach needs loopsctl run as a program');
  const args = [script, 'sandbox', 'serve', '--port', String(options.port), '--host', options.host, '--state', options.state, ...(options.reset ? ['--reset'] : [])];
  // Its own process group, and no terminal streams: it lives on after this command and the shell.
  const child = spawn(execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: context.env });
  const started = await new Promise<string | undefined>((resolve) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (/^export LOOPS_API_KEY=.*\n/m.test(text)) resolve(text);
    });
    child.once('exit', () => resolve(undefined));
  });
  child.stdout!.destroy();
  child.unref();
  const url = /^export LOOPS_BASE_URL=(.*)$/m.exec(started ?? '')?.[1];
  if (url === undefined) throw new LocalFileError('the sandbox did not start', { hint: 'run `loopsctl sandbox` without --detach to see why' });
  const { out } = context;
  if (out.json) return out.writeJson({ url, apiKey: SANDBOX_KEY, pid: child.pid, stateFile: options.state });
  await out.write(`export LOOPS_BASE_URL=${url}\nexport LOOPS_API_KEY=${SANDBOX_KEY}\nexport LOOPSCTL_SANDBOX_PID=${child.pid}\n`);
  out.note(`Sandbox listening on ${url} (process ${child.pid}); stop it with: kill $LOOPSCTL_SANDBOX_PID`);
}

/** Reads the state file without starting a server; --clear empties the outbox and writes it back. */
export const outbox: Handler<[], { state?: string; clear?: boolean }> = async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  const state = readState(stateFile, await loadSandboxModules());
  const entries = state === undefined ? [] : outboxSlice.of(state);
  const { out } = context;
  if (out.json) await out.writeJson(entries);
  else if (entries.length === 0) out.note('The outbox is empty.');
  else await out.writeProse(renderOutbox(out, entries).trimEnd());
  if (options.clear && state !== undefined && entries.length > 0) {
    outboxSlice.of(state).splice(0);
    writeState(stateFile, state);
    out.note(`Cleared ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}.`);
  }
};
