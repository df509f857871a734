/**
 * What a write makes of records other than the one its path names, which a guard of it must read
 * too. A publish makes the transactional email's draft message its published one: "Publish the
 * transactional email's current draft email message. The draft becomes the published version and
 * the draft is cleared" (the API's reference, `POST /v1/transactional-emails/{transactionalId}/publish`).
 * What it publishes is the draft's content, not the record's fields: a plan of a publish is for the
 * draft as it was reviewed, and a draft edited since is another publish.
 */
import { EMAIL_MESSAGE } from './email-messages/resource.js';
import { isIssuedId } from './ids.js';
import { at } from './operation-row.js';

/** The writes that take another record's content, and that content in words. */
export const CONTENT_TAKEN: Readonly<Record<string, string>> = { publishTransactionalEmail: 'its draft' };

/** The paths (below the base URL) of the records whose content a write takes, given the answer for the record its path names. */
export function contentTaken(operation: string, record: unknown): string[] {
  if (CONTENT_TAKEN[operation] === undefined) return [];
  const draft = (record as { draftEmailMessageId?: unknown } | null)?.draftEmailMessageId;
  return isIssuedId(draft) ? [at(EMAIL_MESSAGE.operations.getEmailMessage, draft)] : [];
}
