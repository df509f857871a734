/** An event, as the API's event patterns know it, as a resource of the API (operation-row.ts): loopsctl reads it only. */
import type { ResourceRow } from '../operation-row.js';

export const EVENT = {
  noun: 'event',
  kind: { directory: 'event-patterns', half: 'audience', word: 'event', constant: 'EVENT' },
  list: { operation: 'listEventPatterns' },
  get: 'getEventPattern',
  operations: {
    listEventPatterns: { method: 'GET', path: '/v1/event-patterns' },
    getEventPattern: { method: 'GET', path: '/v1/event-patterns/{eventPatternId}' },
    getEventPatternByName: { method: 'GET', path: '/v1/event-patterns/by-name/{eventName}' },
  },
} as const satisfies ResourceRow;
