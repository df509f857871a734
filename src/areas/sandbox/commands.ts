/** What `loopsctl sandbox` does: serve the sandbox until interrupted, and show its outbox. */
import type { Handler } from '../../core/declare.js';
import { loadSandboxModules } from '../../sandbox/api.js';
import { SANDBOX_KEY, SANDBOX_KEYS } from '../../sandbox/keys.js';
import { startSandbox } from '../../sandbox/server.js';
import { defaultStatePath, readState, writeState } from '../../sandbox/state.js';
import { renderOutbox } from './render.js';
import { outbox as outboxSlice } from './sandbox.js';

export const serve: Handler<[], { port: number; host: string; state?: string; reset?: boolean }> = async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
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
    process.once('SIGTERM', resolve);
  });
  await sandbox.close();
  out.note('Sandbox stopped; state saved.');
};

/** Reads the state file without starting a server; --clear empties the outbox and writes it back. */
export const outbox: Handler<[], { state?: string; clear?: boolean }> = async (context, _args, options) => {
  const stateFile = options.state ?? defaultStatePath(context.configDir);
  const state = readState(stateFile, await loadSandboxModules());
  const entries = state === undefined ? [] : outboxSlice.of(state);
  const { out } = context;
  if (out.json) await out.writeJson(entries);
  else if (entries.length === 0) out.note('The outbox is empty.');
  else await out.write(renderOutbox(out, entries));
  if (options.clear && state !== undefined && entries.length > 0) {
    outboxSlice.of(state).splice(0);
    writeState(stateFile, state);
    out.note(`Cleared ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}.`);
  }
};
