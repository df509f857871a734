/**
 * An email message's fields file (subject, sender, fallbacks: what `email-messages update` sets but
 * the LMX), apart from the API calls of emails/remote.ts and workflows/remote.ts: `content check` reads it offline and loads no
 * area's client.
 */
import { z } from '../../../base/shapes.js';
import { EMAIL_FORMATS, type EmailMessage, type EmailMessageUpdate, FALLBACK_FIELD_NAMES, FALLBACKS_SHAPE } from '../../../platform/email-messages/schemas.js';

const MESSAGE_FIELDS = ['subject', 'previewText', 'fromName', 'fromEmail', 'replyToEmail', 'ccEmail', 'bccEmail', 'languageCode', 'emailFormat'] as const;

/** An email message's fields file: what `email-messages update` can set, but the LMX, which has a file of its own. */
export const messageFields = z.strictObject({
  subject: z.optional(z.string()),
  previewText: z.optional(z.string()),
  fromName: z.optional(z.string()),
  fromEmail: z.optional(z.string()),
  replyToEmail: z.optional(z.string()),
  ccEmail: z.optional(z.string()),
  bccEmail: z.optional(z.string()),
  languageCode: z.optional(z.string()),
  emailFormat: z.optional(z.enum(EMAIL_FORMATS)),
  ...FALLBACKS_SHAPE,
});
export type MessageFields = z.infer<typeof messageFields>;

function sortedRecord(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function fieldsOf(message: EmailMessage): MessageFields {
  const fields: Record<string, unknown> = {};
  for (const field of MESSAGE_FIELDS) if (message[field] !== undefined) fields[field] = message[field];
  for (const field of FALLBACK_FIELD_NAMES) {
    const values = message[field];
    if (values !== undefined && Object.keys(values).length > 0) fields[field] = sortedRecord(values);
  }
  return fields as MessageFields;
}

/** The update that makes a message hold `fields` and `lmx`: only what differs, fallbacks removed with null. */
export function messageUpdate(fields: MessageFields, lmx: string | undefined, current: EmailMessage): EmailMessageUpdate {
  const body: Record<string, unknown> = {};
  for (const field of MESSAGE_FIELDS) if (fields[field] !== undefined && fields[field] !== current[field]) body[field] = fields[field];
  if (lmx !== undefined && lmx !== current.lmx) body.lmx = lmx;
  for (const field of FALLBACK_FIELD_NAMES) {
    const wanted = fields[field] ?? {};
    const now = current[field] ?? {};
    const change: Record<string, string | null> = {};
    for (const [key, value] of Object.entries(wanted)) if (now[key] !== value) change[key] = value;
    for (const key of Object.keys(now)) if (!Object.hasOwn(wanted, key)) change[key] = null;
    if (Object.keys(change).length > 0) body[field] = change;
  }
  return body as EmailMessageUpdate;
}
