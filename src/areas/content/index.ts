/** `loopsctl content`: an account's emails, workflows and the audience they stand on as files, to review in git and push back. */
import { type ArgumentSpec, allowPrivateLinksOption, command, group, integerIn, type OptionSpec, type Spec } from '../../core/declare.js';
import { LMX_KINDS } from '../../lmx/kinds.js';
import { QA_IMPACTS } from '../../lmx/qa/finding.js';
import { convertCommand } from './convert/declare.js';
import { CONTENT_PLAN_OPTIONS, DIRECTORY } from './declared-options.js';
import { promoteCommand } from './promote-declaration.js';
import { reviewCommand } from './review-declaration.js';

const READ_DIRECTORY: ArgumentSpec = { ...DIRECTORY, file: {} };

const ONLY: OptionSpec = {
  flags: '--only <kinds>',
  description: 'only these kinds, comma-separated: transactional, campaigns, components, themes, workflows, audience',
};
/** diff's and push's: a record directory too, to compare or put back one record (docs/content.md, backup and restore). */
const ONLY_RECORDS: OptionSpec = {
  flags: '--only <kinds|records>',
  description:
    'only these kinds (transactional, campaigns, components, themes, workflows, audience) or record directories (transactional/welcome--<id>), comma-separated',
};

/** The environment of the tree's environments.json a command is for. */
const ENV: OptionSpec = {
  flags: '--env <name>',
  description: "an environment of the tree's environments.json: its values fill {env.NAME}, and its profile (and team) is the account",
};

