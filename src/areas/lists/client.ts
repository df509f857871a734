/** The mailing list operations of the API. */
import type { ApiClient } from '../../api/client.js';
import { MAILING_LIST } from '../../platform/lists/resource.js';
import * as s from '../../platform/lists/schemas.js';

export function listMailingLists(api: ApiClient) {
  return api.call({ method: 'GET', path: MAILING_LIST.operations.listMailingLists.path, idempotent: true }, s.mailingLists);
}
