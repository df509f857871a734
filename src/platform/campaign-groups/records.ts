/** What of a campaign group needs zod, read on first use (operation-row.ts, RecordRules): its shape, its seed, and the rules of a group. */
import { groupEditRefusal, groupFieldsRefusal, RESERVED_GROUP_NAME } from '../groups/names.js';
import { type Group, group } from '../groups/schemas.js';
import type { RecordRules } from '../operation-row.js';

export const rules: RecordRules<Group> = {
  schema: group,
  seed: ({ id, time }) => [
    { id: id('campaign-group/Unsorted'), name: 'Unsorted', description: 'Campaigns not in any other group', createdAt: time(0), updatedAt: time(0) },
    {
      id: id('campaign-group/Newsletters'),
      name: 'Newsletters',
      description: 'The monthly product newsletter',
      createdAt: time(120),
      updatedAt: time(410),
    },
    {
      id: id('campaign-group/Product announcements'),
      name: 'Product announcements',
      description: 'Launches and major releases',
      createdAt: time(300),
      updatedAt: time(300),
    },
  ],
  // Every team has the reserved Unsorted group.
  everyTeam: (seeded) => seeded.filter((candidate) => candidate.name === RESERVED_GROUP_NAME),
  refuse: groupFieldsRefusal,
  frozen: groupEditRefusal,
};
