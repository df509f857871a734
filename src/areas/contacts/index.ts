/** `loopsctl contacts`: the audience: find, create, update, delete, suppression, bulk import. */

import { command, emailAddress, type FlagSet, group, type OptionSpec, type Spec } from '../../core/declare.js';
import { PRESET_NAMES } from './mapping.js';

const EMAIL: OptionSpec = { flags: '--email <email>', description: 'the contact’s email address', parse: emailAddress() };
const USER_ID: OptionSpec = { flags: '--user-id <id>', description: 'the contact’s userId' };
/** How the API names one contact. */
const ONE_CONTACT: FlagSet = { flags: ['--email', '--user-id'], hint: 'for example `--email ada@example.com`' };
const SUBSCRIPTION: FlagSet = { flags: ['--subscribed', '--unsubscribed'] };
const YES: OptionSpec = { flags: '--yes', description: 'do it without asking (needed when not on a terminal)' };

/** The fields create and update set. */
const FIELDS: OptionSpec[] = [
  { flags: '--first-name <name>', description: 'first name' },
  { flags: '--last-name <name>', description: 'last name' },
  { flags: '--user-group <group>', description: 'user group' },
  { flags: '--source <source>', description: 'where the contact came from (default "API")' },
  { flags: '--subscribed', description: 'subscribe the contact to campaign and workflow emails' },
  { flags: '--unsubscribed', description: 'unsubscribe the contact' },
  {
    flags: '--list <list=true|false>',
    description: 'add to (true) or remove from (false) a mailing list, named by its id or its name (repeatable)',
    repeatable: true,
  },
  {
    flags: '--prop <name=value>',
    description: "a custom property: name=value, read as the property's type (seats=3), or name:=<json> (repeatable)",
    repeatable: true,
  },
  {
    flags: '--props-file <file>',
    description: 'custom properties from a JSON object in a file ("-" for stdin); --prop wins',
    file: { inline: { name: 'props', encoding: 'json', description: 'custom properties as a JSON object; --prop wins' } },
  },
];

const TYPES_HELP = `Custom properties must exist in the account (\`loopsctl contact-properties list\`); their values
are checked against the property's type before anything is sent, and a name the account does not
have is refused with the properties it may have meant. A mailing list is named by its id or its
name (\`loopsctl lists list\`); one the account does not have stops the command before anything is
sent.`;

const IMPORT_HELP = `CSV columns: email, userId, firstName, lastName, source, userGroup, subscribed, and any custom
property of the account (typed as the account says). Empty cells set nothing.
Each record's outcome goes to the journal as it completes: run the same command again after a
stop (Ctrl-C, a crash, kill -9) and finished records are skipped, so nothing is created twice;
records that failed are tried again. Ends with a summary; exits 0 only when no record failed.

From another provider: --preset reads its export's and import template's column names in any case
(sendgrid, mailchimp, kit, customerio, brevo, postmark, resend, mailgun); other columns are custom
properties, loyalty_tier read as loyaltyTier; how each column is read is said before anything is
sent. --map renames or leaves out a column, --create-properties creates the
properties the columns need (typed from their values, before the first contact), --lists-column puts
each contact on the lists a column names (every list checked before anything is sent), and --exclude
keeps the addresses of the old provider's suppression export out (or, with --exclude-as
unsubscribed, imports them unsubscribed). See docs/migrate.md.`;

const suppression = group({
  name: 'suppression',
  summary: 'Whether a contact is on the suppression list, and taking it off',
  examples: ['loopsctl contacts suppression get --email linus@example.com'],
  commands: () => [
    command({
      name: 'get',
      // check: the Loops CLI's word.
      aliases: ['show', 'view', 'check'],
      summary: 'Show whether a contact is suppressed, and the removals left this 30 days',
      options: [EMAIL, USER_ID],
      examples: ['loopsctl contacts suppression get --email linus@example.com', 'loopsctl contacts suppression get --email linus@example.com --json'],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [ONE_CONTACT], oneRequired: [ONE_CONTACT] },
      load: async () => (await import('./commands.js')).suppressionGet,
    }),
    command({
      name: 'remove',
      summary: 'Take a contact off the suppression list (uses one removal of the 30-day quota)',
      options: [EMAIL, USER_ID, YES],
      examples: ['loopsctl contacts suppression remove --email linus@example.com --yes'],
      remote: true,
      tier: 'destructive',
      constraints: { exclusive: [ONE_CONTACT], oneRequired: [ONE_CONTACT] },
      load: async () => (await import('./commands.js')).suppressionRemove,
    }),
  ],
});

