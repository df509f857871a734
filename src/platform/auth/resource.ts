/** The API key as a resource of the API (operation-row.ts): a test of the key, which names its team. */
import type { ResourceRow } from '../operation-row.js';

export const API_KEY = {
  noun: 'API key',
  operations: {
    testApiKey: { method: 'GET', path: '/v1/api-key' },
  },
} as const satisfies ResourceRow;
