/** `loopsctl types`: the account as a TypeScript module, for an app's calls to be checked by the compiler. */
import { command, type Spec } from '../../core/declare.js';

export const spec: Spec = command({
  name: 'types',
  summary: "Write a TypeScript module of the account's transactional emails, events, contact properties and lists; --check fails on drift",
  help: `Reads the account (GET requests only) and prints, or writes to --out, a
TypeScript module: the published transactional emails by name with their ids
and data variables, the events with their properties (from the event patterns),
the contact properties with their types and the mailing lists by name with
their ids, as \`as const\` objects; and types over them, among them
SendTransactionalEmailParams<Id>, which makes the compiler check a call to the
official SDK's sendTransactionalEmail: the id, and exactly the variables that
email shows (optional where the email has a fallback for one). Every record has
a key of its own, and the objects have no prototype. The same account always
gives the same bytes; it compiles with tsc --strict.

With --format json, env, py, go or rb, the published transactional emails' and
the mailing lists' ids, the events' names and the contact properties' keys, for
an app in another language or its infrastructure. Each record has a key that is
the same in every account: a transactional email's is its directory's name in
the content tree (./loops when it was pulled, or --tree), without the --<id>
a pull ends it with, else its name's slug (password-reset); so staging's file
and production's differ only in the values (env: LOOPS_TX_PASSWORD_RESET='…'
lines; py and rb: TX_PASSWORD_RESET constants; go: TxPasswordReset in package
loops; json: an object by key, with the data variables). py (Python 3.11 or
later) and go also type the sends: a TypedDict of each email's data variables
and a function giving a send's keyword arguments (tx_password_reset), or a
struct with json tags whose Payload method gives the send's body
(TxPasswordResetData); each event's properties and the contact properties the
same way. rb has constants only: Ruby has no static types. Two records whose
names would be the same stop the command, naming both. In every format, the
file --out names keeps the names it gives records, which an app imports: a
record added later whose key meets one there is the one told apart.

With --check, nothing is written: the file is compared with the account, and
the command exits 1 naming each difference (an email renamed, a variable added)
when they differ. Run it in the app's CI. With --json: {"module": "<the text>"}, or
{"file": "<the --out file>"} once written.`,
  options: [
    // A person's: an agent reads the module as the tool's answer, and writes nothing into the app's tree.
    { flags: '--out <file>', description: 'write the module to this file (default: print it)', file: { writes: true }, personOnly: true },
    { flags: '--check', description: 'compare the --out file with the account instead of writing it; exit 1 when they differ', personOnly: true },
    {
      flags: '--format <format>',
      description: 'ts (the default), or the ids keyed the same in every account: json, env, py, go or rb (py and go with typed helpers)',
      choices: ['ts', 'json', 'env', 'py', 'go', 'rb'],
    },
    {
      flags: '--env <name>',
      description: "the account of this environment of the content tree's environments.json (--tree, default ./loops): its profile and team",
    },
    {
      flags: '--tree <dir>',
      description: "the content tree whose directories' names key the transactional emails (default ./loops, when pulled)",
      file: {},
    },
  ],
  examples: [
    'loopsctl types > loops.generated.ts',
    'loopsctl types --out loops.generated.ts',
    'loopsctl types --out loops.generated.ts --check',
    'loopsctl types --format env --out .env.loops',
    'loopsctl types --format env --out .env.loops --check',
    'loopsctl types --format py --tree loops --out loops_ids.py',
  ],
  mismatch: 'with --check, the file differs from the account',
  remote: true,
  tier: 'read',
  load: async () => (await import('./commands.js')).types,
});
