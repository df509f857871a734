/** The contact operations of the API. */
import type { ApiClient } from '../../api/client.js';
import { CONTACT } from '../../platform/contacts/resource.js';
import * as s from '../../platform/contacts/schemas.js';

const { operations } = CONTACT;

/** A contact is named by its email or its userId; the API takes one of them. */
export type ContactRef = { email: string } | { userId: string };

export function findContacts(api: ApiClient, ref: ContactRef) {
  return api.call({ method: 'GET', path: operations.findContact.path, query: ref, idempotent: true }, s.contacts);
}

export function createContact(api: ApiClient, body: Record<string, unknown>) {
  // Sent again after a lost answer, a create that went through would come back as a 409.
  return api.call({ method: 'POST', path: operations.createContact.path, body, idempotent: false }, s.contactSaved);
}

export function updateContact(api: ApiClient, body: Record<string, unknown>) {
  // The same fields set twice leave the contact as once: safe to retry.
  return api.call({ method: 'PUT', path: operations.updateContact.path, body, idempotent: true }, s.contactSaved);
}

export function deleteContact(api: ApiClient, ref: ContactRef) {
  return api.call({ method: 'POST', path: operations.deleteContact.path, body: ref, idempotent: false }, s.contactDeleted);
}

export function suppressionStatus(api: ApiClient, ref: ContactRef) {
  return api.call({ method: 'GET', path: operations.getContactSuppression.path, query: ref, idempotent: true }, s.suppressionStatus);
}

export function removeSuppression(api: ApiClient, ref: ContactRef) {
  // Each removal uses up the removal quota.
  return api.call({ method: 'DELETE', path: operations.removeContactSuppression.path, query: ref, idempotent: false }, s.suppressionRemoved);
}
