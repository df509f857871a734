/** A contact property as a resource of the API (operation-row.ts). */
import type { ResourceRow } from '../operation-row.js';

export const CONTACT_PROPERTY = {
  noun: 'contact property',
  kind: { directory: 'contact-properties', half: 'audience', word: 'property', constant: 'CONTACT_PROPERTY' },
  list: { operation: 'listContactProperties' },
  operations: {
    listContactProperties: { method: 'GET', path: '/v1/contacts/properties' },
    createContactProperty: { method: 'POST', path: '/v1/contacts/properties', writes: 'contact property' },
  },
} as const satisfies ResourceRow;
