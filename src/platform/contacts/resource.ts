/** A contact as a resource of the API (operation-row.ts): a person, found by email or user id, and their suppression. */
import type { ResourceRow } from '../operation-row.js';

export const CONTACT = {
  noun: 'contact',
  operations: {
    createContact: { method: 'POST', path: '/v1/contacts/create', bodyIds: { userId: 'contact' } },
    updateContact: { method: 'PUT', path: '/v1/contacts/update', bodyIds: { userId: 'contact' } },
    findContact: { method: 'GET', path: '/v1/contacts/find' },
    deleteContact: { method: 'POST', path: '/v1/contacts/delete', bodyIds: { userId: 'contact' } },
    getContactSuppression: { method: 'GET', path: '/v1/contacts/suppression' },
    removeContactSuppression: { method: 'DELETE', path: '/v1/contacts/suppression' },
  },
} as const satisfies ResourceRow;
