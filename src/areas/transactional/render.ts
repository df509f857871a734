/** Text views of transactional emails: the list, delivery metrics and the draft record. */
import type { ListView } from '../../render/list.js';
import { formatCount, formatRate } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import { displayValue, renderTable, timestampColumn, type Column } from '../../render/table.js';
import type { MetricsRow } from '../email-metrics.js';
import { renderFields } from '../../render/fields.js';
import type { TransactionalDraftRecord, TransactionalEmail, TransactionalMetrics } from './schemas.js';

export const transactionalListView: ListView<TransactionalEmail> = {
  noun: 'transactional emails',
  // On a narrow terminal the time of day goes first, then the group id, then the date.
  // The app's address is the widest column and the first to go.
  columns: [
    { header: 'ID' },
    { header: 'NAME', truncate: true },
    { header: 'GROUP', drop: true, priority: -2 },
    { header: 'PUBLISHED' },
    { header: 'DRAFT' },
    timestampColumn('UPDATED'),
    { header: 'URL', drop: true, priority: -3 },
  ],
  row: (email) => [
    email.id,
    email.name,
    displayValue(email.transactionalGroupId),
    email.publishedEmailMessageId === null ? 'no' : 'yes',
    email.draftEmailMessageId === null ? 'no' : 'yes',
    email.updatedAt,
    displayValue(email.url),
  ],
};

/**
 * Metrics, one row per email with its name, every rate over sends. Rates have two decimals, so 4
 * spam reports in 52,907 sends show as <0.01%; on a terminal counts are grouped (52,907), and at
 * 80 columns the counts other than sends give way to the id, the name and the rates. Rows for
 * scripts keep every number plain.
 */
export function renderMetrics(out: Output, rows: MetricsRow<TransactionalMetrics>[]): string {
  const number = { align: 'right' as const };
  const count = out.tty ? formatCount : String;
  const countColumn = (header: string): Column => ({ header, ...number, drop: true, priority: -2 });
  const columns: Column[] = [
    { header: 'ID' },
    { header: 'NAME', truncate: true },
    { header: 'SENDS', ...number },
    countColumn('DELIVERIES'),
    { header: 'DELIVERY RATE', ...number },
    countColumn('HARD BOUNCES'),
    countColumn('SOFT BOUNCES'),
    { header: 'BOUNCE RATE', ...number },
    countColumn('SPAM REPORTS'),
    { header: 'SPAM RATE', ...number },
  ];
  return renderTable(
    out,
    columns,
    rows.map(({ id, name, metrics: m }) => [
      id,
      name,
      count(m.sends),
      count(m.deliveries),
      formatRate(m.deliveries, m.sends),
      count(m.hardBounces),
      count(m.softBounces),
      formatRate(m.hardBounces + m.softBounces, m.sends),
      count(m.spamReports),
      formatRate(m.spamReports, m.sends),
    ]),
  );
}

/** Every field of a transactional email, within 80 columns. */
export function renderTransactional(out: Output, record: TransactionalEmail): string {
  return renderFields(out, Object.entries(record).map(([key, value]) => [key, displayValue(value)]));
}

/** The record, and how to make the first change to the draft's content, which needs its revision. */
export function renderDraftRecord(out: Output, record: TransactionalDraftRecord): { body: string; notes: string[] } {
  const { draftEmailMessageId: draft, draftEmailMessageContentRevisionId: revision } = record;
  const notes =
    draft === null || revision === null
      ? []
      : [
          "Edit the draft's content (the first update needs its revision):",
          `  loopsctl email-messages update ${draft} \\`,
          `    --expected-revision-id ${revision} --lmx-file email.lmx`,
          `Then publish it: loopsctl transactional publish ${record.id}`,
        ];
  return { body: renderTransactional(out, record), notes };
}
