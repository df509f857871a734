/** The component operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import { component, updatedComponent, type Component } from '../../platform/components/schemas.js';

export const components: ListResource<Component> = { path: '/v1/components', item: component };

export function getComponent(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/components/${id}` }, component);
}

export function createComponent(api: ApiClient, body: { name: string; lmx: string }) {
  // Each create makes a new component: sent again after a lost answer, it would make a second one.
  return api.call({ method: 'POST', path: '/v1/components', body, idempotent: false }, component);
}

export function updateComponent(api: ApiClient, id: string, body: { name?: string; lmx?: string }) {
  // A body change cascades to every email using the component: not sent again once it may have arrived.
  return api.call({ method: 'POST', path: path`/v1/components/${id}`, body, idempotent: false }, updatedComponent);
}
