/** Text view of contact properties. */

import type { ContactProperty } from '../../platform/contact-properties/schemas.js';
import type { ListView } from '../../render/list.js';

export const propertyListView: ListView<ContactProperty> = {
  noun: 'contact properties',
  columns: [{ header: 'KEY' }, { header: 'LABEL', truncate: true }, { header: 'TYPE' }],
  row: (property) => [property.key, property.label, property.type],
};
