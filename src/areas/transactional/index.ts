/** `loopsctl transactional`: transactional emails, their metrics and drafts. */
import { command, emailAddress, group, PLAN_OPTIONS, type Spec } from '../../core/declare.js';
import { JSON_OR_JSONL, listCommand } from '../../core/list.js';
import { WEB_OPTION, WEB_OR_JSON } from '../../core/web-option.js';

/** "Password reset" in the sandbox: published, with data variables. */
const EXAMPLE_ID = 'c1h3243uwicgpgajrgexlzdl5';
const OTHER_ID = 'cc1hv1te56efs1g1ifrp90u0j';
/** The sandbox's "Order receipt" (published, no draft) and "Magic sign-in link" (with a draft). */
const RECEIPT_ID = 'c11x0jjyfmh1mkdecyekdlmhv';
const SIGN_IN_ID = 'cdtg5cp1k90qxm7oj7ioc7eky';
const GROUP_ID = 'c670t9v12lnoky3oebk56hswc';

const SEND_HELP = `A 409 for the key of a retry loopsctl made itself means the first attempt went through: the
command says so and exits 0. A key given with --idempotency-key that was already used exits 5.
With --json, the API's answer is printed with the idempotencyKey used.`;

export const spec: Spec = group({
  name: 'transactional',
  summary: 'Transactional emails: list, get, metrics, drafts, create, update, publish',
  examples: ['loopsctl transactional list', `loopsctl transactional metrics ${EXAMPLE_ID}`],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    listCommand({
      summary: 'List transactional emails, most recently created first',
      example: 'loopsctl transactional list',
      output: async () => (await import('../../platform/transactional/schemas.js')).transactionalEmail,
      load: async () => (await import('./commands.js')).list,
    }),
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: 'Show one transactional email: its name, group, draft and published email messages, data variables',
      args: [{ name: 'id', description: 'transactional email id', completes: 'transactional-emails' }],
      options: [WEB_OPTION],
      examples: [
        `loopsctl transactional get ${EXAMPLE_ID}`,
        `loopsctl transactional get ${EXAMPLE_ID} --json`,
        `loopsctl transactional get ${EXAMPLE_ID} --web`,
      ],
      remote: true,
      tier: 'read',
      constraints: { exclusive: WEB_OR_JSON },
      output: async () => (await import('../../platform/transactional/schemas.js')).transactionalEmail,
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'metrics',
      summary: 'Show all-time delivery metrics of one or more transactional emails',
      help: `Sends and deliveries, hard and soft bounces and spam reports, with the delivery, bounce and
spam rates over sends, each email's name beside its id. With several ids, the metrics that could be
fetched are printed and each id that failed is reported on stderr; the exit code is the highest of
the failures'. --json always prints an array of objects with transactionalId, whatever the number
of ids; --jsonl prints one such object per line. The metrics API must be enabled for the team
(else 401, exit 3).`,
      args: [{ name: 'id', description: 'transactional email ids', variadic: true, completes: 'transactional-emails' }],
      options: [{ flags: '--jsonl', description: 'print one compact JSON object per line (instead of --json)' }],
      examples: [`loopsctl transactional metrics ${EXAMPLE_ID}`, `loopsctl transactional metrics ${EXAMPLE_ID} ${OTHER_ID} --json`],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [JSON_OR_JSONL] },
      load: async () => (await import('./commands.js')).metrics,
    }),
    command({
      name: 'draft',
      summary: 'Make sure a transactional email has a draft, and show it (creates one from the published version if needed)',
      args: [{ name: 'id', description: 'transactional email id', completes: 'transactional-emails' }],
      examples: [`loopsctl transactional draft ${EXAMPLE_ID}`, `loopsctl transactional draft ${EXAMPLE_ID} --json`],
      remote: true,
      tier: 'write',
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
      tier: 'write',
      load: async () => (await import('./commands.js')).create,
    }),
    command({
      name: 'update',
      summary: 'Rename a transactional email or move it to another group',
      args: [{ name: 'id', description: 'transactional email id', completes: 'transactional-emails' }],
      options: [
        { flags: '--name <name>', description: 'new name' },
        { flags: '--group <transactionalGroupId>', description: 'group to move it to' },
      ],
      examples: [
        `loopsctl transactional update ${RECEIPT_ID} --name "Order receipt (v2)"`,
        `loopsctl transactional update ${RECEIPT_ID} --group ${GROUP_ID} --json`,
      ],
      remote: true,
      tier: 'write',
      constraints: { oneRequired: [{ flags: ['--name', '--group'] }] },
      load: async () => (await import('./commands.js')).update,
    }),
    command({
      name: 'publish',
      summary: "Publish a transactional email's draft: it becomes the version that is sent, and the draft is cleared",
      args: [{ name: 'id', description: 'transactional email id', completes: 'transactional-emails' }],
      help: `Publishing is refused (exit 5) when there is no draft (409), or when the draft
fails Guardian's checks, the sending domain is not verified, or the content is
flagged as unsafe (422). See what Guardian finds first with: loopsctl
email-messages check <draftEmailMessageId>. An email with no subject is
published (and sent) as it is: loopsctl says so on stderr after publishing it.`,
      examples: [`loopsctl transactional publish ${SIGN_IN_ID}`],
      remote: true,
      tier: 'destructive',
      options: [
        ...PLAN_OPTIONS,
        {
          flags: '--code <dir>',
          description: "with --plan: the app's source (repeatable), for the sends the data variables it adds would break",
          repeatable: true,
          file: {},
          personOnly: true,
        },
      ],
      load: async () => (await import('./commands.js')).publish,
    }),
    command({
      name: 'send',
      summary: 'Send a transactional email to one recipient, once (with an Idempotency-Key every retry reuses)',
      args: [{ name: 'transactionalId', description: 'transactional email id (a published one)', completes: 'transactional-emails' }],
      options: [
        { flags: '--to <email>', description: 'recipient email address', required: true, parse: emailAddress() },
        {
          flags: '--var <name=value>',
          description: 'a data variable: name=text, or name:=<json> for a number, boolean, null or array (repeatable)',
          repeatable: true,
        },
        {
          flags: '--vars-file <file>',
          description: 'data variables from a JSON object in a file ("-" for stdin); --var wins',
          file: { inline: { name: 'vars', encoding: 'json', description: 'data variables as a JSON object; --var wins' } },
        },
        {
          flags: '--attach <path>',
          description: 'attach a file (repeatable); "path;type=<mime>" sets the content type, "-;name=<file name>" reads it from stdin',
          repeatable: true,
          file: {
            inline: { name: 'attachments', encoding: 'base64', description: 'the attachments: each a filename, its data and, if need be, its content type' },
          },
        },
        { flags: '--add-to-audience', description: 'also create a contact for the recipient if there is none' },
        { flags: '--idempotency-key <key>', description: 'key that makes the send happen once (default: a new one); reusing it within 24 hours is refused' },
      ],
      help: SEND_HELP,
      examples: [
        `loopsctl transactional send ${EXAMPLE_ID} --to ada@example.com --var firstName=Ada --var resetUrl=https://example.com/r/1 --var expiresInMinutes:=30`,
        `loopsctl transactional send ${EXAMPLE_ID} --to grace@example.com --var firstName=Grace --var resetUrl=https://example.com/r/2 --attach README.md --json`,
      ],
      remote: true,
      tier: 'destructive',
      load: async () => (await import('./send.js')).send,
    }),
  ],
});
