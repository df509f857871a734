/** The campaign group operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import { group, type Group } from '../groups/schemas.js';

export const campaignGroups: ListResource<Group> = { path: '/v1/campaign-groups', item: group };

export function getCampaignGroup(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/campaign-groups/${id}` }, group);
}

export function updateCampaignGroup(api: ApiClient, id: string, body: { name?: string; description?: string }) {
  // Setting the same fields twice would be harmless, but the API does not promise that an update
  // is idempotent (a later version may record history or fire events), so it is treated as a write.
  return api.call({ method: 'POST', path: path`/v1/campaign-groups/${id}`, body, idempotent: false }, group);
}
