/** The theme operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { at } from '../../platform/operation-row.js';
import { THEME } from '../../platform/themes/resource.js';
import { type Theme, theme, updatedTheme } from '../../platform/themes/schemas.js';
import type { StylesRequest } from '../../platform/themes/styles.js';

export const themes: ListResource<Theme> = { path: THEME.operations.listThemes.path, item: theme };

export function getTheme(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(THEME.operations.getTheme, id) }, theme);
}

export function createTheme(api: ApiClient, body: { name: string; styles?: StylesRequest }) {
  // Each create makes a new theme: sent again after a lost answer, it would make a second one.
  return api.call({ method: 'POST', path: THEME.operations.createTheme.path, body, idempotent: false }, theme);
}

export function updateTheme(api: ApiClient, id: string, body: { name?: string; styles?: StylesRequest }) {
  // An update cascades to the emails using the theme; it is not sent again once it may have arrived.
  return api.call({ method: 'POST', path: at(THEME.operations.updateTheme, id), body, idempotent: false }, updatedTheme);
}
