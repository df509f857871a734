/**
 * `metrics alerts`: each email's rates that moved for good (sustained.ts has the rule), each with
 * the change of loopsctl's that preceded it, from the journal of changes (preceding.ts), or none.
 * Nothing is asked of the API; `--alert` posts the alerts to a Slack incoming webhook. Exit 1 when
 * one fires, for CI.
 */
import { ExitCode } from '../../base/errors.js';
import { instantOf } from '../../base/instant.js';
import { readEntries } from '../../config/change-journal-files.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { escapeMrkdwn, type SlackMessage, section } from '../../render/markup.js';
import { formatRate } from '../../render/numbers.js';
import { describeEmail } from './history.js';
import { historyOf, periodStart, RATE_NAMES } from './periods.js';
import { type PrecedingChange, precedingChange } from './preceding.js';
import { type KeptEmail, openMetricsStore } from './store.js';
import { DEFAULT_RULE, type Sustained, type SustainedRule, sustainedChanges } from './sustained.js';

interface AlertsOptions {
  store?: string;
  since?: string;
  alert?: string;
  factor?: number;
  floor?: number;
  minSends?: number;
}

const DAY_MS = 86_400_000;

export interface RateAlert extends Sustained {
  email: KeptEmail;
  /** The last day of the three judged: the day it fired. */
  day: number;
  change: PrecedingChange | null;
}

export const alerts: Handler<[], AlertsOptions> = handler(['out', 'config', 'env', 'outside'], async (context, _args, options) => {
  const { out } = context;
  const rule: SustainedRule = {
    factor: options.factor ?? DEFAULT_RULE.factor,
    floor: options.floor ?? DEFAULT_RULE.floor,
    minSends: options.minSends ?? DEFAULT_RULE.minSends,
  };
  const store = await openMetricsStore(context, options);
  const found: RateAlert[] = [];
  let judged = 0;
  try {
    const emails = await store.emails();
    const entries = readEntries(context.configDir);
    for (const email of emails) {
      const points = await store.series(email.key);
      const made = historyOf(points, 'day');
      if (made === undefined) continue;
      judged += 1;
      const last = made.rows.at(-1)!.start;
      // --since judges each day from then to the last (the account's time, as the snapshots are dated); else the last alone.
      const first = options.since === undefined ? last : periodStart(instantOf(options.since, '--since', new Date(last + DAY_MS), 'start'), 'day');
      const seen = new Set<string>();
      for (let day = Math.max(first, made.rows[0]!.start); day <= last; day += DAY_MS)
        for (const moved of sustainedChanges(made.rows, day, rule)) {
          // A move that lasts fires on each of its days: it is said once, the first day it fires.
          const key = `${moved.field}\u0000${moved.onset}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const change = precedingChange(context.configDir, email, moved.baseline.to, moved.onset + DAY_MS, entries) ?? null;
          found.push({ ...moved, email, day, change });
        }
    }
  } finally {
    await store.close();
  }
  if (out.json) await out.writeJson({ rule, judged, alerts: found.map(alertJson) });
  else if (found.length > 0) await out.write(found.map((alert) => `${alertText(alert)}\n`).join(''));
  else out.note(`No rate moved for good in ${judged} emails (two of the last three days past their baseline).`);
  if (options.alert !== undefined && found.length > 0) {
    const { postToWebhook } = await import('../check/notify.js');
    await postToWebhook(context, options.alert, alertsMessage(found));
  }
  return found.length > 0 ? ExitCode.mismatch : ExitCode.ok;
});

const day = (time: number) => new Date(time).toISOString().slice(0, 10);
const rate = (value: number) => formatRate(value, 1);

function moveText(alert: RateAlert): string {
  const days = alert.days.map((each) => (each.rate === null ? '-' : rate(each.rate))).join(', ');
  return `${RATE_NAMES[alert.field]} ${alert.direction} from ${rate(alert.baseline.rate)} (${day(alert.baseline.from)} to ${day(alert.baseline.to - DAY_MS)}) to ${days} on the three days to ${day(alert.day)}, since ${day(alert.onset)}`;
}

function changeText(change: PrecedingChange | null): string {
  if (change === null) return "no change of loopsctl's before it";
  const writes = change.writes.map((write) => `${write.operation} (${write.kind}${write.name === undefined ? '' : ` "${write.name}"`})`).join(', ');
  const undo = change.undoId === undefined ? 'no before-image kept: `loopsctl undo` cannot take it back' : `undo: loopsctl undo ${change.undoId}`;
  return `after \`${change.command}\` at ${change.at} by ${change.who} (${change.via}), run ${change.run} in \`loopsctl log\`: ${writes}; ${undo}`;
}

function alertText(alert: RateAlert): string {
  return `${describeEmail(alert.email)}: ${moveText(alert)}\n  ${changeText(alert.change)}`;
}

function alertJson(alert: RateAlert) {
  const iso = (time: number) => new Date(time).toISOString();
  return {
    email: alert.email,
    field: alert.field,
    direction: alert.direction,
    day: iso(alert.day),
    onset: iso(alert.onset),
    baseline: { ...alert.baseline, from: iso(alert.baseline.from), to: iso(alert.baseline.to) },
    days: alert.days.map((each) => ({ ...each, start: iso(each.start) })),
    change: alert.change,
  };
}

function alertsMessage(found: readonly RateAlert[]): SlackMessage {
  const heading = `loopsctl metrics: ${found.length} rate${found.length === 1 ? '' : 's'} moved for good`;
  const lines = found.map(
    (alert) => `:rotating_light: *${escapeMrkdwn(describeEmail(alert.email))}*: ${escapeMrkdwn(moveText(alert))}\n${escapeMrkdwn(changeText(alert.change))}`,
  );
  return { text: heading, blocks: [section(`*${escapeMrkdwn(heading)}*`), ...lines.map(section)] };
}
