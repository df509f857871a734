/** The component operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { COMPONENT } from '../../platform/components/resource.js';
import { type Component, component, updatedComponent } from '../../platform/components/schemas.js';
import { at } from '../../platform/operation-row.js';

export const components: ListResource<Component> = { path: COMPONENT.operations.listComponents.path, item: component };

export function getComponent(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(COMPONENT.operations.getComponent, id) }, component);
}

export function createComponent(api: ApiClient, body: { name: string; lmx: string }) {
  // Each create makes a new component: sent again after a lost answer, it would make a second one.
  return api.call({ method: 'POST', path: COMPONENT.operations.createComponent.path, body, idempotent: false }, component);
}

export function updateComponent(api: ApiClient, id: string, body: { name?: string; lmx?: string }) {
  // A body change cascades to every email using the component: not sent again once it may have arrived.
  return api.call({ method: 'POST', path: at(COMPONENT.operations.updateComponent, id), body, idempotent: false }, updatedComponent);
}
