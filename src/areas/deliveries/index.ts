/**
 * `loopsctl deliveries`: the journal of webhook deliveries that `webhooks listen --store` (or an
 * app's `webhookHandler`) keeps, searched, counted, replayed to a URL, and judged against alert
 * rules. Nothing here calls the API.
 */
import { command, group, integerIn, type OptionSpec, type Spec } from '../../core/declare.js';
import { ALERT_OPTION, MIN_SENDS_OPTION } from '../webhooks-shared/alert-options.js';
import { STORE_OPTION } from '../webhooks-shared/store-option.js';
import { FILTER_OPTIONS } from './filter-options.js';

const REPLAY_HELP = `Each delivery the filters select (oldest first) is POSTed to --forward-to with its body as
received and its webhook-id, signed again with the current secret (LOOPS_WEBHOOK_SECRET or
--secret) and a fresh timestamp, so that the receiver verifies it and its dedupe holds. A delivery
kept unverified (verified: false) is left out, and their count said: signing it would pass a
forgery off as the platform's. At most
--per-second (10) deliveries a second; a 5xx, a 429 or no answer is tried again (3 tries, 1 s
then 2 s apart), and what still fails is listed (exit 1). --plan prints how many deliveries the
replay would send, chosen as the replay chooses them. Ctrl-C stops between two deliveries, says
how many were done, and prints the command that resumes after the last one (--after).`;

const PRUNE_HELP = `Removes the deliveries whose event (eventTime, else when it arrived) is older than
--older-than, with their claims and forwarding queues, 500 to a transaction, so that an app's
handler recording deliveries meanwhile waits for one short transaction at most. The counts of
deliveries stats per day and event stay: stats of those days still count them. A delivery removed
is forgotten: one sent again after is handled again. Asks on a terminal; --yes otherwise.
--dry-run says how many it would remove.`;

const ALERTS_HELP = `A rule <event type>><rate>%/<window> fires when, in the rolling window that ends at a
moment, the events of the type are more than the rate of the sends (*.email.sent events); it
resolves when the rate is back at or under it. No verdict is given while the window holds fewer
sends than the floor: by default 200 for bounces and other events and 1000 for spam reports, or
--min-sends. Rules are judged over the events' own times (eventTime), for all email together and
for each email (by its emailMessageId). Each transition is printed: fired or resolved, when, the
window, the counts and the rate; a rule whose window never held its floor of sends is said to have
had too few to judge, with the most it held. --json gives {transitions, rules}, each rule with
minSends, mostSends and judged. Exit 1 when an alert still stands fired at the end.`;

/** Declared apart, so that the group's list of commands stays under the length of one piece. */
const PRUNE_OPTIONS: OptionSpec[] = [
  {
    flags: '--older-than <date>',
    description: 'remove the deliveries whose event is older than this (90d, 12w ago, or a date: 2026-08-01)',
    required: true,
  },
  STORE_OPTION,
  { flags: '--dry-run', description: 'remove nothing: say how many deliveries would be removed' },
  { flags: '--yes', description: 'remove without asking (needed when not on a terminal)' },
];

const RECONCILE_HELP = `For each email of the account (every published transactional email, campaign sending or sent,
and workflow email), its counters (read from the API) against the events the journal kept of it:
sends against *.email.sent, deliveries against email.delivered, hard and soft bounces and spam
reports against theirs, matched by the events' transactionalId, campaignId, or a workflow's loopId
and email message. Each gap is named ("Welcome (transactional/…): 27 sends in the account, 20
kept: 7 missing"). Opens, clicks and unsubscribes are not comparable: the account counts people,
the journal every event. A journal started after the account had history is reconciled from a
time with --since: what each counter gained since the metrics store's last snapshot at or before
it (\`loopsctl metrics snapshot\`), against the events since that snapshot. With --contacts, each
contact whose last event in the journal is email.hardBounced or contact.unsubscribed (the platform
unsubscribes a contact that hard-bounces) is looked up in the account by email, within the API's
rate limit; one still subscribed there is named ("ada@example.com: unsubscribed in the journal at
…, subscribed in the account"), one not there said. A later email.resubscribed, contact.created or
contact.deleted leaves a contact unchecked, and a spam report is not checked: the platform does not
say that it unsubscribes. Exit 1 when a gap, or the number of contacts subscribed against the
journal, is larger than --max-gap (0).`;