export const spec: Spec = group({
  name: 'contacts',
  aliases: ['contact'],
  summary: 'Contacts: find, create, update, delete, suppression, import',
  examples: ['loopsctl contacts find --email ada@example.com', 'loopsctl contacts import contacts.csv'],
  commands: () => [
    command({
      name: 'find',
      summary: 'Find a contact by email or userId (exit 4 when there is none)',
      options: [EMAIL, USER_ID],
      examples: ['loopsctl contacts find --email ada@example.com', 'loopsctl contacts find --user-id usr_ada --json'],
      remote: true,
      tier: 'read',
      constraints: { exclusive: [ONE_CONTACT], oneRequired: [ONE_CONTACT] },
      load: async () => (await import('./find.js')).find,
    }),
    command({
      name: 'create',
      summary: 'Create a contact (exit 5 when it exists: use update)',
      options: [{ ...EMAIL, required: true }, USER_ID, ...FIELDS],
      help: TYPES_HELP,
      examples: [
        'loopsctl contacts create --email alan@example.com --first-name Alan --prop plan=pro --prop seats:=3',
        'loopsctl contacts create --email joan@example.com --list co0gnzwtbvun8n3amky3gzsp4=true --json',
        'loopsctl contacts create --email marie@example.com --list "Beta testers=true"',
      ],
      remote: true,
      // A new or changed contact can start the account's workflows, which email it.
      tier: 'destructive',
      constraints: { exclusive: [SUBSCRIPTION] },
      load: async () => (await import('./commands.js')).create,
    }),
    command({
      name: 'update',
      summary: 'Update a contact by email or userId, creating it when none matches',
      options: [EMAIL, USER_ID, ...FIELDS],
      help: `${TYPES_HELP}\nWith both --email and --user-id, the contact with that userId gets the new email.`,
      examples: [
        'loopsctl contacts update --email ada@example.com --prop seats:=15 --unsubscribed',
        'loopsctl contacts update --user-id usr_grace --email grace@example.org',
      ],
      remote: true,
      // A new or changed contact can start the account's workflows, which email it.
      tier: 'destructive',
      constraints: {
        exclusive: [SUBSCRIPTION],
        oneRequired: [{ flags: ['--email', '--user-id'], hint: 'say which contact to update (both: the contact with that userId gets the new email)' }],
      },
      load: async () => (await import('./commands.js')).update,
    }),
    command({
      name: 'delete',
      summary: 'Delete a contact by email or userId',
      options: [EMAIL, USER_ID, YES],
      examples: ['loopsctl contacts delete --email margaret@example.com --yes'],
      remote: true,
      tier: 'destructive',
      constraints: { exclusive: [ONE_CONTACT], oneRequired: [ONE_CONTACT] },
      load: async () => (await import('./commands.js')).remove,
    }),
    suppression,
    command({
      name: 'import',
      summary: 'Create (or with --update, update) one contact per CSV or JSONL record, resumably',
      args: [{ name: 'file', description: 'CSV with a header row, or JSONL; "-" for stdin (needs --journal)', file: {} }],
      options: [
        { flags: '--update', description: 'update contacts (creating those that do not exist) instead of creating them' },
        { flags: '--format <format>', description: 'input format (default: from the file name, else csv)', choices: ['csv', 'jsonl'] },
        { flags: '--journal <file>', description: 'where each record’s outcome is kept (default: <file>.journal.jsonl)', file: { writes: true } },
        { flags: '--dry-run', description: 'check every record (fields, types, duplicate emails) and send nothing' },
        { flags: '--map <column=property>', description: 'read a CSV column as a field or property (empty: leave it out); repeatable', repeatable: true },
        { flags: '--preset <provider>', description: 'read another provider’s export columns', choices: [...PRESET_NAMES] },
        { flags: '--create-properties', description: 'create the custom properties the columns need, typed from their values, first' },
        { flags: '--lists-column <column>', description: 'a column of mailing list names or ids, separated by ; or ,' },
        { flags: '--exclude <file>', description: 'a suppression export (bounces, complaints, unsubscribes): its addresses are not imported', file: {} },
        { flags: '--exclude-as <how>', description: 'what becomes of an excluded address (default: left-out)', choices: ['left-out', 'unsubscribed'] },
      ],
      help: IMPORT_HELP,
      examples: [
        'loopsctl contacts import contacts.csv --dry-run',
        'loopsctl contacts import contacts.csv',
        'loopsctl contacts import changes.jsonl --update --json',
        'loopsctl contacts import members.csv --preset mailchimp --create-properties --lists-column Lists --exclude cleaned.csv --dry-run',
        'loopsctl contacts import export.csv --map "Company Name=company" --create-properties --lists-column Lists',
      ],
      remote: true,
      unpaged: true,
      // A new or changed contact can start the account's workflows, which email it.
      tier: 'destructive',
      load: async () => (await import('./import.js')).importContacts,
    }),
  ],
});
