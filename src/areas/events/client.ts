/** Sending events, once each. */
import type { ApiClient } from '../../api/client.js';
import { type IdempotencyKey, sendOnce } from '../../api/idempotency.js';
import { EVENT_SEND } from '../../platform/events/resource.js';
import * as s from '../../platform/events/schemas.js';

export function sendEvent(api: ApiClient, body: Record<string, unknown>, key: IdempotencyKey) {
  return sendOnce(api, { method: 'POST', path: EVENT_SEND.operations.sendEvent.path, body }, s.eventSent, key);
}
