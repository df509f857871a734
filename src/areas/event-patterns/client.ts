/** The event pattern operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { EVENT } from '../../platform/event-patterns/resource.js';
import { type EventPatternSummary, eventPattern, eventPatternSummary } from '../../platform/event-patterns/schemas.js';
import { at } from '../../platform/operation-row.js';

export const eventPatterns: ListResource<EventPatternSummary> = { path: EVENT.operations.listEventPatterns.path, item: eventPatternSummary };

export function getEventPattern(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(EVENT.operations.getEventPattern, id) }, eventPattern);
}

/** By the exact, case-sensitive event name, percent-encoded into the path. */
export function getEventPatternByName(api: ApiClient, eventName: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(EVENT.operations.getEventPatternByName, eventName) }, eventPattern);
}
