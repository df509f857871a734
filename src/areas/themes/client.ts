/** The theme operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import { theme, updatedTheme, type Theme } from '../../platform/themes/schemas.js';
import type { StylesRequest } from '../../platform/themes/styles.js';

export const themes: ListResource<Theme> = { path: '/v1/themes', item: theme };

export function getTheme(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/themes/${id}` }, theme);
}

export function createTheme(api: ApiClient, body: { name: string; styles?: StylesRequest }) {
  // Each create makes a new theme: sent again after a lost answer, it would make a second one.
  return api.call({ method: 'POST', path: '/v1/themes', body, idempotent: false }, theme);
}

export function updateTheme(api: ApiClient, id: string, body: { name?: string; styles?: StylesRequest }) {
  // An update cascades to the emails using the theme; it is not sent again once it may have arrived.
  return api.call({ method: 'POST', path: path`/v1/themes/${id}`, body, idempotent: false }, updatedTheme);
}
