/**
 * What the three metrics commands share (`transactional metrics`, `campaigns metrics`, `workflow
 * nodes metrics`): fetching the metrics of several items a few at a time, where each item that
 * fails is reported on its own and the rest are still shown; items the API has no metrics for (a
 * campaign not sent yet, a node that sends no email) said in words without failing the run; and
 * the engagement metrics of campaigns and workflow emails with their rates over sends.
 */

import { settleLimit } from '../api/concurrency.js';
import { AuthError, InterruptedError, LoopsctlError, NetworkError } from '../base/errors.js';
import { sanitize } from '../base/sanitize.js';
import type { EmailMetrics } from '../platform/email-metrics.js';
import { formatCount, formatRate } from '../render/numbers.js';
import { formatJson, type Output } from '../render/output.js';
import { ProgressLine } from '../render/progress.js';
import { type Column, renderTable } from '../render/table.js';
import type { Uses } from './capabilities.js';
import { reportError } from './report.js';

/** How many metrics requests may be in flight at once. */
const CONCURRENCY = 4;

/** Why an item has no metrics, when the API's refusal means just that (not sent yet). */
type NoMetrics = (item: string, error: LoopsctlError) => Promise<string | undefined>;

export interface EachItem<R> {
  /** The items, in the order given; repeats are fetched once. */
  items: string[];
  /** What the progress line counts: "campaigns", "send-email nodes". */
  noun: string;
  /** What the progress line says was done to them (default: "fetched the metrics of"). */
  fetched?: string;
  fetch: (item: string) => Promise<R>;
  /** Says why an item that failed has no metrics, or undefined when its failure is a failure. */
  noMetrics?: NoMetrics;
  /** The fields that name an item in JSON: {campaignId: item}. */
  about: (item: string) => Record<string, string>;
}

export interface EachResult<R> {
  found: { item: string; value: R }[];
  /** The exit code: the highest of the failures', 0 when only items without metrics were left out. */
  code: number;
}

/**
 * Fetches every item, a few at a time, and reports on stderr each item without metrics (a note)
 * and each that failed (an error, prefixed with the item when there are several). A failure that
 * would fail every item alike (a refused key, no network, Ctrl-C) stops the run at once.
 */
export async function fetchEach<R>(context: Uses<'out' | 'client' | 'globals'>, spec: EachItem<R>, options: { jsonl?: boolean }): Promise<EachResult<R>> {
  const items = [...new Set(spec.items)];
  const progress = new ProgressLine(() => context.runtime.stderr, context.runtime.paged);
  let done = 0;
  const outcomes = await settleLimit(
    items,
    CONCURRENCY,
    async (item) => {
      try {
        return await spec.fetch(item);
      } finally {
        done += 1;
        if (items.length > 1) progress.show(`${spec.fetched ?? 'fetched the metrics of'} ${formatCount(done)} of ${formatCount(items.length)} ${spec.noun}`);
      }
    },
    {
      dooms: (error) => error instanceof AuthError || error instanceof InterruptedError || (error instanceof NetworkError && error.code !== 'timeout'),
      onDoomed: () => context.cancel(),
    },
  ).finally(() => progress.clear());
  const json = context.out.json || options.jsonl === true;
  const found: EachResult<R>['found'] = [];
  const failed: { item: string; error: LoopsctlError }[] = [];
  const skipped: { item: string; reason: string }[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) {
      found.push({ item: outcome.item, value: outcome.value });
      continue;
    }
    const error = asLoopsctlError(outcome.error);
    const reason = await spec.noMetrics?.(outcome.item, error);
    if (reason === undefined) failed.push({ item: outcome.item, error });
    else skipped.push({ item: outcome.item, reason });
  }
  const { stderr } = context.runtime;
  for (const { item, reason } of skipped) {
    if (json) stderr.write(`${formatJson({ noMetrics: { ...spec.about(item), reason } }, 0)}\n`);
    else stderr.write(`${sanitize(`${item}: ${reason}`)}\n`);
  }
  for (const { item, error } of failed) {
    // With one item, the message is the API's own; with several, it says which item it is about.
    reportError(stderr, error, { json, about: spec.about(item), prefix: items.length > 1 ? `${item}: ` : '', debug: context.globals.debug });
  }
  return { found, code: failed.reduce((worst, { error }) => Math.max(worst, error.exitCode), 0) };
}

/**
 * The names of the items whose metrics were found, for the table: read after the metrics, a few at
 * a time, so an item that failed costs no second request; a name that cannot be read is '-'.
 */
