/** The event pattern operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import { eventPattern, eventPatternSummary, type EventPatternSummary } from '../../platform/event-patterns/schemas.js';

export const eventPatterns: ListResource<EventPatternSummary> = { path: '/v1/event-patterns', item: eventPatternSummary };

export function getEventPattern(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/event-patterns/${id}` }, eventPattern);
}

/** By the exact, case-sensitive event name, percent-encoded into the path. */
export function getEventPatternByName(api: ApiClient, eventName: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/event-patterns/by-name/${eventName}` }, eventPattern);
}
