/** The contact property operations of the API. */
import type { ApiClient } from '../../api/client.js';
import * as s from '../../platform/contact-properties/schemas.js';

export function listContactProperties(api: ApiClient, which: 'all' | 'custom') {
  return api.call(
    { method: 'GET', path: '/v1/contacts/properties', query: which === 'custom' ? { list: 'custom' } : {}, idempotent: true },
    s.contactProperties,
  );
}

export function createContactProperty(api: ApiClient, body: { name: string; type: s.PropertyType }) {
  return api.call({ method: 'POST', path: '/v1/contacts/properties', body, idempotent: false }, s.propertyCreated);
}
