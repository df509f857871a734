/**
 * The account's transactional groups, at their row's paths (platform/groups/resource.ts), and their
 * names by id for a view that shows a group by its name (`transactional list`): read once, page by
 * page through the run's client and its pace.
 */
import type { ApiClient } from '../../api/client.js';
import { LoopsctlError } from '../../base/errors.js';
import { TRANSACTIONAL_GROUP } from '../../platform/groups/resource.js';
import { group } from '../../platform/groups/schemas.js';
import { recordRow } from '../../platform/whole-rows.js';
import { recordClient } from '../records/client.js';

export const transactionalGroups = recordClient(recordRow(TRANSACTIONAL_GROUP), group);

/**
 * The groups' names by id; undefined when the API would not give them (a team without the content
 * API answers 401 for groups, and still lists its emails): the view then shows ids, as --json does.
 */
export async function transactionalGroupNames(api: ApiClient): Promise<Map<string, string> | undefined> {
  const names = new Map<string, string>();
  try {
    for await (const page of api.pages(transactionalGroups.list)) for (const each of page.data) names.set(each.id, each.name);
  } catch (error) {
    if (error instanceof LoopsctlError && error.status !== undefined) return undefined;
    throw error;
  }
  return names;
}
