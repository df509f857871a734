/** A mailing list as a resource of the API (operation-row.ts): loopsctl reads it only. */
import type { ResourceRow } from '../operation-row.js';

export const MAILING_LIST = {
  noun: 'mailing list',
  kind: { directory: 'lists', half: 'audience', word: 'list', constant: 'LIST' },
  list: { operation: 'listMailingLists' },
  operations: {
    listMailingLists: { method: 'GET', path: '/v1/lists' },
  },
} as const satisfies ResourceRow;
