/** What a resource described whole by its row brings to a plan (change/request-calls.ts): a create of a named record matched by name against its list. */
import type { ListResource } from '../../api/client.js';
import type { RecordRow } from '../../platform/record-resources.js';
import type { ResourceKind } from '../change/request-calls.js';

export function recordKind(row: RecordRow): ResourceKind {
  if (row.records.fields.name === undefined) return {};
  // Its fields are text: a record with a name field holds its name as a string.
  const list = async () => ({ path: row.list.path, item: (await row.records.load()).schema }) as unknown as ListResource<{ name: string }>;
  return { creates: { [row.create.id]: list } };
}
