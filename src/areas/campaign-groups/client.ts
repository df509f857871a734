/** The campaign group operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import type { CreateGroupBody, UpdateGroupBody } from '../groups/client.js';
import { group, type Group } from '../../platform/groups/schemas.js';

export const campaignGroups: ListResource<Group> = { path: '/v1/campaign-groups', item: group };

export function getCampaignGroup(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/campaign-groups/${id}` }, group);
}

export function createCampaignGroup(api: ApiClient, body: CreateGroupBody) {
  // Each create makes a new group: sent again after a lost answer, it would make a second one.
  return api.call({ method: 'POST', path: '/v1/campaign-groups', body, idempotent: false }, group);
}

export function updateCampaignGroup(api: ApiClient, id: string, body: UpdateGroupBody) {
  // Setting the same fields twice would be harmless, but the API does not promise that an update
  // is idempotent (a later version may record history or fire events), so it is treated as a write.
  return api.call({ method: 'POST', path: path`/v1/campaign-groups/${id}`, body, idempotent: false }, group);
}
