/** The email message operations of the API. */
import type { ApiClient } from '../../api/client.js';
import { EMAIL_MESSAGE } from '../../platform/email-messages/resource.js';
import * as s from '../../platform/email-messages/schemas.js';
import { at } from '../../platform/operation-row.js';

export function getEmailMessage(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(EMAIL_MESSAGE.operations.getEmailMessage, id) }, s.emailMessage);
}

export function updateEmailMessage(api: ApiClient, id: string, body: s.EmailMessageUpdate) {
  // Not sent again once it may have arrived: a second copy would be refused as stale, and the
  // conflict reported would be with the user's own first copy.
  return api.call({ method: 'POST', idempotent: false, path: at(EMAIL_MESSAGE.operations.updateEmailMessage, id), body }, s.emailMessage);
}

export function previewEmailMessage(api: ApiClient, id: string, body: { emails: string[] } & s.PreviewVariables) {
  // A preview sent again is a second email in someone's inbox and counts against the daily limit.
  return api.call({ method: 'POST', idempotent: false, quota: true, path: at(EMAIL_MESSAGE.operations.previewEmailMessage, id), body }, s.previewAnswer);
}

export function guardianReport(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(EMAIL_MESSAGE.operations.getEmailMessageGuardian, id) }, s.guardianReport);
}
