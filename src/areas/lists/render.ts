/** Text view of mailing lists. */

import type { MailingList } from '../../platform/lists/schemas.js';
import type { ListView } from '../../render/list.js';
import { displayValue } from '../../render/table.js';

export const mailingListView: ListView<MailingList> = {
  noun: 'mailing lists',
  columns: [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'PUBLIC' }, { header: 'DESCRIPTION', prose: true }],
  row: (list) => [list.id, list.name, list.isPublic ? 'yes' : 'no', displayValue(list.description)],
};
