/** The transactional group operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { at } from '../../platform/resource-row.js';
import { group, type Group } from '../../platform/groups/schemas.js';
import { TRANSACTIONAL_GROUP } from '../../platform/groups/resource.js';

export const transactionalGroups: ListResource<Group> = { path: TRANSACTIONAL_GROUP.operations.listTransactionalGroups.path, item: group };

/** What a group is created with: the campaign and transactional group operations take the same. */
export type CreateGroupBody = {
  name: string;
  description?: string;
};

export type UpdateGroupBody = Partial<CreateGroupBody>;

export function getTransactionalGroup(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(TRANSACTIONAL_GROUP.operations.getTransactionalGroup, id) }, group);
}

export function createTransactionalGroup(api: ApiClient, body: CreateGroupBody) {
  // Each create makes a new group: sent again after a lost answer, it would make a second one.
  return api.call({ method: 'POST', path: TRANSACTIONAL_GROUP.operations.createTransactionalGroup.path, body, idempotent: false }, group);
}

export function updateTransactionalGroup(api: ApiClient, id: string, body: UpdateGroupBody) {
  // As for campaign groups: the API does not promise that an update is idempotent.
  return api.call({ method: 'POST', path: at(TRANSACTIONAL_GROUP.operations.updateTransactionalGroup, id), body, idempotent: false }, group);
}
