/** A theme as a resource of the API (operation-row.ts). */
import type { ResourceRow } from '../operation-row.js';

export const THEME = {
  noun: 'theme',
  kind: { directory: 'themes', half: 'emails', word: 'theme' },
  list: { operation: 'listThemes', ids: 'themes', command: ['themes', 'list'] },
  get: 'getTheme',
  operations: {
    listThemes: { method: 'GET', path: '/v1/themes' },
    getTheme: { method: 'GET', path: '/v1/themes/{themeId}' },
    createTheme: { method: 'POST', path: '/v1/themes', writes: 'theme' },
    updateTheme: { method: 'POST', path: '/v1/themes/{themeId}', writes: 'theme' },
  },
} as const satisfies ResourceRow;
