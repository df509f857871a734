/** An email message as a resource of the API (operation-row.ts): a part of its email's record, a kind of its own for none. */
import type { ResourceRow } from '../operation-row.js';

export const EMAIL_MESSAGE = {
  noun: 'email message',
  get: 'getEmailMessage',
  operations: {
    getEmailMessage: { method: 'GET', path: '/v1/email-messages/{emailMessageId}' },
    updateEmailMessage: { method: 'POST', path: '/v1/email-messages/{emailMessageId}', writes: 'email message' },
    previewEmailMessage: { method: 'POST', path: '/v1/email-messages/{emailMessageId}/preview' },
    getEmailMessageGuardian: { method: 'GET', path: '/v1/email-messages/{emailMessageId}/guardian' },
  },
} as const satisfies ResourceRow;
