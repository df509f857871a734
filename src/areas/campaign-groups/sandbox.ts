/** The sandbox's campaign groups, with the reserved Unsorted group that cannot be edited. */
import { z } from '../../api/schemas.js';
import { answer, find, listAnswer, seedId, seedTime, slice, type SandboxModule } from '../../sandbox/module.js';
import { createGroup, updateGroup } from '../groups/sandbox.js';
import { group, type Group } from '../groups/schemas.js';

const seedCampaignGroups: Group[] = [
  { id: seedId('campaign-group/Unsorted'), name: 'Unsorted', description: 'Campaigns not in any other group', createdAt: seedTime(0), updatedAt: seedTime(0) },
  { id: seedId('campaign-group/Newsletters'), name: 'Newsletters', description: 'The monthly product newsletter', createdAt: seedTime(120), updatedAt: seedTime(410) },
  {
    id: seedId('campaign-group/Product announcements'),
    name: 'Product announcements',
    description: 'Launches and major releases',
    createdAt: seedTime(300),
    updatedAt: seedTime(300),
  },
];

export const campaignGroups = slice('campaignGroups', z.array(group), () => seedCampaignGroups);

export const sandbox: SandboxModule = {
  slices: [campaignGroups],
  routes: [
    { method: 'GET', path: '/v1/campaign-groups', needs: 'content', run: ({ query, state }) => listAnswer(group, campaignGroups.of(state), query) },
    {
      method: 'GET',
      path: '/v1/campaign-groups/:campaignGroupId',
      needs: 'content',
      run: ({ params, state }) => answer(group, find(campaignGroups.of(state), params.campaignGroupId!, 'campaign group')),
    },
    { method: 'POST', path: '/v1/campaign-groups', needs: 'content', run: createGroup(campaignGroups) },
    { method: 'POST', path: '/v1/campaign-groups/:campaignGroupId', needs: 'content', run: updateGroup(campaignGroups, 'campaignGroupId', 'campaign group') },
  ],
};
