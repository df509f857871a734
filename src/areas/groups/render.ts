/** Text views of transactional groups and campaign groups, which share one shape. */
import type { Group } from '../../platform/groups/schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { renderRecord, timestampColumn } from '../../render/table.js';

export function groupListView(noun: string): ListView<Group> {
  return {
    noun,
    columns: [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'DESCRIPTION', prose: true }, timestampColumn('UPDATED')],
    row: (group) => [group.id, group.name, group.description, group.updatedAt],
  };
}

export function renderGroup(out: Output, group: Group): string {
  return renderRecord(out, group);
}
