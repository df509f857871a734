/**
 * `metrics history <email or node>`: an email's counters a day or a week, from the snapshots the
 * metrics store keeps; nothing is asked of the API. At a terminal, a sparkline a rate under the
 * table.
 */
import { LocalFileError, UsageError } from '../../base/errors.js';
import { instantOf } from '../../base/instant.js';
import { namedFilePlace } from '../../base/tree-files.js';
import { writeTreeFile } from '../../base/tree-writes.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { formatCount, formatRate } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import { renderTable } from '../../render/table.js';
import { wrapText } from '../../render/wrap.js';
import { eventsKeyOf, journalDays, journalRows, openJournal } from './journal.js';
import {
  COUNTER_FIELDS,
  type CounterField,
  type History,
  historyOf,
  type PeriodLength,
  type PeriodRow,
  type Point,
  periodStart,
  RATE_NAMES,
  RATED_FIELDS,
} from './periods.js';
import { type KeptEmail, type MetricsStore, openMetricsStore } from './store.js';

interface HistoryOptions {
  store?: string;
  by?: PeriodLength;
  since?: string;
  out?: string;
  deliveryStore?: string;
}

/** A history as shown: the email's, by what period, and where a delivery journal filled the periods before its first snapshot. */
export interface Shown {
  email: KeptEmail;
  by: PeriodLength;
  made: History;
  /**
   * The journal read (shown without its password), the start of the first period it filled (null:
   * none), and whether the email's events could be told (a workflow email's need its message);
   * absent when none was named.
   */
  journal?: { store: string; from: number | null; matched: boolean };
}

const HEADERS: Record<CounterField, string> = {
  sends: 'SENDS',
  deliveries: 'DELIVERED',
  opens: 'OPENS',
  clicks: 'CLICKS',
  unsubscribes: 'UNSUBSCRIBES',
  spamReports: 'SPAM REPORTS',
  hardBounces: 'HARD BOUNCES',
  softBounces: 'SOFT BOUNCES',
};

/**
 * The email `wanted` names among those kept: its key, its record's id (a transactional email, a
 * campaign), its node's id (`<node id>` or `<workflow id>/<node id>`), or its name or subject in
 * any case. A name two emails share is a usage error that lists them.
 */
export function findEmail(emails: readonly KeptEmail[], wanted: string): KeptEmail {
  const text = wanted.trim();
  const exact = emails.filter(
    (email) => email.key === text || (email.nodeId === null ? email.recordId === text : email.nodeId === text || `${email.recordId}/${email.nodeId}` === text),
  );
  const found = exact.length > 0 ? exact : emails.filter((email) => email.name.toLowerCase() === text.toLowerCase());
  if (found.length === 1) return found[0]!;
  if (found.length === 0)
    throw new UsageError(`no email named ${JSON.stringify(text)} has a snapshot in the metrics store`, {
      hint: 'run `loopsctl metrics snapshot` first, or name the email by its id, its node id, or its name',
    });
  throw new UsageError(`${JSON.stringify(text)} names ${found.length} emails: ${found.map(describeEmail).join('; ')}`, {
    hint: 'name one by its key, as listed',
  });
}

/** "transactional/cm1… "Welcome"", "workflow/… "Subject" in Onboarding": what an email is, by its key. */
export function describeEmail(email: KeptEmail): string {
  return `${email.key} "${email.name}"${email.workflowName === null ? '' : ` in workflow "${email.workflowName}"`}`;
}

export const history: Handler<[string], HistoryOptions> = handler(['out', 'files', 'config', 'env'], async (context, [wanted], options) => {
  const { out } = context;
  const by = options.by ?? 'day';
  const store = await openMetricsStore(context, options);
  try {
    const email = findEmail(await store.emails(), wanted);
    const points = await store.series(email.key);
    // A span (7d) counts back from the last snapshot: the account's time, which a moved sandbox clock keeps too.
    const lastAt = new Date(Math.max(...points.map((point) => point.takenAt)));
    const since = options.since === undefined ? undefined : instantOf(options.since, '--since', lastAt, 'start');
    const shown = await withJournal(context, options, { email, by, made: historyOf(points, by, since)! }, store, points, since);
    if (options.out !== undefined) await writePage(context, options.out, shown);
    if (out.json) return await out.writeJson(historyJson(shown));
    await out.write(renderHistory(out, shown));
  } finally {
    await store.close();
  }
});

