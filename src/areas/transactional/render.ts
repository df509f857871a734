/** Text views of transactional emails: the list, delivery metrics and the draft record. */
import type { TransactionalDraftRecord, TransactionalEmail, TransactionalMetrics } from './schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { displayValue, renderRecord, renderTable } from '../../render/table.js';

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

/** Every field of the record, with the draft's content revision called out for the next step. */
export function renderDraftRecord(out: Output, record: TransactionalDraftRecord): { body: string; note: string | undefined } {
  const body = renderRecord(out, record, { draftEmailMessageContentRevisionId: styleFor(out).bold.yellow });
  const revision = record.draftEmailMessageContentRevisionId;
  const note =
    revision === null
      ? undefined
      : `Pass draftEmailMessageContentRevisionId (${revision}) as expectedRevisionId on the first update of the draft's content.`;
  return { body, note };
}
