/**
 * `loopsctl metrics`: what a change did. `snapshot` keeps the account's all-time counters, dated by
 * the account's clock, in the metrics store; `history` makes them a row a day or a week;
 * `experiments` judges each experiment of the workflows from its variants' counters; `alerts` reports
 * the rates that moved for good, each with the change before it.
 */
import { command, group, InvalidValue, integerIn, type OptionSpec, type Spec, slackWebhook } from '../../core/declare.js';
import { DELIVERY_STORE_ENV } from '../../webhooks/store/store-env.js';
import { METRICS_STORE_ENV } from './store-env.js';

/** The store; a person's to name, never a tool call's, which reads the one the person chose. */
const METRICS_STORE_OPTION: OptionSpec = {
  flags: '--store <file or url>',
  description: `the metrics store: a SQLite file (sqlite:<file> or its path) or a postgres:// URL (default: ${METRICS_STORE_ENV}, else metrics.db in the config directory)`,
  personOnly: true,
};

const SNAPSHOT_HELP = `Reads the counters of every published transactional email, every campaign sending or sent,
and every workflow's send-email node, and keeps each with the time the account answered at (the
answer's Date header, the account's clock) in the metrics store. Three listings, a read of each
workflow, then one request an email, paced within the API's rate limit. A run within a minute of
an email's last snapshot keeps nothing more for it, so a retried job does no harm. Run it nightly
(docs/metrics.md has a CI recipe): \`metrics history\` subtracts the snapshots into periods.`;

const HISTORY_HELP = `One row a period (a UTC day, or a week from Monday): what each counter gained between the last
snapshot before the period and the last one in it, with each count's rate among the sends. A
period without a snapshot is a gap, never a number made up; the next period's counts then run
from the snapshot before the gap, and say so. History starts with the email's first snapshot, and
the output says when that was. A period in which the account's clock went back between two
snapshots is refused, and says why. A transactional email reports deliveries but no opens or
clicks; a campaign or workflow email opens and clicks but no deliveries: a counter the API does not
report is '-' (null in JSON). At a terminal, a sparkline a rate follows the table. The email is
named by its id (a workflow email by its node's id, or <workflow id>/<node id>), or its name or
subject; a name that two emails share is listed, and exits 2. --out also writes a page that loads
nothing from the network: a chart a rate, a line joining only periods next to each other and each
gap shaded, the same table, and the numbers --json gives. With a delivery journal (--delivery-store,
else ${DELIVERY_STORE_ENV}), the periods before the first snapshot are counted from the email's
events the journal kept (sends, deliveries, bounces, spam reports), each marked "from the delivery
journal"; a day the journal kept no event of, or kept only part of, is a gap that says so. Nothing
is asked of the API.`;

const EXPERIMENTS_HELP = `For each experiment node (ExperimentBranchNode) of the workflows, each variant's first email on
its path, that email's counters, and each rate among sends (opens, clicks, unsubscribes, spam
reports, hard and soft bounces), its lift against the control (else the first variant), and the
test of the variants' difference: the two-proportion z-test for two variants, Pearson's
chi-squared for more, with the 95% interval of each variant's difference from the control. The
split is checked against the variants' weights (the sampling rate shared by the variants, the rest
to the control): a sample ratio mismatch (chi-squared goodness of fit, p < 0.001) makes every
verdict "ratio mismatch". Under 100 sends in a variant, or fewer than 5 expected successes or
failures in one, the verdict is "not enough data"; else p < 0.05 gives "better" or "worse" (of the
variant against the control, lower being better for unsubscribes, spam reports and bounces), or
"different" for more than two, and "no difference" otherwise. An experiment with one variant, or
fewer than two variants that send an email, is said with no verdict.`;

const ALERTS_HELP = `Judges each email's rates (deliveries, opens, clicks, unsubscribes, spam reports, hard and soft
bounces) day by day, from the metrics store's snapshots, and fires when one moved for good: two of
the last three days past its baseline, each worse than the baseline by --factor (higher for
unsubscribes, spam reports and bounces, lower for deliveries, opens and clicks) and by at least
--floor (the rates' difference). The baseline is the rate pooled over the 14 days that end a week
before the last day, so a regression younger than a week never makes its own baseline; a day of
fewer than --min-sends sends is not judged, and a baseline of fewer than three days with sends
judges nothing. A one-day spike does not fire. Each alert names the change of loopsctl's that
preceded it: the latest run in the journal of changes that changed that email between the
baseline's end and the end of the day the move began (by the account's clock), with its run id
(loopsctl log --json), who made it, what it wrote, and the id \`loopsctl undo\` takes it back by;
or says "no change of loopsctl's before it". --since judges each day from then, not only the last.
Nothing is asked of the API. Exit 1 when an alert fires.`;

