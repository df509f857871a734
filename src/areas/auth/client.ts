/** The API-key check, which auth and doctor both make. */
import type { ApiClient } from '../../api/client.js';
import { headerValue } from '../../api/headers.js';
import { apiKeyInfo } from '../../platform/auth/schemas.js';

/** The team the key belongs to, and the API's clock as its Date header tells (when it sends one). */
export async function checkApiKey(client: ApiClient): Promise<{ teamName: string; serverDate?: Date }> {
  const { body, headers } = await client.answer({ method: 'GET', idempotent: true, path: '/v1/api-key' }, apiKeyInfo);
  const date = headerValue(headers.date);
  const serverDate = date === undefined ? undefined : new Date(date);
  return { teamName: body.teamName, serverDate: serverDate === undefined || Number.isNaN(serverDate.getTime()) ? undefined : serverDate };
}