/**
 * The history with the periods before the first snapshot filled from the delivery journal, when
 * one is named: each a period the journal counted the email's events of, or a gap saying why not.
 */
async function withJournal(
  context: Uses<'env'>,
  options: HistoryOptions,
  shown: Shown,
  store: MetricsStore,
  points: readonly Point[],
  since: number | undefined,
): Promise<Shown> {
  const journal = await openJournal(context, options);
  if (journal === undefined) return shown;
  try {
    const { email, by, made } = shown;
    const eventsKey = eventsKeyOf(email, email.kind === 'workflow' ? await store.messageOf(email.key) : undefined);
    if (eventsKey === undefined) return { ...shown, journal: { store: journal.location, from: null, matched: false } };
    // The counters the email's snapshots report: the journal fills no other.
    const reported = points.at(-1)!.counts;
    const until = periodStart(made.startsAt, by);
    const days = await journalDays(journal, eventsKey, reported, since === undefined ? undefined : periodStart(since, by), until);
    const rows = journalRows(days, by);
    return { ...shown, made: { ...made, rows: [...rows, ...made.rows] }, journal: { store: journal.location, from: rows[0]?.start ?? null, matched: true } };
  } finally {
    await journal.close();
  }
}

function historyJson({ email, by, made, journal }: Shown) {
  const iso = (time: number | undefined) => (time === undefined ? undefined : new Date(time).toISOString());
  return {
    email,
    by,
    historyStartsAt: iso(made.startsAt),
    journal: journal === undefined ? null : { store: journal.store, from: journal.from === null ? null : iso(journal.from) },
    periods: made.rows.map((row) => ({ ...row, start: iso(row.start), end: iso(row.end), from: iso(row.from), to: iso(row.to) })),
  };
}

/** The counters some period has, in the table's order: a counter the API does not report for the email is left out. */
function shownFields(made: History): CounterField[] {
  return COUNTER_FIELDS.filter((field) => made.rows.some((row) => row.counts !== undefined && row.counts[field] !== null));
}

/** The table's header cells and a row of cells a period, as the terminal and the page show them. */
function tableOf({ made, by }: Shown, shown: (count: number) => string): { headers: string[]; rows: string[][] } {
  const fields = shownFields(made);
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  const rows = made.rows.map((row) => {
    const counts = row.counts;
    const cells = fields.map((field) => {
      const count = counts?.[field];
      if (count === undefined || count === null) return '-';
      return field === 'sends' ? shown(count) : `${shown(count)} (${formatRate(count, counts!.sends ?? 0)})`;
    });
    return [by === 'day' ? day(row.start) : `week of ${day(row.start)}`, ...cells, noteOf(row, by)];
  });
  return { headers: [by === 'day' ? 'DAY' : 'WEEK', ...fields.map((field) => HEADERS[field]), 'NOTE'], rows };
}

/** What the output says first: whose history, by what, that it starts with the first snapshot, and what a journal filled before it. */
function startSaid({ email, by, made, journal }: Shown): string[] {
  const said = [`${describeEmail(email)} by ${by}: history starts with its first snapshot, ${new Date(made.startsAt).toISOString()}`];
  if (journal === undefined) return said;
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  if (!journal.matched)
    said.push(
      `The delivery journal ${journal.store} fills no ${by}: this workflow email's events name its message, which no snapshot of it has kept yet (the next \`loopsctl metrics snapshot\` keeps it).`,
    );
  // Said whether --since starts after the first snapshot or the journal kept nothing of the email before it.
  else if (journal.from === null)
    said.push(`The delivery journal ${journal.store} fills no ${by} here: it kept no event of this email in a period shown before the first snapshot.`);
  else
    said.push(
      `Before it, from ${day(journal.from)}, each ${by} marked "from the delivery journal" is counted from the events of this email that ${journal.store} kept: sends, deliveries, hard and soft bounces and spam reports (opens, clicks and unsubscribes count people in the account but events in the journal, and are left out).`,
    );
  return said;
}

