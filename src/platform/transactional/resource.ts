/** A transactional email as a resource of the API (operation-row.ts), and the send of a published one. */
import type { ResourceRow } from '../operation-row.js';

export const TRANSACTIONAL_EMAIL = {
  noun: 'transactional email',
  kind: { directory: 'transactional', half: 'emails', word: 'transactional', lmx: 'email', constant: 'TX' },
  list: { operation: 'listTransactionalEmails', ids: 'transactional-emails', command: ['transactional', 'list'] },
  get: 'getTransactionalEmail',
  operations: {
    listTransactionalEmails: { method: 'GET', path: '/v1/transactional-emails' },
    getTransactionalEmail: { method: 'GET', path: '/v1/transactional-emails/{transactionalId}' },
    createTransactionalEmail: {
      method: 'POST',
      path: '/v1/transactional-emails',
      writes: 'transactional email',
      bodyIds: { transactionalGroupId: 'transactional group' },
    },
    updateTransactionalEmail: {
      method: 'POST',
      path: '/v1/transactional-emails/{transactionalId}',
      writes: 'transactional email',
      bodyIds: { transactionalGroupId: 'transactional group' },
    },
    ensureTransactionalDraft: { method: 'POST', path: '/v1/transactional-emails/{transactionalId}/draft', writes: 'transactional email' },
    publishTransactionalEmail: { method: 'POST', path: '/v1/transactional-emails/{transactionalId}/publish', writes: 'transactional email' },
    getTransactionalEmailMetrics: { method: 'GET', path: '/v1/transactional-emails/{transactionalId}/metrics' },
  },
} as const satisfies ResourceRow;

/** The send of a published transactional email to a person, and the list of those that can be sent: no record a plan changes. */
export const TRANSACTIONAL_SEND = {
  noun: 'transactional send',
  operations: {
    listPublishedTransactionalEmails: { method: 'GET', path: '/v1/transactional' },
    sendTransactionalEmail: { method: 'POST', path: '/v1/transactional', bodyIds: { transactionalId: 'transactional email' } },
  },
} as const satisfies ResourceRow;
