/** A campaign group as a resource of the API (resource-row.ts). */
import type { ResourceRow } from '../resource-row.js';

export const CAMPAIGN_GROUP = {
  noun: 'campaign group',
  kind: { directory: 'groups/campaigns', half: 'audience' },
  list: { operation: 'listCampaignGroups', ids: 'campaign-groups', command: ['campaign-groups', 'list'] },
  get: 'getCampaignGroup',
  operations: {
    listCampaignGroups: { method: 'GET', path: '/v1/campaign-groups' },
    getCampaignGroup: { method: 'GET', path: '/v1/campaign-groups/{campaignGroupId}' },
    createCampaignGroup: { method: 'POST', path: '/v1/campaign-groups', writes: 'campaign group' },
    updateCampaignGroup: { method: 'POST', path: '/v1/campaign-groups/{campaignGroupId}', writes: 'campaign group' },
  },
} as const satisfies ResourceRow;
