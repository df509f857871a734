/** The sandbox's campaign groups, with the reserved Unsorted group that cannot be edited. */
import { z } from '../../api/schemas.js';
import { answer, badRequest, find, listAnswer, objectBody, seedId, seedTime, slice, stringField, type RouteContext, type SandboxModule } from '../../sandbox/module.js';
import { group, RESERVED_GROUP_NAME, type Group } from '../groups/schemas.js';

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

function updateCampaignGroup({ params, body, state, now, changed }: RouteContext) {
  const found = find(campaignGroups.of(state), params.campaignGroupId!, 'campaign group');
  const fields = objectBody(body, ['name', 'description'], []);
  if (Object.keys(fields).length === 0) throw badRequest('give at least one of name and description');
  const name = fields.name === undefined ? undefined : stringField(fields, 'name');
  const description = fields.description === undefined ? undefined : stringField(fields, 'description');
  if (found.name === RESERVED_GROUP_NAME) throw badRequest(`the ${RESERVED_GROUP_NAME} group cannot be edited`);
  if (name !== undefined && name.trim() === RESERVED_GROUP_NAME) throw badRequest(`"${RESERVED_GROUP_NAME}" is a reserved group name`);
  if (name !== undefined && name.trim() === '') throw badRequest('name must not be empty');
  if (name !== undefined) found.name = name;
  if (description !== undefined) found.description = description;
  found.updatedAt = now().toISOString();
  changed();
  return answer(group, found);
}

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
    { method: 'POST', path: '/v1/campaign-groups/:campaignGroupId', needs: 'content', run: updateCampaignGroup },
  ],
};
