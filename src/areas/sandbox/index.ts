/** `loopsctl sandbox`: a local emulator of the Loops API, to try loopsctl without an account. */
import { command, integerIn } from '../../core/declare.js';
import type { Area } from '../area.js';

const KEYS_HELP = `Keys the sandbox accepts:
  sandbox-key            everything enabled
  sandbox-no-content     content API off: 401 on transactional emails (list, create,
                         draft), groups, campaigns, components, and on themes and
                         segments by id or when creating them
  sandbox-no-workflows   workflow API off: 401 on workflow operations
  sandbox-no-domain      no sending domain: 400 on transactional create and draft,
                         and on campaign create
Any other key gets 401.`;

export const area: Area = {
  spec: command({
    name: 'sandbox',
    summary: 'Run a local emulator of the Loops API, with seed data, until interrupted',
    help: KEYS_HELP,
    options: [
      { flags: '--port <n>', description: 'port to listen on (0 picks a free one)', default: 0, parse: integerIn(0, 65_535) },
      { flags: '--host <address>', description: 'address to listen on', default: '127.0.0.1' },
      { flags: '--state <file>', description: 'file that keeps the sandbox data between runs (default: in the config dir)' },
      { flags: '--reset', description: 'start over from the seed data' },
    ],
    examples: ['loopsctl sandbox --port 4010', 'loopsctl sandbox --state ./sandbox.json --reset'],
    remote: false,
    load: async () => (await import('./commands.js')).serve,
  }),
};