export async function namesOf(items: string[], read: (item: string) => Promise<string | undefined>): Promise<Map<string, string>> {
  const outcomes = await settleLimit(items, CONCURRENCY, read);
  return new Map(outcomes.map((outcome) => [outcome.item, outcome.ok && outcome.value !== undefined ? outcome.value : '-']));
}

/** What was thrown, as one of ours: anything else is a bug and is thrown on. */
function asLoopsctlError(error: unknown): LoopsctlError {
  if (error instanceof LoopsctlError) return error;
  throw error;
}

/** Metrics objects under --json (an array, whatever their number) or --jsonl (one a line). */
export function writeMetricsJson(out: Output, objects: object[], jsonl: boolean): Promise<void> {
  if (jsonl) return out.write(objects.map((object) => `${formatJson(object, 0)}\n`).join(''));
  return out.writeJson(objects);
}

/** A row of a metrics table: what the item is, and its metrics. */
export interface MetricsRow<M> {
  id: string;
  /** Its name, subject or '-' when it could not be read. */
  name: string;
  metrics: M;
}

/**
 * A column of a metrics table: a count, which gives way on a narrow terminal unless it is kept, or
 * a rate as part over whole, which stays unless it may give way too.
 */
export type MetricsColumn<M> =
  | { header: string; count: (metrics: M) => number; keep?: boolean }
  | { header: string; rate: (metrics: M) => [part: number, whole: number]; drop?: boolean };

/**
 * Metrics, one row per item with its id and name. On a terminal counts are grouped (4,210), and as
 * the terminal narrows the long headers go onto two lines, then the counts give way (then the rates
 * that may), so the id, the name and the rates remain; piped rows keep every number plain.
 */
export function renderMetricsTable<M>(out: Output, rows: MetricsRow<M>[], labels: { id: string; name: string }, metrics: MetricsColumn<M>[]): string {
  const shown = out.tty ? formatCount : String;
  const columns: Column[] = [
    { header: labels.id },
    { header: labels.name, truncate: true },
    ...metrics.map((column): Column => {
      const gives = 'count' in column ? column.keep !== true : column.drop === true;
      return { header: column.header, align: 'right', ...(gives ? { drop: true, priority: 'count' in column ? -2 : -1 } : {}) };
    }),
  ];
  const cells = (values: M) => metrics.map((column) => ('count' in column ? shown(column.count(values)) : formatRate(...column.rate(values))));
  return renderTable(
    out,
    columns,
    rows.map(({ id, name, metrics: values }) => [id, name, ...cells(values)]),
  );
}

const ENGAGEMENT: MetricsColumn<EmailMetrics>[] = [
  { header: 'SENDS', count: (m) => m.sends, keep: true },
  { header: 'OPENS', count: (m) => m.opens },
  { header: 'OPEN RATE', rate: (m) => [m.opens, m.sends] },
  { header: 'CLICKS', count: (m) => m.clicks },
  { header: 'CLICK RATE', rate: (m) => [m.clicks, m.sends] },
  { header: 'UNSUBSCRIBES', count: (m) => m.unsubscribes },
  { header: 'UNSUB RATE', rate: (m) => [m.unsubscribes, m.sends], drop: true },
  { header: 'HARD BOUNCES', count: (m) => m.hardBounces },
  { header: 'SOFT BOUNCES', count: (m) => m.softBounces },
  { header: 'BOUNCE RATE', rate: (m) => [m.hardBounces + m.softBounces, m.sends] },
  { header: 'SPAM REPORTS', count: (m) => m.spamReports },
  { header: 'SPAM RATE', rate: (m) => [m.spamReports, m.sends] },
];

/**
 * Engagement metrics of campaigns or workflow emails, every rate over sends (a send opened five
 * times counts once, so opens never exceed sends). At 80 columns the id, the name, sends and the
 * open, click, bounce and spam rates remain.
 */
export function renderEmailMetrics(out: Output, rows: MetricsRow<EmailMetrics>[], labels: { id: string; name: string }): string {
  return renderMetricsTable(out, rows, labels, ENGAGEMENT);
}

/** "1,922 sends, 45.66% opened, 7.15% clicked": a send-email node's metrics beside it in a tree. */
export function describeEngagement(metrics: EmailMetrics): string {
  const sends = `${formatCount(metrics.sends)} send${metrics.sends === 1 ? '' : 's'}`;
  if (metrics.sends === 0) return sends;
  return `${sends}, ${formatRate(metrics.opens, metrics.sends)} opened, ${formatRate(metrics.clicks, metrics.sends)} clicked`;
}
