/** A transactional group as a resource of the API (resource-row.ts). */
import type { ResourceRow } from '../resource-row.js';

export const TRANSACTIONAL_GROUP = {
  noun: 'transactional group',
  kind: { directory: 'groups/transactional', half: 'audience' },
  list: { operation: 'listTransactionalGroups', ids: 'transactional-groups', command: ['groups', 'list'] },
  get: 'getTransactionalGroup',
  operations: {
    listTransactionalGroups: { method: 'GET', path: '/v1/transactional-groups' },
    getTransactionalGroup: { method: 'GET', path: '/v1/transactional-groups/{transactionalGroupId}' },
    createTransactionalGroup: { method: 'POST', path: '/v1/transactional-groups', writes: 'transactional group' },
    updateTransactionalGroup: { method: 'POST', path: '/v1/transactional-groups/{transactionalGroupId}', writes: 'transactional group' },
  },
} as const satisfies ResourceRow;
