/**
 * What a plan's write of an email message does: Guardian's findings on the message as the account
 * holds it and as the write leaves it. The API checks a saved message only ("on a saved email
 * message", its description), so the message the write leaves is checked by the same rule set
 * (src/lmx/guardian.ts, the sandbox's Guardian). Read by the kinds whose records hold messages.
 */
import type { ApiClient } from '../../api/client.js';
import { guardianReportOf, type LmxKind } from '../../lmx/index.js';
import { FALLBACK_FIELDS, fallbacksOf } from '../../platform/email-messages/fallbacks.js';
import type { EmailMessage } from '../../platform/email-messages/schemas.js';
import { asked, type GuardianImpact } from '../change/impact/records.js';
import { getEmailMessage, guardianReport } from './client.js';

/** An email message as a plan leaves it: its id, LMX and fallbacks. */
export interface WrittenMessage {
  messageId: string;
  lmx: string;
  fields: Record<string, unknown>;
}

/** An email message as an update leaves it: its LMX and fallbacks after the update (fallbacks merge per key; null removes one). */
export function afterUpdate(current: EmailMessage, body: Record<string, unknown>): { lmx: string; fields: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  for (const field of Object.values(FALLBACK_FIELDS)) {
    const merged: Record<string, string> = { ...(current[field] ?? {}) };
    for (const [name, value] of Object.entries((body[field] as Record<string, string | null> | undefined) ?? {})) {
      if (value === null) delete merged[name];
      else merged[name] = value;
    }
    fields[field] = merged;
  }
  return { lmx: typeof body.lmx === 'string' ? body.lmx : current.lmx, fields };
}

/** Guardian on an email message an update writes: the API's answer on the saved message, the rules on what the update leaves. */
export async function messageImpact(
  client: ApiClient,
  record: string,
  messageId: string,
  body: Record<string, unknown>,
  kind: LmxKind,
): Promise<{ impact: GuardianImpact; written?: WrittenMessage }> {
  const found = await asked(async () => {
    const current = await getEmailMessage(client, messageId);
    return { current, report: await guardianReport(client, messageId) };
  });
  if ('error' in found) return { impact: { kind: 'guardian', record, email: messageId, messageId, planned: { errors: [], warnings: [] }, error: found.error } };
  const after = afterUpdate(found.answer.current, body);
  const planned = guardianReportOf(after.lmx, kind, fallbacksOf(after.fields));
  return { impact: { kind: 'guardian', record, email: messageId, messageId, saved: found.answer.report, planned }, written: { messageId, ...after } };
}
