/** A transactional group as a resource of the API (operation-row.ts), described whole by its row (RecordResource). */

import type { ResourceRow } from '../operation-row.js';
import { GROUP_FIELDS, GROUP_REFUSED_HINT } from './names.js';

const EXAMPLE_ID = 'c670t9v12lnoky3oebk56hswc';

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
  records: {
    area: {
      name: 'groups',
      aliases: ['transactional-groups'],
      summary: 'Transactional groups: list, get, create, update',
      examples: ['loopsctl groups list', `loopsctl groups get ${EXAMPLE_ID}`],
      after: 'uploads',
    },
    plural: 'transactional groups',
    needs: 'content',
    stateKey: 'transactionalGroups',
    commands: {
      list: { summary: 'List transactional groups, most recently created first', examples: ['loopsctl groups list'] },
      get: { summary: 'Show one transactional group', examples: [`loopsctl groups get ${EXAMPLE_ID}`] },
      create: { summary: 'Create a transactional group', examples: ['loopsctl groups create --name "Receipts" --description "Payment receipts and invoices"'] },
      update: {
        summary: 'Rename a transactional group or change its description; only the fields given are sent',
        examples: [`loopsctl groups update ${EXAMPLE_ID} --description "Everything else"`],
      },
    },
    fields: GROUP_FIELDS,
    refused: { 400: GROUP_REFUSED_HINT },
    load: async () => (await import('./records.js')).rules,
  },
} as const satisfies ResourceRow;
