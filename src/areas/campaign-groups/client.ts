/** The campaign group operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { at } from '../../platform/resource-row.js';
import type { CreateGroupBody, UpdateGroupBody } from '../groups/client.js';
import { group, type Group } from '../../platform/groups/schemas.js';
import { CAMPAIGN_GROUP } from '../../platform/campaign-groups/resource.js';

export const campaignGroups: ListResource<Group> = { path: CAMPAIGN_GROUP.operations.listCampaignGroups.path, item: group };

export function getCampaignGroup(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(CAMPAIGN_GROUP.operations.getCampaignGroup, id) }, group);
}

export function createCampaignGroup(api: ApiClient, body: CreateGroupBody) {
  // Each create makes a new group: sent again after a lost answer, it would make a second one.
  return api.call({ method: 'POST', path: CAMPAIGN_GROUP.operations.createCampaignGroup.path, body, idempotent: false }, group);
}

export function updateCampaignGroup(api: ApiClient, id: string, body: UpdateGroupBody) {
  // Setting the same fields twice would be harmless, but the API does not promise that an update
  // is idempotent (a later version may record history or fire events), so it is treated as a write.
  return api.call({ method: 'POST', path: at(CAMPAIGN_GROUP.operations.updateCampaignGroup, id), body, idempotent: false }, group);
}
