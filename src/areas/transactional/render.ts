/** Text views of transactional emails: the list, delivery metrics and the draft record. */
import type { TransactionalDraftRecord, TransactionalEmail, TransactionalMetrics } from './schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { displayValue, renderTable } from '../../render/table.js';
import { renderFields } from '../../render/fields.js';

export const transactionalListView: ListView<TransactionalEmail> = {
  noun: 'transactional emails',
  columns: [{ header: 'ID' }, { header: 'NAME' }, { header: 'GROUP' }, { header: 'PUBLISHED' }, { header: 'DRAFT' }, { header: 'UPDATED' }],
  row: (email) => [
    email.id,
    email.name,
    displayValue(email.transactionalGroupId),
    email.publishedEmailMessageId === null ? 'no' : 'yes',
    email.draftEmailMessageId === null ? 'no' : 'yes',
    email.updatedAt,
  ],
};

/** A share of sends as a percentage with one decimal; '-' when nothing was sent. */
export function rate(count: number, sends: number): string {
  if (sends <= 0) return '-';
  return `${((count / sends) * 100).toFixed(1)}%`;
}

export function renderMetrics(out: Output, rows: { id: string; metrics: TransactionalMetrics }[]): string {
  const number = { align: 'right' as const };
  const columns = [
    { header: 'ID' },
    { header: 'SENDS', ...number },
    { header: 'DELIVERIES', ...number },
    { header: 'DELIVERY RATE', ...number },
    { header: 'HARD BOUNCES', ...number },
    { header: 'SOFT BOUNCES', ...number },
    { header: 'BOUNCE RATE', ...number },
    { header: 'SPAM REPORTS', ...number },
    { header: 'SPAM RATE', ...number },
  ];
  return renderTable(
    out,
    columns,
    rows.map(({ id, metrics: m }) => [
      id,
      String(m.sends),
      String(m.deliveries),
      rate(m.deliveries, m.sends),
      String(m.hardBounces),
      String(m.softBounces),
      rate(m.hardBounces + m.softBounces, m.sends),
      String(m.spamReports),
      rate(m.spamReports, m.sends),
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
