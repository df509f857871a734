/** What the `campaign-groups` commands do. */
import { UsageError } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { groupListView, renderGroup } from '../groups/render.js';
import { campaignGroups, getCampaignGroup, updateCampaignGroup } from './client.js';

export const list = listHandler(campaignGroups, groupListView('campaign groups'));

export const get: Handler<[string]> = async (context, [id]) => {
  checkId(id, 'campaign group id');
  await context.out.present(await getCampaignGroup(await context.client(), id), renderGroup);
};

export const update: Handler<[string], { name?: string; description?: string }> = async (context, [id], options) => {
  checkId(id, 'campaign group id');
  const body: { name?: string; description?: string } = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.description !== undefined) body.description = options.description;
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give --name, --description or both');
  await context.out.present(await updateCampaignGroup(await context.client(), id, body), renderGroup);
};