/** A positive number, for the rule's factor and floor. */
function numberAbove(min: number, requirement: string) {
  return (value: string) => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number) || number <= min) throw new InvalidValue(requirement);
    return number;
  };
}

export const spec: Spec = group({
  name: 'metrics',
  summary: 'What a change did: snapshots of the counters, their history by day or week, experiment verdicts',
  examples: ['loopsctl metrics snapshot', 'loopsctl metrics history "Welcome" --by week', 'loopsctl metrics experiments'],
  commands: () => [
    command({
      name: 'snapshot',
      summary: "Keep every email's counters with the account's time, in the metrics store",
      help: SNAPSHOT_HELP,
      options: [METRICS_STORE_OPTION],
      examples: ['loopsctl metrics snapshot', 'LOOPS_METRICS_STORE=postgres://metrics@db.internal/loops loopsctl metrics snapshot --json'],
      remote: true,
      tier: 'read',
      unpaged: true,
      load: async () => (await import('./snapshot.js')).snapshot,
    }),
    command({
      name: 'history',
      summary: "An email's counters and rates a day or a week, from the metrics store's snapshots",
      help: HISTORY_HELP,
      args: [{ name: 'email', description: "the email: a transactional email's or campaign's id or name, a workflow email's node id or subject" }],
      options: [
        { flags: '--by <period>', description: 'a row a UTC day (day) or a week from Monday (week)', choices: ['day', 'week'], default: 'day' },
        { flags: '--since <date>', description: "periods from this time (2026-11-01, or 30d back from the last snapshot's time)" },
        {
          flags: '--out <file>',
          description: 'also write the history as one self-contained HTML page: a chart a rate, gaps shown as gaps, and the table',
          file: { writes: true },
          personOnly: true,
        },
        {
          flags: '--delivery-store <file or url>',
          description: `fill the periods before the first snapshot from the email's events in this delivery journal (default: ${DELIVERY_STORE_ENV}; set it empty for none)`,
          personOnly: true,
        },
        METRICS_STORE_OPTION,
      ],
      // History reads the snapshots the store keeps: the first example makes one.
      examples: [
        'loopsctl metrics snapshot',
        'loopsctl metrics history "Welcome"',
        'loopsctl metrics history cnm1gv0otq1z57mnend2pws3y/ck0xekyvtntfn4k7uu1o0agm0 --by week --since 90d --json',
        'loopsctl metrics history "Welcome" --since 90d --out history.html',
        'loopsctl metrics history "Welcome" --delivery-store deliveries.db',
      ],
      remote: false,
      readTool: true,
      load: async () => (await import('./history.js')).history,
    }),
    command({
      name: 'experiments',
      summary: "Judge each experiment's variants: rates, lift, z-test or chi-squared, sample ratio, a verdict a metric",
      help: EXPERIMENTS_HELP,
      args: [{ name: 'workflow', description: "a workflow's id or name (default: every workflow)", required: false }],
      examples: ['loopsctl metrics experiments', 'loopsctl metrics experiments "Beta onboarding subject test" --json'],
      remote: true,
      tier: 'read',
      load: async () => (await import('./experiments.js')).experiments,
    }),
    command({
      name: 'alerts',
      summary: "Report each rate that moved for good, with the change of loopsctl's that preceded it",
      help: ALERTS_HELP,
      mismatch: 'a rate moved for good',
      options: [
        { flags: '--since <date>', description: "judge each day from this time (2026-11-01, or 7d back from the last snapshot's time), not only the last" },
        {
          flags: '--factor <n>',
          description: 'how many times worse than the baseline a day must be (default 1.5)',
          parse: numberAbove(1, 'a number above 1, such as 1.5'),
        },
        {
          flags: '--floor <rate>',
          description: 'how far from the baseline a day must be, as a difference of rates (default 0.02: two points)',
          parse: numberAbove(0, 'a number above 0, such as 0.02'),
        },
        { flags: '--min-sends <n>', description: 'the sends a day needs to be judged (default 20)', parse: integerIn(1, 1_000_000_000) },
        {
          flags: '--alert <webhook>',
          description: 'post the alerts to this Slack incoming webhook; nothing when none fires',
          parse: slackWebhook,
          personOnly: true,
        },
        METRICS_STORE_OPTION,
      ],
      examples: [
        'loopsctl metrics alerts',
        'loopsctl metrics alerts --since 30d --json',
        'loopsctl metrics alerts --alert https://hooks.slack.com/services/T000/B000/XXXX',
      ],
      remote: false,
      readTool: true,
      load: async () => (await import('./alerts.js')).alerts,
    }),
  ],
});
