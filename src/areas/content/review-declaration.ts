/** `loopsctl content review`'s declaration: its arguments, options, help and examples. */
import { allowPrivateLinksOption, command, emailAddress } from '../../core/declare.js';

export const reviewCommand = command({
  name: 'review',
  summary: 'Show a change as the people who get its emails will see it: exactly the emails it changes, before and after',
  args: [
    { name: 'source', description: 'the content directory (default ./loops), or a plan file `content push --plan --out` wrote', required: false, file: {} },
  ],
  options: [
    {
      flags: '--env <name>',
      description: 'show the emails as this environment of environments.json sends them: its values, and with --against account its account',
    },
    {
      flags: '--base <ref>',
      description: 'compare the directory with the same directory as committed at this git ref (a pull request: --base origin/main)',
    },
    { flags: '--against <side>', description: 'account: compare the directory with the account as it is now', choices: ['account'] },
    {
      flags: '--out <file>',
      description: 'write the review as one self-contained HTML page: each email before and after, at 600 and 375 px',
      file: { writes: true },
    },
    {
      flags: '--format <format>',
      description: 'text (the default), markdown (a pull request comment or step summary) or slack (a message in Block Kit JSON)',
      choices: ['text', 'markdown', 'slack'],
      textOnly: true,
    },
    {
      flags: '--allow-network',
      description:
        "put the emails' images inside the HTML page (and draw them in the screenshots), fetched by loopsctl as it writes them; by default each is a placeholder of its size",
    },
    allowPrivateLinksOption('with --allow-network: fetch images at loopback, private and reserved addresses too (otherwise listed, not loaded)'),
    {
      flags: '--code <dir>',
      description: "the app's source (repeatable): each changed transactional email's sends in it, and those that give no value for a data variable it adds",
      repeatable: true,
      file: {},
    },
    {
      flags: '--screenshots',
      description: 'with --out: draw each email in Chromium at both widths and put the pictures in the page, the changed regions boxed',
    },
    {
      flags: '--rules <file>',
      description: 'the rules file for the `content check` findings a change brings (default loops.check.yaml here or in ./loops)',
      file: {},
    },
    {
      flags: '--send-previews <address>',
      description:
        "send each changed email through the API's preview operation to this address, where the account's draft is the change reviewed (pushed); each once, within the team's 100 a day",
      parse: emailAddress(),
      tier: 'destructive',
    },
    { flags: '--yes', description: 'with --send-previews: send without asking (needed when not on a terminal)' },
  ],
  help: `Lists exactly the emails whose result, as their recipients get it, differs
between the two sides: each email is drawn on both sides as \`content render\`
draws it (its LMX, the components it embeds, its theme, its fallbacks) and
compared block by block, with its subject, preview text, sender, plain text,
variables and, for a workflow's email, the nodes that send it. Blocks are
paired as a diff pairs lines (a component by its componentId, another block by
its tag and words): a block inserted is added, one edited changed, one drawn
the same elsewhere moved. A component
edited lists every email that embeds it; a theme every email drawn with it;
a change that draws the same (LMX reformatted, attributes reordered, a
workflow's nodes moved) lists none, and says "no email changes as recipients
see it". Added and removed emails are listed as such.

The sides: --base <ref> compares the directory as committed at a git ref (the
base of a pull request) with the working tree; nothing is checked out.
--against account compares the account as it is now (read as \`content diff\`
reads it: the directory must have been pulled) with the directory. A plan file
(\`content push --plan --out change.json\` writes the review of its emails into
it, and its page beside it) is reviewed from what it carries, offline; one
edited by hand is refused (exit 2), and one for another account than the key
at hand reaches (exit 11).

Outputs: a table (the default), --json, --format markdown (a table that fits a
GitHub comment: past 65,536 characters it says how many emails it left out),
--format slack, and with --out an HTML page that reads no network: each image
is a placeholder of its size, or, with --allow-network, the image loopsctl
fetched as it wrote the page, inside it (at most 100 images and 32 MB of them
a page; those left out are listed on the page). With --screenshots the
page also holds pictures of each email before and after at 600 and 375 px,
drawn by Chromium (found on PATH, or as LOOPSCTL_CHROMIUM names it; without
one, exit 2 and what to install), each block that changed boxed where the
browser laid it out. With --allow-network, every image is fetched by loopsctl,
never by a browser, and never at a loopback, private or reserved address
(listed instead) unless --allow-private-links. With --code, each changed transactional email's sends in
the app's source are listed (found as \`check --code\` finds them), with the
data variables the change adds that a send gives no value for; a plan's page
shows its impact (the sends so far of a workflow node it changes, the
contacts waiting). The findings of \`content check\` a change brings or
removes are ruled by the rules file it reads (loops.check.yaml here or in
./loops, or --rules): a rule turned off is not shown, one raised is an error.
The review's digest is printed with each; an approval of
the plan is for it. Nothing is sent, unless --send-previews <address>: each
changed or added email whose draft on the account draws exactly as the
reviewed side does (the change pushed) is sent through the API's preview
operation to the address, once for each digest (a record in loopsctl's cache
directory), after a yes (--yes when not on a terminal); one the account holds
otherwise is skipped, saying so. In a tree with environments.json, the account
is the environment's (--env, or the one whose profile the run uses) and the
reviewed side is filled with its values, as a push to it sends them. More than
the team has left of its 100 a day is refused before any is sent (exit 2). In
CI (docs/changes.md): run it on the pull request with --base origin/<base
branch> (fetched), post the Markdown as a comment and keep the page as an
artifact; apply the reviewed plan on merge.`,
  examples: [
    'loopsctl content review loops --base origin/main',
    'loopsctl content review loops --base origin/main --format markdown --out review.html > comment.md',
    'loopsctl content review loops --base main --json',
    'loopsctl content review loops --base origin/main --out review.html --screenshots',
    'loopsctl content review loops --against account',
    'loopsctl content review loops --against account --format markdown',
    'loopsctl content review loops --base origin/main --send-previews alex@example.com --yes',
  ],
  constraints: { exclusive: [{ flags: ['--base', '--against'], hint: 'compare with one side: a git ref or the account' }] },
  remote: true,
  tier: 'read',
  load: async (_tree, { kinds }) => (await import('./review-command.js')).reviewWith(kinds),
});
