/** `loopsctl check`: the whole account checked against the platform's rules, email practice and the team's own. */
import { allowPrivateLinksOption, command, InvalidValue, type Spec, slackWebhook } from '../../core/declare.js';
import { parseRate } from './rate.js';

/** A threshold: a percentage (2%, 0.5%) or a fraction (0.02). */
function rate(value: string): number {
  const parsed = parseRate(value);
  if (parsed === undefined) throw new InvalidValue('a percentage such as 2% or 0.5%, or a fraction from 0 to 1');
  return parsed;
}

/** A spamd: `host:port`, or `host` for its usual port 783. */
function spamd(value: string): { host: string; port: number } {
  const match = /^(\[[0-9a-f:.]+\]|[^:\s[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  const port = match?.[2] === undefined ? 783 : Number(match[2]);
  if (match === null || port < 1 || port > 65_535) throw new InvalidValue('host:port of a spamd (the port 783 when left out)');
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export const spec: Spec = command({
  name: 'check',
  summary: 'Check the whole account: email content, rendering, what recipients meet, how records are wired, and the rules file; exit 1 on errors',
  help: `Reads the account (GET requests only, at the API's pace: nothing is ever
changed) and reports each problem with its rule, severity, record, app link and
what to do. The rule families:
  content       Guardian's errors and warnings, the LMX specification, and
                transactional drafts that differ from what is published
  rendered      links and images that are not https or empty, images without
                alt, buttons without a link, over 102 KB, preview text missing
                or over 150 characters, a subject over 78 characters
  qa            what a recipient meets, the components an email embeds
                included: contrast of text and button labels (WCAG 2.1),
                heading order, link text that says nothing alone, text
                under 12 px, images' alt text, and spam risk (a scored rule
                set, its total an error at the rules file's spamScore);
                \`content check\` runs these on a tree, by the same rules
                file. With --links (or --only qa), each static link
                and image fetched: broken, redirect loops, TLS errors,
                timeouts, https to http, a link whose text shows another
                domain; images that are no image, over 1 MB (5 MB an email)
                or narrower than drawn. At most 2 requests at a time to a
                host and 32 in all, each address once, nothing sent but a user
                agent; loopback, private and reserved addresses (by name or by
                what it resolves to) only with --allow-private-links; on a
                terminal, a count as they go
  wiring        workflows not sending, event triggers without an event or an
                event pattern, filters naming a contact property the account
                lacks, scheduled campaigns with nothing to send, unused mailing
                lists, components and themes (notes)
  expectations  what loops.check.yaml expects of workflows and transactional
                emails
  metrics       with a threshold (--max-bounce-rate 2% and the others, or the
                rules file's thresholds): each email's rates over its sends,
                or over the sends since --snapshot's file
  code          with --code: transactional ids the app sends to that the
                account lacks or has not published, data variables that differ
                from the published email's, unknown events, lists, properties
                (JavaScript and TypeScript parsed; Python, Ruby, Go, PHP
                tokenized; files that name no key or call a send is made of
                passed over unparsed; symlinks not followed, files over 2 MB
                skipped, and past 1,000,000 tokens the rest, with a note)
Checked emails: published transactional emails, scheduled campaigns and the
emails of sending workflows; with --drafts, drafts as well.

loops.check.yaml (here, in ./loops, or named by --rules) says what the team
expects, raises, lowers or turns off rules, and ignores records:
  workflows: { "Welcome series": { status: sending } }
  transactional: { "Password reset": { published: true, dataVariables: [firstName, resetUrl] } }
  rules: { preview-text-missing: off, insecure-link: error }
  ignore: [ workflow/Win-back (draft) ]
  allow: [ { rule: link-broken, record: campaign/Launch, link: "https://partner.example/*" } ]
  spamScore: 5
Exit 0 with no errors (and no warnings with --strict), 1 with errors, 2 when
the rules file cannot be used or a record could not be read (the report names
it under not-checked: an account not read whole is never reported clean).
With --notify, the problems that are new since --snapshot's run, and those
resolved, are posted to a Slack incoming webhook (nothing when nothing
changed; every problem without --snapshot); a post that fails is an error, and
the snapshot is then left as it was. Every rule, with examples and fixes:
docs/check.md.`,
  options: [
    { flags: '--rules <file>', description: 'the rules file (default loops.check.yaml here or in ./loops)', file: {} },
    {
      flags: '--only <families>',
      description: 'only these rule families, comma-separated: content, rendered, qa, wiring, expectations, metrics, code (qa fetches links)',
    },
    { flags: '--links', description: "qa: fetch each email's static links and images (HEAD, or a ranged GET), at most 2 at a time per host and 32 in all" },
    {
      flags: '--spamassassin <host:port>',
      description: 'qa: score each email on this spamd (your own) over SPAMC; an email it scores as spam is a warning. Nothing is sent anywhere without it',
      parse: spamd,
      // What leaves the machine, and to where, is the person's to say.
      personOnly: true,
    },
    allowPrivateLinksOption('qa: fetch links and images at loopback, private and reserved addresses too (otherwise reported, not fetched)'),
    {
      flags: '--code <dir>',
      description: "the app's source to check against the account (repeatable): transactional sends, events, mailing lists, contact properties",
      repeatable: true,
      file: {},
    },
    { flags: '--max-bounce-rate <rate>', description: 'metrics: fail an email whose bounces pass this share of its sends (2% or 0.02)', parse: rate },
    { flags: '--max-complaint-rate <rate>', description: 'metrics: the same for spam reports', parse: rate },
    { flags: '--max-unsubscribe-rate <rate>', description: 'metrics: the same for unsubscribes', parse: rate },
    { flags: '--min-open-rate <rate>', description: 'metrics: fail an email whose opens stay under this share of its sends', parse: rate },
    {
      flags: '--snapshot <file>',
      description:
        "judge the metrics over the sends since this file's run, and --notify what changed since it; then keep this run's counters and problems in it",
      file: { writes: true },
      personOnly: true,
    },
    { flags: '--strict', description: 'fail on warnings as well as errors' },
    { flags: '--drafts', description: 'check drafts too: transactional drafts, draft campaigns, emails of workflows not sending' },
    {
      flags: '--format <format>',
      description: "text (the default), github (annotations for GitHub Actions) or slack (a message in Slack's Block Kit JSON)",
      choices: ['text', 'github', 'slack'],
      textOnly: true,
    },
    {
      flags: '--notify <webhook>',
      description: "post what changed since --snapshot's run (new and resolved problems) to this Slack incoming webhook; nothing when nothing changed",
      parse: slackWebhook,
      personOnly: true,
    },
  ],
  examples: [
    'loopsctl check',
    'loopsctl check --json',
    'loopsctl check --only wiring,expectations --drafts',
    'loopsctl check --links --snapshot .loops-check.json --notify https://hooks.slack.com/services/T000/B000/XXXX',
    'loopsctl check --rules loops.check.yaml --format github',
    'loopsctl check --snapshot .loops-check.json --notify https://hooks.slack.com/services/T000/B000/XXXX',
  ],
  mismatch: 'the check found errors (with --strict, errors or warnings)',
  remote: true,
  tier: 'read',
  // --json prints an array, which a tool answers as {data: [...]}.
  output: async () => {
    const [{ z }, { problemShape }] = await Promise.all([import('../../base/shapes.js'), import('./records.js')]);
    return z.strictObject({ data: z.array(problemShape) });
  },
  load: async () => (await import('./commands.js')).check,
});
