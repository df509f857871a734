/** The sandbox's campaign groups, with the reserved Unsorted group that cannot be edited. */
import { z } from '../../base/shapes.js';
import { seedId, seedTime, slice, type SandboxModule, lazily } from '../module.js';
import { groupRoutes } from './groups.js';
import { group, type Group } from '../../platform/groups/schemas.js';

const seedCampaignGroups = lazily((): Group[] => [
  { id: seedId('campaign-group/Unsorted'), name: 'Unsorted', description: 'Campaigns not in any other group', createdAt: seedTime(0), updatedAt: seedTime(0) },
  {
    id: seedId('campaign-group/Newsletters'),
    name: 'Newsletters',
    description: 'The monthly product newsletter',
    createdAt: seedTime(120),
    updatedAt: seedTime(410),
  },
  {
    id: seedId('campaign-group/Product announcements'),
    name: 'Product announcements',
    description: 'Launches and major releases',
    createdAt: seedTime(300),
    updatedAt: seedTime(300),
  },
]);

// Every team has the reserved Unsorted group.
export const campaignGroups = slice('campaignGroups', z.array(group), seedCampaignGroups, () =>
  seedCampaignGroups().filter((candidate) => candidate.name === 'Unsorted'),
);

export const sandbox: SandboxModule = {
  slices: [campaignGroups],
  routes: groupRoutes('/v1/campaign-groups', campaignGroups, 'campaignGroupId', 'campaign group'),
};
