/** Calls a SandboxApi directly, as the HTTP layer would, for tests of its rules. */
import { SandboxApi, type ApiAnswer, type SandboxApiOptions } from '../../src/sandbox/api.js';
import { seedState } from '../../src/sandbox/seed.js';

export interface CallOptions {
  key?: string | null;
  query?: Record<string, string>;
  body?: unknown;
}

export type Caller = (method: string, path: string, options?: CallOptions) => ApiAnswer & { body: any };

export function sandboxCaller(api: SandboxApi = new SandboxApi(seedState())): Caller {
  return (method, path, options = {}) => {
    const key = options.key === undefined ? 'sandbox-key' : options.key;
    return api.handle({
      method,
      path,
      query: new URLSearchParams(options.query ?? {}),
      authorization: key === null ? undefined : `Bearer ${key}`,
      body: options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
  };
}

export function freshSandbox(options: SandboxApiOptions = {}): { api: SandboxApi; call: Caller } {
  const api = new SandboxApi(seedState(), options);
  return { api, call: sandboxCaller(api) };
}
