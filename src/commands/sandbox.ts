/** `loopsctl sandbox`: a local emulator of the Loops API, to try loopsctl without an account. */
import { Option, type Command } from 'commander';
import { UsageError } from '../api/errors.js';
import { SANDBOX_KEY, SANDBOX_KEYS } from '../sandbox/api.js';
import { startSandbox } from '../sandbox/server.js';
import { defaultStatePath } from '../sandbox/state.js';
import { globalOptions, outputFor } from './context.js';
import { integerIn } from './options.js';

const KEYS_HELP = `
Keys the sandbox accepts:
  sandbox-key            everything enabled
  sandbox-no-content     content API off: 401 on transactional emails (list, create, draft) and on groups
  sandbox-no-workflows   workflow API off: 401 on workflow operations
  sandbox-no-domain      no sending domain: 400 on transactional create and draft
Any other key gets 401.
`;

export function register(group: Command): void {
  group
      .description('Run a local emulator of the Loops API, with seed data, until interrupted')
      .addOption(new Option('--port <n>', 'port to listen on (0 picks a free one)').default(0).argParser(integerIn(0, 65_535)))
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option('--state <file>', 'file that keeps the sandbox data between runs (default: in the config dir)')
      .option('--reset', 'start over from the seed data')
      .addHelpText('after', KEYS_HELP)
      .action(async (options: { port: number; host: string; state?: string; reset?: boolean }, self: Command) => {
    if (globalOptions(self).sandbox) throw new UsageError('--sandbox runs a command against a sandbox; `loopsctl sandbox` is one already');
    const stateFile = options.state ?? defaultStatePath();
    const sandbox = await startSandbox({
      port: options.port,
      host: options.host,
      stateFile,
      reset: options.reset === true,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const out = outputFor(self);
    if (out.json) await out.writeJson({ url: sandbox.url, apiKey: SANDBOX_KEY, keys: Object.keys(SANDBOX_KEYS), stateFile });
    else await out.write(`Sandbox listening on ${sandbox.url}\nexport LOOPS_BASE_URL=${sandbox.url}\nexport LOOPS_API_KEY=${SANDBOX_KEY}\n`);
    out.note(`State is kept in ${stateFile}. Press Ctrl-C to stop.`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await sandbox.close();
    out.note('Sandbox stopped; state saved.');
  });
}