function renderHistory(out: Output, shown: Shown): string {
  const { headers, rows } = tableOf(shown, out.tty ? formatCount : String);
  // Sentences, wrapped at a terminal as the table is fitted to it.
  const header = startSaid(shown)
    .map((said) => `${out.tty ? wrapText(said, out.columns) : said}\n`)
    .join('');
  const table = renderTable(
    out,
    headers.map((text, index) =>
      index === 0 ? { header: text } : index === headers.length - 1 ? { header: text, prose: true } : { header: text, align: 'right' as const },
    ),
    rows,
  );
  return `${header}${table}${out.tty ? sparklines(shown.made.rows) : ''}`;
}

/** The HTML of the page --out writes. */
export async function pageOf(shown: Shown): Promise<string> {
  const { historyPage } = await import('./history-page.js');
  return historyPage(`${shown.email.name}: history by ${shown.by}`, historyJson(shown), shown.made.rows, startSaid(shown), tableOf(shown, formatCount));
}

/** The page --out names, written as every --out of loopsctl's is: a regular file replaced whole, never through a link. */
async function writePage(context: Uses<'out'>, file: string, shown: Shown): Promise<void> {
  const html = await pageOf(shown);
  const { root, path } = namedFilePlace(file);
  try {
    writeTreeFile(root, path, html);
  } catch (error) {
    throw error instanceof LocalFileError ? error : new LocalFileError(`cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
  context.out.note(`Wrote the history of ${describeEmail(shown.email)} to ${file}.`);
}

/** What a row's numbers are, when they are not simply its period's. */
function noteOf(row: PeriodRow, by: PeriodLength): string {
  const time = (at: number) => new Date(at).toISOString().replace('.000Z', 'Z');
  if (row.status === 'gap') return row.reason === undefined ? 'no snapshot: a gap' : `no snapshot: a gap (${row.reason})`;
  if (row.status === 'journal') return 'from the delivery journal';
  if (row.status === 'refused') return `refused: ${row.reason}`;
  if (row.status === 'start') return 'first snapshot: history starts here';
  // The snapshot subtracted is before the period before: the counts include the gap's.
  const previous = row.start - (by === 'day' ? 86_400_000 : 7 * 86_400_000);
  return row.from! < previous ? `since ${time(row.from!)} (after a gap)` : '';
}

const BARS = '▁▂▃▄▅▆▇█';

/** A line of bars, one a period, the lowest value the shortest; a period without a value a space. */
export function sparkline(values: readonly (number | null)[]): string {
  const known = values.filter((value): value is number => value !== null);
  const low = Math.min(...known);
  const high = Math.max(...known);
  return values
    .map((value) => {
      if (value === null) return ' ';
      if (high === low) return BARS[3];
      return BARS[Math.round(((value - low) / (high - low)) * (BARS.length - 1))];
    })
    .join('');
}

function sparklines(rows: readonly PeriodRow[]): string {
  const lines = RATED_FIELDS.flatMap((field) => {
    const values = rows.map((row) => row.rates?.[field] ?? null);
    const known = values.filter((value): value is number => value !== null);
    if (known.length === 0) return [];
    const range = `${formatRate(Math.min(...known), 1)} to ${formatRate(Math.max(...known), 1)}`;
    return [`${RATE_NAMES[field].padEnd(17)} ${sparkline(values)}  ${range}`];
  });
  return lines.length === 0 ? '' : `\n${lines.join('\n')}\n`;
}
