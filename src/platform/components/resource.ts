/** A component as a resource of the API (operation-row.ts). */
import type { ResourceRow } from '../operation-row.js';

export const COMPONENT = {
  noun: 'component',
  kind: { directory: 'components', half: 'emails', word: 'component', lmx: 'part' },
  list: { operation: 'listComponents', ids: 'components', command: ['components', 'list'] },
  get: 'getComponent',
  operations: {
    listComponents: { method: 'GET', path: '/v1/components' },
    getComponent: { method: 'GET', path: '/v1/components/{componentId}' },
    createComponent: { method: 'POST', path: '/v1/components', writes: 'component' },
    updateComponent: { method: 'POST', path: '/v1/components/{componentId}', writes: 'component' },
  },
} as const satisfies ResourceRow;