export const spec: Spec = group({
  name: 'deliveries',
  summary: 'Search, count, replay, judge and prune the webhook deliveries kept in a delivery store',
  examples: [
    'loopsctl deliveries find --to ada@example.com --since 7d --store deliveries.db',
    'loopsctl deliveries replay --forward-to http://localhost:3000/webhooks --since 1d --store deliveries.db --plan',
  ],
  // The declarations are data, a list read as a whole (help, completion, the reference): one piece.
  commands: () => [
    command({
      name: 'find',
      summary: 'List the deliveries kept, newest first, by recipient, event type, email or time',
      options: [
        STORE_OPTION,
        ...FILTER_OPTIONS,
        { flags: '--target <url>', description: 'only deliveries passed on to this --forward-to target of `webhooks listen`, with what it answered' },
        { flags: '--limit <n>', description: 'at most this many', default: 50, parse: integerIn(1, 1_000_000) },
      ],
      examples: [
        'loopsctl deliveries find --to ada@example.com --store deliveries.db',
        'loopsctl deliveries find --event email.hardBounced,email.spamReported --since 7d --store deliveries.db --json',
        'loopsctl deliveries find --target http://localhost:3000/webhooks --since 1h --store deliveries.db',
      ],
      remote: false,
      load: async () => (await import('./find.js')).find,
    }),
    command({
      name: 'show',
      summary: 'Show one delivery as it was kept: headers, body, outcome, and what each target answered',
      args: [{ name: 'webhook-id', description: "the delivery's webhook-id (msg_...)" }],
      options: [STORE_OPTION],
      examples: ['loopsctl deliveries show msg_2mDhtZ6nCw3Hf0ZsXyVb --store deliveries.db'],
      remote: false,
      load: async () => (await import('./find.js')).show,
    }),
    command({
      name: 'stats',
      summary: 'Count sends, deliveries, bounces, complaints, opens and clicks, and their rates among sends',
      options: [
        STORE_OPTION,
        ...FILTER_OPTIONS,
        { flags: '--by <what>', description: 'one row per recipient (email), event type (event) or UTC day (day)', choices: ['email', 'event', 'day'] },
      ],
      examples: ['loopsctl deliveries stats --since 30d --store deliveries.db', 'loopsctl deliveries stats --by day --since 7d --store deliveries.db --json'],
      remote: false,
      load: async () => (await import('./stats.js')).stats,
    }),
    command({
      name: 'prune',
      summary: 'Remove the deliveries older than a time, in short transactions; the daily counts of stats stay',
      help: PRUNE_HELP,
      options: PRUNE_OPTIONS,
      examples: [
        'loopsctl deliveries prune --older-than 90d --store deliveries.db --dry-run',
        'loopsctl deliveries prune --older-than 90d --store deliveries.db --yes',
      ],
      remote: false,
      load: async () => (await import('./prune.js')).prune,
    }),
    command({
      name: 'replay',
      summary: 'Send kept deliveries again to a URL, signed now, paced and retried',
      help: REPLAY_HELP,
      options: [
        { flags: '--forward-to <url>', description: 'the URL to send the deliveries to', required: true },
        STORE_OPTION,
        ...FILTER_OPTIONS,
        { flags: '--after <webhook-id>', description: 'only the deliveries after this one (where a stopped replay was)' },
        { flags: '--per-second <n>', description: 'deliveries a second, at most', default: 10, parse: integerIn(1, 1000) },
        { flags: '--secret <secret>', description: 'the signing secret, whsec_...; prefer LOOPS_WEBHOOK_SECRET, which stays out of shell history' },
        { flags: '--plan', description: 'send nothing: print how many deliveries the replay would send' },
        { flags: '--yes', description: 'replay without asking (needed when not on a terminal)' },
      ],
      examples: [
        'loopsctl deliveries replay --forward-to http://localhost:3000/webhooks --since 1d --store deliveries.db --plan',
        'loopsctl deliveries replay --forward-to http://localhost:3000/webhooks --event contact.* --since 2026-11-20 --store deliveries.db --yes',
      ],
      remote: false,
      load: async () => (await import('./replay.js')).replay,
    }),
    command({
      name: 'alerts',
      summary: 'Judge bounce and complaint rate alerts over the kept events, and print each transition',
      help: ALERTS_HELP,
      mismatch: 'an alert still stands fired at the end',
      options: [
        { ...ALERT_OPTION, required: true },
        MIN_SENDS_OPTION,
        STORE_OPTION,
        { flags: '--since <date>', description: 'events at or after this time (2026-11-01, or 7d, 12h ago)', default: '7d' },
        { flags: '--until <date>', description: 'events before this time (a date alone: up to its end)' },
      ],
      examples: [
        "loopsctl deliveries alerts --alert 'email.hardBounced>5%/1h' --alert 'email.spamReported>0.1%/24h' --since 30d --store deliveries.db",
        "loopsctl deliveries alerts --alert 'email.hardBounced>2%/24h' --min-sends 500 --store deliveries.db --json",
      ],
      remote: false,
      load: async () => (await import('./alerts.js')).alerts,
    }),
    command({
      name: 'reconcile',
      summary: "Set each email's counters in the account against the journal's events, and name each gap",
      help: RECONCILE_HELP,
      mismatch: 'a gap is larger than --max-gap',
      options: [
        // Under loopsctl mcp, the person's store (LOOPS_DELIVERY_STORE), never a path a tool call names.
        { ...STORE_OPTION, personOnly: true },
        { flags: '--since <date>', description: "reconcile from the metrics store's last snapshot at or before this time (2026-11-01, or 7d back)" },
        {
          flags: '--metrics-store <file or url>',
          description: 'with --since: the metrics store (default: LOOPS_METRICS_STORE, else metrics.db in the config directory)',
          personOnly: true,
        },
        {
          flags: '--contacts',
          description: 'also look up each contact the journal says hard-bounced or unsubscribed, and name those subscribed in the account',
        },
        {
          flags: '--max-gap <n>',
          description: 'the largest gap a counter (or number of contacts subscribed against the journal) may have before the run exits 1',
          default: 0,
          parse: integerIn(0, 1_000_000_000),
        },
      ],
      examples: [
        'loopsctl deliveries reconcile --store deliveries.db',
        'loopsctl deliveries reconcile --store deliveries.db --since 30d --max-gap 5 --json',
        'loopsctl deliveries reconcile --store deliveries.db --contacts',
      ],
      remote: true,
      tier: 'read',
      load: async () => (await import('./reconcile.js')).reconcile,
    }),
  ],
});
