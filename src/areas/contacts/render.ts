/** Text views of contacts and their suppression. */

import type { Contact, SuppressionRemoved, SuppressionStatus } from '../../platform/contacts/schemas.js';
import type { Output } from '../../render/output.js';
import { renderRecord } from '../../render/table.js';

/**
 * Each contact field by field, custom properties included, in the API's order; its mailing lists
 * by name where `listNames` has them (else by id), `(off)` after one it was taken off.
 */
export function renderContacts(out: Output, found: Contact[], listNames?: ReadonlyMap<string, string>): string {
  return found.map((contact) => renderRecord(out, withListNames(contact, listNames))).join('\n');
}

function withListNames(contact: Contact, names: ReadonlyMap<string, string> | undefined): object {
  if (names === undefined || contact.mailingLists === undefined) return contact;
  const lists = Object.entries(contact.mailingLists).map(([id, on]) => `${names.get(id) ?? id}${on ? '' : ' (off)'}`);
  return { ...contact, mailingLists: lists.length === 0 ? '-' : lists.join(', ') };
}

export function renderSuppression(_out: Output, status: SuppressionStatus): string {
  const { contact, isSuppressed, removalQuota } = status;
  const who = `${contact.email} (${contact.id})`;
  return `${who} is ${isSuppressed ? 'suppressed: no email reaches it' : 'not suppressed'}\nRemovals left: ${removalQuota.remaining} of ${removalQuota.limit} in 30 days\n`;
}

export function renderRemoval(_out: Output, removed: SuppressionRemoved): string {
  return `${removed.message}\nRemovals left: ${removed.removalQuota.remaining} of ${removed.removalQuota.limit} in 30 days\n`;
}
