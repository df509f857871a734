/** `loopsctl transactional`: transactional emails, their metrics and drafts. */
import { command, group } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import type { Area } from '../area.js';

/** "Password reset" in the sandbox: published, with data variables. */
const EXAMPLE_ID = 'c1h3243uwicgpgajrgexlzdl5';
const SEND_HELP = `A 409 for the key of a retry loopsctl made itself means the first attempt went through: the
command says so and exits 0. A key given with --idempotency-key that was already used exits 5.
With --json, the API's answer is printed with the idempotencyKey used.`;

export const area: Area = {
  spec: group({
    name: 'transactional',
    summary: 'Transactional emails: list, metrics, drafts, create',
    examples: ['loopsctl transactional list', `loopsctl transactional metrics ${EXAMPLE_ID}`],
    commands: [
      listCommand({
        summary: 'List transactional emails, most recently created first',
        example: 'loopsctl transactional list',
        load: async () => (await import('./commands.js')).list,
      }),
      command({
        name: 'metrics',
        summary: 'Show all-time delivery metrics of one or more transactional emails',
        args: [{ name: 'id', description: 'transactional email ids', variadic: true }],
        examples: [`loopsctl transactional metrics ${EXAMPLE_ID}`, `loopsctl transactional metrics ${EXAMPLE_ID} --json`],
        remote: true,
        load: async () => (await import('./commands.js')).metrics,
      }),
      command({
        name: 'draft',
        summary: 'Make sure a transactional email has a draft, and show it (creates one from the published version if needed)',
        args: [{ name: 'id', description: 'transactional email id' }],
        examples: [`loopsctl transactional draft ${EXAMPLE_ID}`, `loopsctl transactional draft ${EXAMPLE_ID} --json`],
        remote: true,
        load: async () => (await import('./commands.js')).draft,
      }),
      command({
        name: 'create',
        summary: 'Create a transactional email with an empty draft',
        options: [
          { flags: '--name <name>', description: 'name of the transactional email', required: true },
          { flags: '--group <transactionalGroupId>', description: "group to put it in (default: the team's default group)" },
        ],
        examples: ['loopsctl transactional create --name "Password reset"', 'loopsctl transactional create --name "Receipt" --json'],
        remote: true,
        load: async () => (await import('./commands.js')).create,
      }),
      command({
        name: 'send',
        summary: 'Send a transactional email to one recipient, once (with an Idempotency-Key every retry reuses)',
        args: [{ name: 'transactionalId', description: 'transactional email id (a published one)' }],
        options: [
          { flags: '--to <email>', description: 'recipient email address', required: true },
          { flags: '--var <name=value>', description: 'a data variable: name=text, or name:=<json> for a number, boolean, null or array (repeatable)', repeatable: true },
          { flags: '--vars-file <file>', description: 'data variables from a JSON object in a file ("-" for stdin); --var wins' },
          { flags: '--attach <path>', description: 'attach a file (repeatable); "path;type=<mime>" sets the content type', repeatable: true },
          { flags: '--add-to-audience', description: 'also create a contact for the recipient if there is none' },
          { flags: '--idempotency-key <key>', description: 'key that makes the send happen once (default: a new one); reusing it within 24 hours is refused' },
        ],
        help: SEND_HELP,
        examples: [
          `loopsctl transactional send ${EXAMPLE_ID} --to ada@example.com --var firstName=Ada --var resetUrl=https://example.com/r/1 --var expiresInMinutes:=30`,
          `loopsctl transactional send ${EXAMPLE_ID} --to grace@example.com --var firstName=Grace --var resetUrl=https://example.com/r/2 --attach README.md --json`,
        ],
        remote: true,
        load: async () => (await import('./send.js')).send,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
