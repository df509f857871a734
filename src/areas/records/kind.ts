/** What a resource described whole by its row brings to a plan (change/request-calls.ts): a create of a named record matched by name against its list, an update put back by undo. */
import type { ListResource } from '../../api/client.js';
import type { RecordRow } from '../../platform/whole-rows.js';
import type { ResourceKind } from '../change/request-calls.js';

export function recordKind(row: RecordRow): ResourceKind {
  // Its update sends only fields the API's answer shows: undone by the same update with them as they were.
  const inverts = [row.update.id];
  if (row.records.fields.name === undefined) return { inverts };
  // Its fields are text: a record with a name field holds its name as a string.
  const list = async () => ({ path: row.list.path, item: (await row.records.load()).schema }) as unknown as ListResource<{ name: string }>;
  return { creates: { [row.create.id]: list }, inverts };
}
