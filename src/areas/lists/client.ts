/** The mailing list operations of the API. */
import type { ApiClient } from '../../api/client.js';
import * as s from '../../platform/lists/schemas.js';
import { MAILING_LIST } from '../../platform/lists/resource.js';

export function listMailingLists(api: ApiClient) {
  return api.call({ method: 'GET', path: MAILING_LIST.operations.listMailingLists.path, idempotent: true }, s.mailingLists);
}
