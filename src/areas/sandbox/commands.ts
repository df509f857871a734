/** What `loopsctl sandbox` does: serve the sandbox until interrupted, start its data over, and show its outbox. */
import { spawn } from 'node:child_process';
import { LocalFileError, UsageError } from '../../api/errors.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { SANDBOX_KEY, SANDBOX_KEYS } from '../../sandbox/keys.js';
import type { SandboxModule, SeedKind } from '../../sandbox/module.js';
import { loadSandboxModules, RESET_PATH } from '../../sandbox/api.js';
import { startSandbox } from '../../sandbox/server.js';
import { defaultStatePath, readState, seedState, withStateLock, writeState } from '../../sandbox/state.js';
import { renderOutbox } from './render.js';
import { outbox as outboxSlice } from './sandbox.js';

interface ServeOptions {
  port: number;
  host: string;
  state?: string;
  seed?: SeedKind;
  reset?: boolean;
  detach?: boolean;
}

/**
 * Serves until interrupted. Its one line of output is the URL it listens on, so a script can read
 * it (`--json`: an object with the key too); what a person needs besides goes to stderr.
 */
export const serve: Handler<[], ServeOptions> = async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  if (options.detach) return detach(context, { ...options, state: stateFile });
  const { out } = context;
  const sandbox = await startSandbox({
    port: options.port,
    host: options.host,
    stateFile,
    // A seed asked for is a fresh start from it.
    reset: options.reset === true || options.seed !== undefined,
    seed: options.seed,
    now: context.runtime.now,
    log: (line) => context.runtime.stderr.write(`${line}\n`),
  });
  if (out.json) await out.writeJson({ url: sandbox.url, apiKey: SANDBOX_KEY, keys: Object.keys(SANDBOX_KEYS), stateFile });
  else await out.write(`${sandbox.url}\n`);
  out.note(`Sandbox listening on ${sandbox.url}; point loopsctl at it with:`);
  out.note(`  export LOOPS_BASE_URL=${sandbox.url} LOOPS_API_KEY=${SANDBOX_KEY}`);
  out.note(`State is kept in ${stateFile}; start over with \`loopsctl sandbox reset\` or POST ${sandbox.url}${RESET_PATH}. Press Ctrl-C to stop.`);
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
  const args = [
    script,
    'sandbox',
    'serve',
    '--port',
    String(options.port),
    '--host',
    options.host,
    '--state',
    options.state,
    ...(options.reset ? ['--reset'] : []),
    ...(options.seed === undefined ? [] : ['--seed', options.seed]),
  ];
  // Its own process group, and no terminal streams: it lives on after this command and the shell.
  const child = spawn(execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: context.env });
  // Its first line of output is the URL, once it listens.
  const url = await new Promise<string | undefined>((resolve) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    child.once('exit', () => resolve(undefined));
  });
  child.stdout!.destroy();
  child.unref();
  if (url === undefined) throw new LocalFileError('the sandbox did not start', { hint: 'run `loopsctl sandbox` without --detach to see why' });
  const { out } = context;
  if (out.json) return out.writeJson({ url, apiKey: SANDBOX_KEY, pid: child.pid, stateFile: options.state });
  await out.write(`export LOOPS_BASE_URL=${url}\nexport LOOPS_API_KEY=${SANDBOX_KEY}\nexport LOOPSCTL_SANDBOX_PID=${child.pid}\n`);
  out.note(`Sandbox listening on ${url} (process ${child.pid}); stop it with: kill $LOOPSCTL_SANDBOX_PID`);
}

/**
 * Reads the state file without starting a server. --clear empties the outbox under the file's lock
 * (a running server may be adding to it) and says how many entries went.
 */
export const outbox: Handler<[], { state?: string; clear?: boolean }> = async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  const modules = await loadSandboxModules();
  const state = readState(stateFile, modules);
  const entries = state === undefined ? [] : outboxSlice.of(state);
  const { out } = context;
  if (out.json) await out.writeJson(entries);
  else if (entries.length === 0) out.note('The outbox is empty.');
  else await out.writeProse(renderOutbox(out, entries).trimEnd());
  if (!options.clear) return;
  const cleared = withStateLock(stateFile, () => {
    const current = readState(stateFile, modules);
    if (current === undefined) return 0;
    const removed = outboxSlice.of(current).splice(0).length;
    if (removed > 0) writeState(stateFile, current);
    return removed;
  });
  out.note(`Cleared ${cleared} ${cleared === 1 ? 'entry' : 'entries'} from the outbox.`);
};

/**
 * Writes a fresh seed over the state file, whatever it holds (a damaged file included), under its
 * lock: a server reading that file serves the new data from its next request.
 */
export const reset: Handler<[], { state?: string; seed?: SeedKind }> = async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  const modules = await loadSandboxModules();
  const seed = withStateLock(stateFile, () => {
    const chosen = options.seed ?? recordedSeed(stateFile, modules) ?? 'demo';
    writeState(stateFile, seedState(modules, chosen));
    return chosen;
  });
  const { out } = context;
  if (out.json) await out.writeJson({ stateFile, seed });
  else out.note(`Reset ${stateFile} to the ${seed === 'demo' ? "demo team's data" : "data of a new team"}.`);
};

/** The seed a readable state file started from; undefined for none, or one that cannot be read. */
function recordedSeed(stateFile: string, modules: SandboxModule[]): SeedKind | undefined {
  try {
    return readState(stateFile, modules)?.seed;
  } catch {
    return undefined;
  }
}
