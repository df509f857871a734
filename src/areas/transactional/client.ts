/** The transactional email operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { at } from '../../platform/operation-row.js';
import { TRANSACTIONAL_EMAIL } from '../../platform/transactional/resource.js';
import * as s from '../../platform/transactional/schemas.js';

export const transactionalEmails: ListResource<s.TransactionalEmail> = {
  path: TRANSACTIONAL_EMAIL.operations.listTransactionalEmails.path,
  item: s.transactionalEmail,
};

export function transactionalMetrics(api: ApiClient, transactionalId: string) {
  return api.call(
    { method: 'GET', idempotent: true, path: at(TRANSACTIONAL_EMAIL.operations.getTransactionalEmailMetrics, transactionalId) },
    s.transactionalMetrics,
  );
}

export function ensureDraft(api: ApiClient, transactionalId: string) {
  // Ensuring a draft leaves an existing draft unchanged, so asking twice is the same as once.
  return api.call(
    { method: 'POST', path: at(TRANSACTIONAL_EMAIL.operations.ensureTransactionalDraft, transactionalId), idempotent: true },
    s.transactionalDraftRecord,
  );
}

export function createTransactional(api: ApiClient, body: { name: string; transactionalGroupId?: string }) {
  // Each create makes a new email: sent again after a lost answer, it would make a duplicate.
  return api.call({ method: 'POST', path: TRANSACTIONAL_EMAIL.operations.createTransactionalEmail.path, body, idempotent: false }, s.transactionalDraftRecord);
}

export function getTransactional(api: ApiClient, transactionalId: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(TRANSACTIONAL_EMAIL.operations.getTransactionalEmail, transactionalId) }, s.transactionalEmail);
}

export function updateTransactional(api: ApiClient, transactionalId: string, body: { name?: string; transactionalGroupId?: string }) {
  // Setting the same name and group again leaves the email as the first call did.
  return api.call(
    { method: 'POST', idempotent: true, path: at(TRANSACTIONAL_EMAIL.operations.updateTransactionalEmail, transactionalId), body },
    s.transactionalEmail,
  );
}

export function publishTransactional(api: ApiClient, transactionalId: string) {
  // Sent again after it published, it would be refused for want of a draft: not retried.
  return api.call(
    { method: 'POST', idempotent: false, path: at(TRANSACTIONAL_EMAIL.operations.publishTransactionalEmail, transactionalId) },
    s.transactionalEmail,
  );
}
