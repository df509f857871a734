/** `loopsctl events`: sending events that start workflows, one or many, each once. */
import { command, emailAddress, group, type Spec } from '../../core/declare.js';

const SEND_HELP = `Event properties (--prop, --props-file) travel in eventProperties; contact properties
(--contact-prop) are set on the contact, checked against the account's property types first.
Every send carries an Idempotency-Key (--idempotency-key, else a new one) that retries reuse, so
an event is never sent twice. A 409 on loopsctl's own retry means the first attempt went
through (exit 0, with a note); a reused --idempotency-key exits 5.`;

const IMPORT_HELP = `One JSON object per line: {"eventName": ..., "email" or "userId": ..., "eventProperties"?: {...},
"mailingLists"?: {...}, and contact properties at the top level}.
Each record is sent with an idempotency key made from the journal's run id and its text (not its
line: two identical lines are one event, the second skipped as a duplicate), and its outcome goes
to the journal as it completes: run the same command again after a stop and finished records are
skipped; one whose outcome was lost is sent again under the same key, which the API refuses as a
duplicate. Exits 0 only when no record failed.`;

export const spec: Spec = group({
  name: 'events',
  aliases: ['event'],
  summary: 'Events that start workflows: send, import',
  examples: ['loopsctl events send trial_started --email ada@example.com', 'loopsctl events import events.jsonl'],
  commands: () => [
    command({
      name: 'send',
      summary: 'Send an event for a contact, once',
      args: [{ name: 'eventName', description: 'the event’s name, as workflows’ triggers name it' }],
      options: [
        { flags: '--email <email>', description: 'the contact’s email address', parse: emailAddress() },
        { flags: '--user-id <id>', description: 'the contact’s userId' },
        { flags: '--prop <name=value>', description: 'an event property: name=text, or name:=<json> for a number or boolean (repeatable)', repeatable: true },
        {
          flags: '--props-file <file>',
          description: 'event properties from a JSON object in a file ("-" for stdin); --prop wins',
          file: { inline: { name: 'props', encoding: 'json', description: 'event properties as a JSON object; --prop wins' } },
        },
        {
          flags: '--contact-prop <name=value>',
          description: "a contact property to set: name=value, read as the property's type, or name:=<json> (repeatable)",
          repeatable: true,
        },
        {
          flags: '--list <list=true|false>',
          description: 'add the contact to (true) or remove it from (false) a mailing list, named by its id or its name (repeatable)',
          repeatable: true,
        },
        { flags: '--idempotency-key <key>', description: 'key that makes the send happen once (default: a new one); reusing it within 24 hours is refused' },
      ],
      help: SEND_HELP,
      examples: [
        'loopsctl events send trial_started --email ada@example.com --prop plan=pro --prop seats:=5',
        'loopsctl events send trial_started --user-id usr_grace --contact-prop plan=trial --json',
      ],
      remote: true,
      tier: 'destructive',
      constraints: { oneRequired: [{ flags: ['--email', '--user-id'], hint: 'they say whose event it is; both may be given' }] },
      load: async () => (await import('./commands.js')).send,
    }),
    command({
      name: 'import',
      summary: 'Send one event per JSONL record, resumably and never twice',
      args: [{ name: 'file', description: 'JSONL file; "-" for stdin (needs --journal)', file: {} }],
      options: [
        { flags: '--journal <file>', description: 'where each record’s outcome is kept (default: <file>.journal.jsonl)', file: { writes: true } },
        { flags: '--dry-run', description: 'check every record and send nothing' },
      ],
      help: IMPORT_HELP,
      examples: [
        'loopsctl events import events.jsonl --dry-run',
        'loopsctl events import events.jsonl',
        'loopsctl events import - --journal events.journal.jsonl < events.jsonl',
      ],
      remote: true,
      unpaged: true,
      tier: 'destructive',
      load: async () => (await import('./commands.js')).import,
    }),
  ],
});
