/** What the `groups` commands do. */
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { getTransactionalGroup, transactionalGroups } from './client.js';
import { groupListView, renderGroup } from './render.js';

export const list = listHandler(transactionalGroups, groupListView('transactional groups'));

export const get: Handler<[string]> = async (context, [id]) => {
  checkId(id, 'transactional group id');
  await context.out.present(await getTransactionalGroup(await context.client(), id), renderGroup);
};
