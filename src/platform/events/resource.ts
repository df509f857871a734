/** The send of an event as a resource of the API (operation-row.ts): an event about a contact, which may start workflows. */
import type { ResourceRow } from '../operation-row.js';

export const EVENT_SEND = {
  noun: 'event send',
  operations: {
    sendEvent: { method: 'POST', path: '/v1/events/send', bodyIds: { userId: 'contact' } },
  },
} as const satisfies ResourceRow;
