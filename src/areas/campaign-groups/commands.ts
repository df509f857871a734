/** What the `campaign-groups` commands do. */
import { checkId } from '../../api/ids.js';
import { handler, type Handler } from '../../core/capabilities.js';
import { listHandler } from '../../core/list-run.js';
import { explained, explainedHandler } from '../explain.js';
import { createGroupBody, GROUP_REFUSED, updateGroupBody, type GroupOptions } from '../groups/fields.js';
import { groupListView, renderGroup } from '../groups/render.js';
import { campaignGroups, createCampaignGroup, getCampaignGroup, updateCampaignGroup } from './client.js';

export const list = explainedHandler(listHandler(campaignGroups, groupListView('campaign groups')), { contentApi: true });

export const get: Handler<[string]> = handler(['out', 'client'], async (context, [id]) => {
  checkId(id, 'campaign group id');
  const found = await explained(getCampaignGroup(await context.client(), id), { contentApi: true });
  await context.out.present(found, renderGroup);
});

export const create: Handler<[], GroupOptions & { name: string }> = handler(['out', 'client'], async (context, _args, options) => {
  const body = createGroupBody(options);
  const created = await explained(createCampaignGroup(await context.client(), body), { contentApi: true, statuses: GROUP_REFUSED });
  await context.out.present(created, renderGroup);
});

export const update: Handler<[string], GroupOptions> = handler(['out', 'client'], async (context, [id], options) => {
  checkId(id, 'campaign group id');
  const body = updateGroupBody(options);
  const updated = await explained(updateCampaignGroup(await context.client(), id, body), { contentApi: true, statuses: GROUP_REFUSED });
  await context.out.present(updated, renderGroup);
});
