/**
 * `loopsctl sandbox`: a local emulator of the Loops API, to try loopsctl without an account, and
 * its outbox. `loopsctl sandbox` alone serves, as `loopsctl sandbox serve` does.
 */
import { command, group, integerIn } from '../../core/declare.js';
import type { Area } from '../area.js';

const KEYS_HELP = `Keys the sandbox accepts:
  sandbox-key            everything enabled
  sandbox-no-content     content API off: 401 on transactional emails (list, create,
                         draft), groups, campaigns, components, and on themes and
                         segments by id or when creating them
  sandbox-no-workflows   workflow API off: 401 on workflow operations
  sandbox-no-domain      no sending domain: 400 on transactional create and draft,
                         and on campaign create
  sandbox-no-metrics     metrics API off: 401 on campaign, workflow email and
                         transactional email metrics
Any other key gets 401.`;

const STATE_OPTION = { flags: '--state <file>', description: 'file that keeps the sandbox data between runs (default: in the config dir)' };

export const area: Area = {
  spec: group({
    name: 'sandbox',
    summary: 'Run a local emulator of the Loops API, with seed data; see what it would have sent',
    examples: ['eval "$(loopsctl sandbox --detach)"', 'loopsctl sandbox outbox'],
    commands: () => [
      command({
        name: 'serve',
        summary: 'Run the sandbox until interrupted (the default: `loopsctl sandbox` does this)',
        help: KEYS_HELP,
        isDefault: true,
        options: [
          { flags: '--port <n>', description: 'port to listen on (0 picks a free one)', default: 0, parse: integerIn(0, 65_535) },
          { flags: '--host <address>', description: 'address to listen on', default: '127.0.0.1' },
          STATE_OPTION,
          { flags: '--reset', description: 'start over from the seed data' },
          { flags: '--detach', description: 'run in the background: print the exports once listening, and return' },
        ],
        examples: ['eval "$(loopsctl sandbox --detach)"', 'loopsctl sandbox --port 4010', 'loopsctl sandbox serve --state ./sandbox.json --reset'],
        interactive: true,
        remote: false,
        load: async () => (await import('./commands.js')).serve,
      }),
      command({
        name: 'outbox',
        summary: 'Show the emails and events the sandbox was asked to send (none is delivered)',
        options: [STATE_OPTION, { flags: '--clear', description: 'empty the outbox after showing it' }],
        examples: ['loopsctl sandbox outbox', 'loopsctl sandbox outbox --json --clear'],
        remote: false,
        load: async () => (await import('./commands.js')).outbox,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
