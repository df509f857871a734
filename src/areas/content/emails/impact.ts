/**
 * What an email record's calls do: Guardian on each email message they write, and, for a
 * transactional email whose draft they write, its data variables against what is published (with
 * the app's sends of it). A push sets no campaign's schedule: that is `campaigns update`'s, whose
 * impact is its audience (campaigns/kind.ts).
 */
import type { ApiClient } from '../../../api/client.js';
import { guardianReportOf } from '../../../lmx/index.js';
import { fallbacksOf } from '../../../platform/email-messages/fallbacks.js';
import type { ImpactContext, ImpactRecord } from '../../change/impact/records.js';
import { messageImpact, type WrittenMessage } from '../../email-messages/impact.js';
import { dataVariablesImpact } from '../../transactional/kind.js';
import { type EmailUnit, messageHolder } from './plan-unit.js';

export async function emailImpact(client: ApiClient, unit: EmailUnit, context: ImpactContext): Promise<ImpactRecord[]> {
  const records: ImpactRecord[] = [];
  // The kind of email the record's message is, as Guardian reads it.
  const kind = messageHolder(unit.kind);
  let draft: WrittenMessage | undefined;
  for (const call of unit.calls) {
    if (call.op === 'updateEmailMessage' && kind !== undefined) {
      const { impact, written } = await messageImpact(client, unit.record, call.messageId, call.body, kind);
      records.push(impact);
      if (written !== undefined) draft = written;
    } else if (call.op === 'createTransactionalEmail' && call.draft !== undefined) {
      records.push({
        kind: 'guardian',
        record: unit.record,
        email: unit.record,
        planned: guardianReportOf(call.draft.lmx, 'transactional', fallbacksOf(call.draft.fields)),
      });
    }
  }
  // A push writes a transactional email's draft; its publish is a command's (transactional/kind.ts).
  if (unit.kind === 'transactional email' && unit.id !== undefined && draft !== undefined)
    records.push(await dataVariablesImpact(client, unit.record, unit.id, draft, false, context.uses));
  return records;
}
