/** The mailing list operations of the API. */
import type { ApiClient } from '../../api/client.js';
import * as s from '../../platform/lists/schemas.js';

export function listMailingLists(api: ApiClient) {
  return api.call({ method: 'GET', path: '/v1/lists', idempotent: true }, s.mailingLists);
}