export const spec: Spec = group({
  name: 'content',
  summary: 'The account as code: pull emails, workflows and the audience they stand on into files, diff them, push back what changed',
  help: `A pull writes one directory per record (transactional/<name>--<id>/,
campaigns/, components/, themes/, workflows/, segments/, groups/): the LMX body
in its own .lmx file, the subject, sender and other fields in a JSON file
beside it; the contact properties in contact-properties.json and, read-only,
the mailing lists and event patterns in lists.json and event-patterns.json;
and loopsctl-state.json, which records for each account each record's id and
the revision it was pulled at. Commit the directory; review changes in pull
requests; push sends only what changed, each update guarded by the revision it
was based on, and builds another account from the same tree.`,
  examples: ['loopsctl content pull', 'loopsctl content check', 'loopsctl content diff', 'loopsctl content push --plan'],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    command({
      name: 'pull',
      summary: "Write the account's emails, workflows, segments, groups and contact properties into a directory, one file per part",
      args: [DIRECTORY],
      options: [ENV, ONLY, { flags: '--force', description: 'overwrite files edited since the last pull (the account wins)' }],
      help: `Each transactional email keeps its draft (draft.json, draft.lmx) and, for
review, what is published (published.json, published.lmx); each campaign its
email (email.json, email.lmx); each component its LMX; each theme its styles;
each workflow its graph (workflow.yaml) and emails. What they stand on (--only
audience): each segment's name, description and filter (segment.json), each
transactional and campaign group (group.json), the custom contact properties
(contact-properties.json), and, read-only, the mailing lists (lists.json) and
event patterns (event-patterns.json). Files name records by name; their ids
are in loopsctl-state.json alone. Files edited since the last pull are never
overwritten: the pull is refused (exit 2) and names them, unless --force.`,
      examples: ['loopsctl content pull', 'loopsctl content pull loops --only transactional,components', 'loopsctl content pull --json'],
      remote: true,
      tier: 'read',
      load: async () => (await import('./pull-command.js')).pull,
    }),
    command({
      name: 'diff',
      summary: 'Show what differs between the files and the account, as unified diffs; exit 1 when anything does',
      args: [READ_DIRECTORY],
      options: [
        ENV,
        ONLY_RECORDS,
        {
          flags: '--format <format>',
          description: 'text (the default) or markdown: a pull request comment, a table by kind and action, then each diff',
          choices: ['text', 'markdown'],
          textOnly: true,
        },
      ],
      help: `Each record that differs gets a heading that says on which side it changed
(here, in the account, or both) and a unified diff from the account (a/) to the
files (b/). Exit 0 when both hold the same content, 1 when anything differs:
a gate for CI. With --format markdown, the same as a pull request comment: a
table counting the records by kind and action, then a section per record with
its diff in a code fence.`,
      examples: ['loopsctl content diff', 'loopsctl content diff --only components --json', 'loopsctl content diff --format markdown > diff.md'],
      remote: true,
      tier: 'read',
      load: async () => (await import('./diff-command.js')).diff,
    }),
    command({
      name: 'check',
      summary: "Check LMX, workflow and audience files by the platform's rules, offline unless --account; exit 1 on errors",
      args: [{ name: 'paths', description: '.lmx files, or directories of them (default ./loops)', required: false, variadic: true, file: {} }],
      options: [
        {
          flags: '--env <name>',
          description:
            "check for this environment of environments.json alone: its values, and another environment's written out (by default every environment's values)",
        },
        { flags: '--kind <kind>', description: 'the kind of email of files outside a pulled tree, for the variables it may use', choices: LMX_KINDS },
        { flags: '--strict', description: 'fail on warnings as well as errors' },
        {
          flags: '--account',
          description:
            "read the account's lists, segments, event patterns and contact properties: a reference the account lacks, or a property it types otherwise, is an error",
        },
        {
          flags: '--rules <file>',
          description: 'the rules file `check` reads, for the qa rules (default loops.check.yaml here or in ./loops)',
          file: {},
        },
        {
          flags: '--html <path>',
          description: "judge an email's HTML as captured from a send (an .html or .eml file, or a directory of them) by the accessibility rules",
          file: {},
        },
        {
          flags: '--severity <level>',
          description: 'the lowest accessibility impact that fails (exit 1): critical, serious, moderate or mild (with --html, serious unless given)',
          choices: QA_IMPACTS,
        },
      ],
      help: `Every rule of the LMX specification, without a key or a request: the tags,
where each may stand and what it may hold, required attributes, attribute
types, ranges and enums (an unknown attribute is a warning), one <Style />,
2 to 4 columns, 1 to 100 icons, escaping of < and &, and the variables each
kind of email takes: transactional {data.*}, campaign {contact.*}, workflow
{contact.*} and {event.*}, component any. In a directory that a pull wrote,
each file's kind comes from where it is (transactional/, campaigns/,
components/) and a <Component> whose id the directory lacks is a warning;
--kind gives the kind of the other files. Workflow files are checked by the
rules of the graph. What refers to what is checked with the tree as the
authority: a segment's filter naming a property contact-properties.json lacks
or an operator its type does not take, a property key the API refuses or one
key given two types, a workflow's segment or property the tree lacks: an error
each; a mailing list or event that lists.json or event-patterns.json lacks is
a warning (only the account knows). With --account the check reads those
names from the account (four read calls): a name it lacks, or a property it
types otherwise, is an error. The qa rules of \`check\` run on each email, its
components' content included: contrast, heading order, link text, text size,
alt text and spam risk (warnings; a spam rule is told once the email's total
reaches 5). The rules file \`check\` reads (loops.check.yaml here or in
./loops, or --rules) turns them off, raises them, allows them for a record,
and its spamScore makes a total at or over it an error. Each accessibility
finding has its impact, as Parcel's checker and the Email Markup
Consortium's reports grade them: critical, serious, moderate or mild;
--severity makes those at a level or worse errors (without it, they stay
warnings). --html judges an email's HTML as a send delivered it (the sandbox
inbox's HTML, a saved .html or .eml) by the same rules and by lang, dir,
layout tables' role and <title>, ruled by the same rules file, failing at
serious unless --severity says.
Each problem is printed as file:line:column rule message, with the line and
what to write instead. Exit 2 when a path names nothing to check, or the rules
file cannot be used.`,
      mismatch: 'a file has errors, an accessibility finding at --severity or worse among them (with --strict, warnings too)',
      examples: [
        'loopsctl content check',
        'loopsctl content check welcome.lmx --kind transactional',
        'loopsctl content check loops --json',
        'loopsctl content check loops --account',
        'loopsctl content check loops --rules loops.check.yaml',
        'loopsctl content check loops --severity critical',
        'loopsctl content check --html captured/ --severity critical',
      ],
      remote: true,
      tier: 'read',
      load: async () => (await import('./check-command.js')).check,
    }),
    command({
      name: 'push',
      summary: 'Send the records changed in the files, each guarded by the revision it was pulled at',
      args: [DIRECTORY],
      options: [
        ENV,
        ONLY_RECORDS,
        ...CONTENT_PLAN_OPTIONS,
        {
          flags: '--code <dir>',
          description: "with --plan: the app's source (repeatable), for the sends a transactional email's new data variables would break",
          repeatable: true,
          file: {},
        },
        { flags: '--force', description: 'take the local side of a record changed in the account too' },
        {
          flags: '--no-check',
          description: "skip the checks: the LMX check of the files before anything is sent, and Guardian's of each email message pushed",
        },
        { flags: '--publish', description: 'publish the transactional emails whose drafts were pushed and passed the checks', tier: 'destructive' },
        { flags: '--yes', description: 'create records the account lacks without asking' },
        {
          flags: '--live',
          description:
            'change what reaches people now: workflows that are not drafts (sending or paused) and the emails they send, components and themes live emails use',
          tier: 'destructive',
        },
        { flags: '--recreate', description: 'build a workflow no edit script can reach as a new draft, leaving the old one as it is' },
      ],
      help: `Only records changed since they were last pulled or pushed are sent; a pull
then a push with no edits sends nothing. A record that changed in the account
too is a conflict: listed, not overwritten (exit 5), unless --force. An edit of
a campaign past its draft is listed and never sent (exit 5). Every email
message pushed is checked by Guardian: one with errors is put back as it was
and reported (exit 1); warnings are listed. Publishing is separate: --publish.
Before anything is sent, the LMX of the records to send is checked as
\`content check\` does: while a file has errors, nothing is sent (exit 1).

Against another account (--profile production with a directory pulled from
staging), records are matched by name, never made twice. What the records
stand on goes first: the contact properties, segments and groups the account
lacks are created, and a group changed here is updated; what the API cannot
change or delete (a segment's filter, a property's type, a record removed
here) is listed with what to do instead (exit 5), and mailing lists and event
patterns the tree names that the account lacks stop the push, with nothing
sent, as steps to take in the app. Then components, themes, transactional
emails (as drafts) and workflows (as drafts) the account lacks are created, in
that order (asked on a terminal, --yes otherwise); campaigns never are. An
email names the components and theme it uses by their directories in the tree,
and is sent with the ids this account has for them (an email naming one the
account lacks, and the push does not make, is refused: exit 5). A push to an
account the tree was never in step with ends with one list of what is left to
do by hand. Records the directory does not hold are never touched. A record
whose write reaches people now (a component or theme a live email uses, a live
workflow) is skipped unless --live, its line saying why, and the rest go:
exit 5.

A record directory named by --only (transactional/welcome--<id>) is compared
with the account even if its files did not change: one deleted in the account
is created anew (its new id kept in the state file), one changed there is put
back as the files have it with --force: a restore from the tree.

Workflows (workflows/<name>--<id>/workflow.yaml) are pushed as an edit script
of the API's own operations, each guarded by the workflow's revision: --plan
prints it. Only drafts are changed unless --live; a new directory becomes a new
draft; a push never publishes a workflow, and names the app's page of each one
it changed, to review and publish there.

--plan also shows what the change does to people and to the app, from the
API's answers: the contacts waiting at each node it deletes (the API's dry
run), the sends so far of each send-email node it changes in a live workflow,
Guardian's findings on each email, a transactional email's data variables
added or removed (with --code, the app's sends that would start failing), and
each record whose apply needs --live, and why. --out writes it into the plan;
--json prints it as "impact".`,
      examples: [
        'loopsctl content push --plan',
        'loopsctl content push',
        'loopsctl content push --plan --out change.json',
        'loopsctl content push --plan --code src --json',
        'loopsctl content push --only transactional --publish',
        'loopsctl content push --only transactional/password-reset--c1h3243uwicgpgajrgexlzdl5 --force',
      ],
      constraints: {
        exclusive: [
          { flags: ['--plan', '--publish'], hint: '--plan sends nothing' },
          { flags: ['--publish', '--no-check'], hint: 'only drafts that pass the checks are published' },
        ],
      },
      remote: true,
      tier: 'write',
      load: async (_tree, { kinds }) => (await import('./push-command.js')).pushWith(kinds),
    }),
    promoteCommand,
    convertCommand,
    command({
      name: 'render',
      summary: 'Print the HTML email an LMX file makes, with its theme, components and sample values: a local preview',
      args: [{ name: 'file', description: 'the .lmx file (- for stdin)', file: {} }],
      options: [
        ENV,
        {
          flags: '--kind <kind>',
          description: 'the kind of email, for a file outside a pulled tree',
          choices: LMX_KINDS,
        },
        { flags: '--data <file>', description: 'JSON of the values its variables take: {"data": {...}}, {"contact": {...}, "event": {...}}', file: {} },
        {
          flags: '--theme <theme>',
          description: "a theme.json, or a theme's id in the pulled tree (or, with a key, the account)",
          file: { orId: true },
        },
        { flags: '--out <file>', description: 'write the HTML to this file instead of stdout', file: { writes: true } },
      ],
      help: `The HTML uses the table layout and inline styles email clients need, and
semantic elements (headings, paragraphs, lists, links, images with alt text)
that a screen reader follows. It is a local preview, not the platform's exact
HTML, and says so in a comment.

The theme is the one the email's <Style themeId> names (from the pulled tree,
or with a key from the account), or --theme; the <Style /> attributes override
it. Components come from the tree's components/ (or, with a key, the account).
Variables take the values of --data, then the email's fallbacks; a variable
with no value stays visible as written, and is named on stderr. Every value is
HTML-escaped; colours that are not hex codes, and links that are not http(s),
mailto, tel or sms addresses, are left out. Nothing is sent.`,
      examples: [
        'loopsctl content render reset.lmx --kind transactional --data values.json > reset.html',
        'loopsctl content render reset.lmx --kind transactional --theme theme.json --out reset.html',
      ],
      remote: true,
      tier: 'read',
      load: async () => (await import('./render-commands.js')).render,
    }),
    reviewCommand,
    command({
      name: 'preview',
      summary: 'Serve a local page that shows each email as it renders, on desktop and mobile, and follows your edits',
      args: [DIRECTORY],
      options: [
        ENV,
        { flags: '--port <n>', description: 'port to listen on, on 127.0.0.1 (0 picks a free one)', default: 0, parse: integerIn(0, 65_535) },
        { flags: '--open', description: 'open the page in the browser' },
        {
          flags: '--kind <kind>',
          description: 'the kind of the .lmx files outside a pulled tree',
          choices: LMX_KINDS,
        },
        {
          flags: '--compare <original>',
          description: "an original email's HTML, drawn beside each email at 600 and 375 px: a converted email beside what it was",
          file: {},
        },
        {
          flags: '--rules <file>',
          description: 'the rules file for the qa findings the check panel shows, read as the preview starts (default loops.check.yaml here or in ./loops)',
          file: {},
        },
        allowPrivateLinksOption('show images at loopback, private and reserved addresses too (otherwise each is said, not loaded)'),
      ],
      help: `Prints the page's address (http://127.0.0.1:<port>/) as the one line of its
output, and serves until interrupted. The page lists the directory's emails and
components by kind and name; the one chosen is drawn at 600 px and 375 px side
by side, with the problems \`content check\` finds in it and a form of sample
values for its variables (kept beside the email, in .<name>.values.json, which
pull and push leave alone). Save an .lmx file and the page redraws within a
second.

The server listens on 127.0.0.1 only, answers only requests addressed to it
there, serves nothing but the directory's .lmx files (none over 100 KB, none
through a symbolic link), never calls the account and sends nothing. An email's
images load only from the hosts its LMX writes out, and through the server:
loopsctl fetches each (the browser reaches no other host), never at a loopback,
private or reserved address unless --allow-private-links (each one refused is
said on stderr).

With --compare, the original's HTML (an .html email, or what an MJML or React
Email build makes of its template) is drawn beside the email chosen, at 600 px
and at 375 px: \`content convert\`'s result beside what it was (one above the
other where the page is narrower than two phone frames). It runs no script,
and loads images only from the hosts it names, as the email does.

The qa findings (contrast, link text, spam risk…) are shown as \`content check\`
shows them: ruled by the rules file (loops.check.yaml here or in ./loops, or
--rules), read once as the preview starts. A rule it turns off is not shown,
one it raises is an error. Each accessibility finding says its severity and
impact (warning (serious)), and the panel counts them by impact.`,
      examples: [
        'loopsctl content preview',
        'loopsctl content preview loops --port 4321 --open',
        'loopsctl content preview loops --compare emails/welcome.html',
      ],
      interactive: true,
      remote: false,
      load: async () => (await import('./render-commands.js')).preview,
    }),
  ],
});
