/** What the `groups` commands do. */
import { checkId } from '../../api/ids.js';
import { handler, type Handler } from '../../core/capabilities.js';
import { listHandler } from '../../core/list-run.js';
import { explained, explainedHandler } from '../explain.js';
import { createTransactionalGroup, getTransactionalGroup, transactionalGroups, updateTransactionalGroup } from './client.js';
import { createGroupBody, GROUP_REFUSED, updateGroupBody, type GroupOptions } from './fields.js';
import { groupListView, renderGroup } from './render.js';

export const list = explainedHandler(listHandler(transactionalGroups, groupListView('transactional groups')), { contentApi: true });

export const get: Handler<[string]> = handler(['out', 'client'], async (context, [id]) => {
  checkId(id, 'transactional group id');
  const found = await explained(getTransactionalGroup(await context.client(), id), { contentApi: true });
  await context.out.present(found, renderGroup);
});

export const create: Handler<[], GroupOptions & { name: string }> = handler(['out', 'client'], async (context, _args, options) => {
  const body = createGroupBody(options);
  const created = await explained(createTransactionalGroup(await context.client(), body), { contentApi: true, statuses: GROUP_REFUSED });
  await context.out.present(created, renderGroup);
});

export const update: Handler<[string], GroupOptions> = handler(['out', 'client'], async (context, [id], options) => {
  checkId(id, 'transactional group id');
  const body = updateGroupBody(options);
  const updated = await explained(updateTransactionalGroup(await context.client(), id, body), { contentApi: true, statuses: GROUP_REFUSED });
  await context.out.present(updated, renderGroup);
});
