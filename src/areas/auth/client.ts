/** The API-key check, which auth and doctor both make. */
import { checkShape } from '../../api/client.js';
import { headerValue } from '../../api/headers.js';
import { type HttpTransport, parseJson } from '../../api/http.js';
import type { LoopsctlError } from '../../base/errors.js';
import { API_KEY } from '../../platform/auth/resource.js';
import { apiKeyInfo } from '../../platform/auth/schemas.js';
import { requestLine } from '../../platform/operation-row.js';

const { testApiKey } = API_KEY.operations;

/**
 * The team the key belongs to, or the error the answer means (a refused key); either way the API's
 * clock as the answer's Date header tells, when it sends one: a refusal carries it too.
 */
export async function checkApiKey(transport: HttpTransport): Promise<{ teamName: string; serverDate?: Date } | { error: LoopsctlError; serverDate?: Date }> {
  const { answer, error } = await transport.exchange({ method: testApiKey.method, idempotent: true, path: testApiKey.path });
  const date = headerValue(answer.headers.date);
  const parsed = date === undefined ? undefined : new Date(date);
  const serverDate = parsed === undefined || Number.isNaN(parsed.getTime()) ? undefined : parsed;
  if (error !== undefined) return { error, serverDate };
  const body = checkShape(apiKeyInfo, parseJson(answer.text, answer.status, answer.contentType), requestLine(testApiKey), answer);
  return { teamName: body.teamName, serverDate };
}
