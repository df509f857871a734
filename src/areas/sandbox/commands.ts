/** What `loopsctl sandbox` does: serve the sandbox until interrupted. */
import type { Handler } from '../../core/declare.js';
import { SANDBOX_KEY, SANDBOX_KEYS } from '../../sandbox/keys.js';
import { startSandbox } from '../../sandbox/server.js';
import { defaultStatePath } from '../../sandbox/state.js';

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
