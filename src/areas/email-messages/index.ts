/** `loopsctl email-messages` (alias `emails`): the content of emails, previews and Guardian checks. */
import { command, emailAddress, type FlagSet, group, type Spec } from '../../core/declare.js';

/** The draft of the sandbox's "Password reset" transactional email, and its revision in the seed. */
/** --lmx prints the source alone; --json the whole message, the source in its lmx field. */
const LMX_OR_JSON: FlagSet = {
  flags: ['--lmx', '--json'],
  hint: '--lmx prints the LMX source alone; --json prints the whole message, with the source in its lmx field',
};

/** Content is replaced knowing which revision it replaces, or with --force whatever it is. */
const REVISION_OR_FORCE: FlagSet = {
  flags: ['--expected-revision-id', '--force'],
  hint: 'pass --expected-revision-id <contentRevisionId> (shown by `loopsctl email-messages get <id>`), or --force to replace whatever the current content is',
};

const EXAMPLE_ID = 'csfe4lcc5y1ptxuffld4qk8zj';
const EXAMPLE_REVISION = 'cyb7ji7stktwkmm2ny3d4crm1';

export const spec: Spec = group({
  name: 'email-messages',
  aliases: ['emails'],
  summary: 'Email message content: get, update (LMX in and out as files), preview, Guardian check',
  help: `Email message ids are the draftEmailMessageId and publishedEmailMessageId of a
transactional email (loopsctl transactional get <id>) and the emailMessageId
of a workflow's send-email nodes.`,
  examples: [`loopsctl email-messages get ${EXAMPLE_ID}`, `loopsctl email-messages check ${EXAMPLE_ID}`],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    command({
      name: 'get',
      aliases: ['show', 'view'],
      summary: "Show an email message's fields and warnings, or print only its LMX source with --lmx",
      args: [{ name: 'id', description: 'email message id' }],
      options: [{ flags: '--lmx', description: 'print only the LMX source, to save it to a file and edit it' }],
      examples: [
        `loopsctl email-messages get ${EXAMPLE_ID}`,
        `loopsctl email-messages get ${EXAMPLE_ID} --lmx > email.lmx`,
        `loopsctl email-messages get ${EXAMPLE_ID} --json`,
      ],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [LMX_OR_JSON, { flags: ['--lmx', '--jq'], hint: LMX_OR_JSON.hint }] },
      load: async () => (await import('./commands.js')).get,
    }),
    command({
      name: 'update',
      summary: 'Change the subject, sender, format, LMX body or fallbacks of an email message',
      args: [{ name: 'id', description: 'email message id' }],
      options: [
        { flags: '--subject <text>', description: 'subject line' },
        { flags: '--preview-text <text>', description: 'preview text shown after the subject' },
        { flags: '--from-name <name>', description: 'sender name' },
        { flags: '--from-email <local-part>', description: "sender address without the team's sending domain (hello, not hello@acme.com)" },
        { flags: '--reply-to <email>', description: 'reply-to address ("" clears it)', parse: emailAddress('clears') },
        { flags: '--cc <email>', description: 'CC address (the team needs CC/BCC enabled)', parse: emailAddress() },
        { flags: '--bcc <email>', description: 'BCC address (the team needs CC/BCC enabled)', parse: emailAddress() },
        { flags: '--language <code>', description: 'ISO 639-1 language code, such as en or fr' },
        { flags: '--format <format>', description: 'rendering format', choices: ['styled', 'plain'] },
        {
          flags: '--lmx-file <file>',
          description: 'the new LMX body, from a file or - for stdin',
          file: { inline: { name: 'lmx', encoding: 'text', description: 'the new LMX body' } },
        },
        {
          flags: '--fallback <kind.name=value>',
          description: 'a fallback value; kind is contact, event or data; kind.name without =value removes it (repeatable)',
          repeatable: true,
        },
        { flags: '--expected-revision-id <revision>', description: 'the contentRevisionId the change is based on; refused if the message changed since' },
        { flags: '--force', description: 'replace the current content, whatever its revision' },
        {
          flags: '--live',
          description: "change a message that reaches people now: one a live workflow sends, a scheduled campaign's, a published transactional email's",
          tier: 'destructive',
        },
      ],
      help: `Nothing is overwritten silently: give --expected-revision-id (the
contentRevisionId shown by get, or a transactional draft's
draftEmailMessageContentRevisionId), or --force. If the message changed in the
meantime, the update is refused (exit 5) and the new revision is named. Prints
the new revision id; LMX warnings go to stderr. With --json, the API's answer.

A message that reaches people as soon as it changes is changed only with --live
(else exit 11, nothing sent): the email of a send-email node of a workflow that
is not a draft, a scheduled campaign's, a transactional email's published one.
What holds the message, and its state, are read from the account just before
the write.

The LMX round trip:
  loopsctl email-messages get <id> --lmx > email.lmx
  $EDITOR email.lmx
  loopsctl email-messages update <id> --lmx-file email.lmx \\
    --expected-revision-id <revision>`,
      examples: [
        `loopsctl email-messages update ${EXAMPLE_ID} --subject "Reset your password" --expected-revision-id ${EXAMPLE_REVISION}`,
        `loopsctl email-messages update ${EXAMPLE_ID} --fallback data.firstName=there --force`,
      ],
      remote: true,
      tier: 'write',
      constraints: {
        exclusive: [REVISION_OR_FORCE],
        oneRequired: [
          REVISION_OR_FORCE,
          {
            flags: [
              '--subject',
              '--preview-text',
              '--from-name',
              '--from-email',
              '--reply-to',
              '--cc',
              '--bcc',
              '--language',
              '--format',
              '--lmx-file',
              '--fallback',
            ],
          },
        ],
      },
      load: async () => (await import('./commands.js')).update,
    }),
    command({
      name: 'preview',
      summary: 'Send a preview of an email message to one or more addresses (100 a day per team)',
      args: [{ name: 'id', description: 'email message id' }],
      options: [
        { flags: '--to <email>', description: 'an address to send the preview to (repeatable)', repeatable: true, required: true, parse: emailAddress() },
        {
          flags: '--vars-file <file>',
          description:
            'JSON values to render with, or - for stdin: {"dataVariables": {...}} for transactional emails, contactProperties and eventProperties for workflows',
          file: {
            inline: {
              name: 'vars',
              encoding: 'json',
              description: 'JSON values to render with: {"dataVariables": {...}} for transactional emails, contactProperties and eventProperties for workflows',
            },
          },
        },
      ],
      examples: [
        `loopsctl email-messages preview ${EXAMPLE_ID} --to alex@example.com`,
        `loopsctl email-messages preview ${EXAMPLE_ID} --to alex@example.com --to sam@example.com --json`,
      ],
      remote: true,
      tier: 'destructive',
      load: async () => (await import('./commands.js')).preview,
    }),
    command({
      name: 'check',
      summary: "Run Guardian's checks on an email message; exit 1 when it finds errors (--strict: warnings too)",
      args: [{ name: 'id', description: 'email message id' }],
      options: [{ flags: '--strict', description: 'fail on warnings as well as errors' }],
      help: 'Errors block publishing; warnings are advisory. With --json, the report is printed whatever the outcome.',
      mismatch: 'Guardian found errors (with --strict, errors or warnings)',
      examples: [`loopsctl email-messages check ${EXAMPLE_ID}`, `loopsctl email-messages check ${EXAMPLE_ID} --json`],
      remote: true,
      tier: 'read',
      load: async () => (await import('./commands.js')).check,
    }),
  ],
});
