/** The transactional group operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import { group, type Group } from './schemas.js';

export const transactionalGroups: ListResource<Group> = { path: '/v1/transactional-groups', item: group };

export function getTransactionalGroup(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/transactional-groups/${id}` }, group);
}
