/** A request to a running sandbox (`startSandbox` of loopsctl/sandbox) over HTTP, as an app makes it: its status, headers and JSON body. */
import type { Sandbox } from '../../src/emulator/public.js';

export async function callSandbox(sandbox: Pick<Sandbox, 'url' | 'apiKey'>, method: string, path: string, body?: unknown, key = sandbox.apiKey) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}
