/** A campaign as a resource of the API (operation-row.ts). */
import type { ResourceRow } from '../operation-row.js';

/** What a create or an update of a campaign names: its group, and its audience's list and segment. */
const NAMED = { campaignGroupId: 'campaign group', mailingListId: 'mailing list', audienceSegmentId: 'segment' } as const;

export const CAMPAIGN = {
  noun: 'campaign',
  kind: { directory: 'campaigns', half: 'emails', word: 'campaign', lmx: 'email' },
  list: { operation: 'listCampaigns', ids: 'campaigns', command: ['campaigns', 'list'] },
  get: 'getCampaign',
  operations: {
    listCampaigns: { method: 'GET', path: '/v1/campaigns' },
    getCampaign: { method: 'GET', path: '/v1/campaigns/{campaignId}' },
    createCampaign: { method: 'POST', path: '/v1/campaigns', writes: 'campaign', bodyIds: NAMED },
    // Its `scheduling` is the campaign's schedule.
    updateCampaign: { method: 'POST', path: '/v1/campaigns/{campaignId}', writes: 'campaign', bodyIds: NAMED },
    getCampaignMetrics: { method: 'GET', path: '/v1/campaigns/{campaignId}/metrics' },
  },
} as const satisfies ResourceRow;
