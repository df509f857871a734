/**
 * What an email record's calls do: Guardian on each email message they write, a campaign's
 * audience when an update sets its schedule, and, for a transactional email whose draft they write
 * writes, its data variables against what is published (with the app's sends of it).
 */
import type { ApiClient } from '../../../api/client.js';
import { guardianReportOf, type LmxKind } from '../../../lmx/index.js';
import { audienceOf } from '../../campaigns/kind.js';
import type { ImpactContext, ImpactRecord } from '../../change/impact/records.js';
import { fallbacksOf } from '../../../platform/email-messages/fallbacks.js';
import { messageImpact, type WrittenMessage } from '../../email-messages/impact.js';
import { dataVariablesImpact } from '../../transactional/kind.js';
import type { Kind } from '../shared/files.js';
import type { EmailUnit } from './plan-unit.js';

/** The kind of email each record's messages are, as Guardian reads them. */
const EMAIL_KIND: Partial<Record<Kind, LmxKind>> = { transactional: 'transactional', campaigns: 'campaign' };

export async function emailImpact(client: ApiClient, unit: EmailUnit, context: ImpactContext): Promise<ImpactRecord[]> {
  const records: ImpactRecord[] = [];
  const kind = EMAIL_KIND[unit.kind];
  let draft: WrittenMessage | undefined;
  for (const call of unit.calls) {
    if (call.op === 'updateEmailMessage' && kind !== undefined) {
      const { impact, written } = await messageImpact(client, unit.record, call.messageId, call.body, kind);
      records.push(impact);
      if (written !== undefined) draft = written;
    } else if (call.op === 'createTransactional' && call.draft !== undefined) {
      records.push({
        kind: 'guardian',
        record: unit.record,
        email: unit.record,
        planned: guardianReportOf(call.draft.lmx, 'transactional', fallbacksOf(call.draft.fields)),
      });
    } else if (call.op === 'updateCampaign' && call.body.scheduling !== undefined) {
      records.push(await audienceOf(client, unit.record, call.id, call.body));
    }
  }
  // A push writes a transactional email's draft; its publish is a command's (transactional/kind.ts).
  if (unit.kind === 'transactional' && unit.id !== undefined && draft !== undefined)
    records.push(await dataVariablesImpact(client, unit.record, unit.id, draft, false, context.uses));
  return records;
}
