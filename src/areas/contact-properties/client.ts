/** The contact property operations of the API. */
import type { ApiClient } from '../../api/client.js';
import { CONTACT_PROPERTY } from '../../platform/contact-properties/resource.js';
import * as s from '../../platform/contact-properties/schemas.js';

export function listContactProperties(api: ApiClient, which: 'all' | 'custom') {
  return api.call(
    { method: 'GET', path: CONTACT_PROPERTY.operations.listContactProperties.path, query: which === 'custom' ? { list: 'custom' } : {}, idempotent: true },
    s.contactProperties,
  );
}

export function createContactProperty(api: ApiClient, body: { name: string; type: s.PropertyType }) {
  return api.call({ method: 'POST', path: CONTACT_PROPERTY.operations.createContactProperty.path, body, idempotent: false }, s.propertyCreated);
}
