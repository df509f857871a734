/** Text views of transactional emails: the list, delivery metrics and the draft record. */

import { type MetricsColumn, type MetricsRow, renderMetricsTable } from '../../core/email-metrics.js';
import type { TransactionalDraftRecord, TransactionalEmail, TransactionalMetrics } from '../../platform/transactional/schemas.js';
import { renderFields } from '../../render/fields.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { displayValue, renderRecord, timestampColumn } from '../../render/table.js';

/** The list, each email's group by its name where `groupNames` has it, else by its id. */
export const transactionalListView = (groupNames?: ReadonlyMap<string, string>): ListView<TransactionalEmail> => ({
  noun: 'transactional emails',
  // On a narrow terminal the time of day goes first, then the group, then the date.
  columns: [
    { header: 'ID' },
    { header: 'NAME', truncate: true },
    { header: 'GROUP', drop: true, priority: -2 },
    { header: 'PUBLISHED' },
    { header: 'DRAFT' },
    timestampColumn('UPDATED'),
  ],
  row: (email) => [
    email.id,
    email.name,
    displayValue(groupOf(email.transactionalGroupId, groupNames)),
    email.publishedEmailMessageId === null ? 'no' : 'yes',
    email.draftEmailMessageId === null ? 'no' : 'yes',
    email.updatedAt,
  ],
});

/** A group by its name, where the names have it; else its id, or nothing. */
function groupOf(id: string | null | undefined, names: ReadonlyMap<string, string> | undefined): string | null | undefined {
  return id === null || id === undefined ? id : (names?.get(id) ?? id);
}

const DELIVERY: MetricsColumn<TransactionalMetrics>[] = [
  { header: 'SENDS', count: (m) => m.sends, keep: true },
  { header: 'DELIVERIES', count: (m) => m.deliveries },
  { header: 'DELIVERY RATE', rate: (m) => [m.deliveries, m.sends] },
  { header: 'HARD BOUNCES', count: (m) => m.hardBounces },
  { header: 'SOFT BOUNCES', count: (m) => m.softBounces },
  { header: 'BOUNCE RATE', rate: (m) => [m.hardBounces + m.softBounces, m.sends] },
  { header: 'SPAM REPORTS', count: (m) => m.spamReports },
  { header: 'SPAM RATE', rate: (m) => [m.spamReports, m.sends] },
];

/**
 * Delivery metrics, one row per email with its name, every rate over sends. Rates have two
 * decimals, so 4 spam reports in 52,907 sends show as 0.01%; at 80 columns the id, the name, sends
 * and the three rates remain.
 */
export function renderMetrics(out: Output, rows: MetricsRow<TransactionalMetrics>[]): string {
  return renderMetricsTable(out, rows, { id: 'ID', name: 'NAME' }, DELIVERY);
}

/** Every field of a transactional email, within 80 columns. */
export function renderTransactional(out: Output, record: TransactionalEmail): string {
  if (!out.tty) return renderRecord(out, record);
  return renderFields(
    out,
    Object.entries(record).map(([key, value]) => [key, displayValue(value)]),
  );
}

/** A line of what to do next; a command is printed whole, to be copied. */
export interface DraftNote {
  text: string;
  command?: boolean;
}

/**
 * The record, and how to make the first change to the draft's content, which needs its revision.
 * A draft just created is empty: it has no subject, which the platform does not ask for before it
 * publishes and sends the email, so the command sets one.
 */
export function renderDraftRecord(out: Output, record: TransactionalDraftRecord, empty = false): { body: string; notes: DraftNote[] } {
  const { draftEmailMessageId: draft, draftEmailMessageContentRevisionId: revision } = record;
  const notes: DraftNote[] =
    draft === null || revision === null
      ? []
      : [
          {
            text: empty
              ? 'Write the draft (the first update needs its revision). It has no subject yet, and the platform would publish and send it without one:'
              : "Edit the draft's content (the first update needs its revision):",
          },
          { text: `  loopsctl email-messages update ${draft} \\`, command: true },
          { text: `    --expected-revision-id ${revision} \\`, command: true },
          ...(empty ? [{ text: '    --subject "<subject>" \\', command: true }] : []),
          { text: '    --lmx-file email.lmx', command: true },
          { text: 'Then publish it:' },
          { text: `  loopsctl transactional publish ${record.id}`, command: true },
        ];
  return { body: renderTransactional(out, record), notes };
}
