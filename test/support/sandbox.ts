/** Calls a SandboxApi directly, as the HTTP layer would, for tests of its rules. */
import { loadSandboxModules, SandboxApi, type ApiAnswer, type SandboxApiOptions } from '../../src/sandbox/api.js';
import { seedId, type StateCore } from '../../src/sandbox/module.js';
import { seedState as seedFrom } from '../../src/sandbox/state.js';

/** Every area's part of the sandbox, loaded once for the test file. */
export const sandboxModules = await loadSandboxModules();

/** A fresh copy of the seed, safe to change. */
export function seedState(): StateCore & Record<string, any> {
  return seedFrom(sandboxModules);
}

/** Ids the documentation and tests refer to. */
export const SEED_IDS = {
  welcomeWorkflow: seedId('workflow/Welcome series'),
  trialWorkflow: seedId('workflow/Trial conversion'),
  experimentWorkflow: seedId('workflow/Beta onboarding subject test'),
  passwordReset: seedId('transactional/Password reset'),
  welcomeEmail: seedId('transactional/Welcome'),
  draftOnlyEmail: seedId('transactional/Payment failed'),
  defaultTransactionalGroup: seedId('transactional-group/General'),
  unsortedCampaignGroup: seedId('campaign-group/Unsorted'),
  newslettersCampaignGroup: seedId('campaign-group/Newsletters'),
} as const;

export interface CallOptions {
  key?: string | null;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Caller = (method: string, path: string, options?: CallOptions) => ApiAnswer & { body: any };

export function sandboxCaller(api: SandboxApi = new SandboxApi(seedState(), sandboxModules)): Caller {
  return (method, path, options = {}) => {
    const key = options.key === undefined ? 'sandbox-key' : options.key;
    return api.handle({
      method,
      path,
      query: new URLSearchParams(options.query ?? {}),
      authorization: key === null ? undefined : `Bearer ${key}`,
      headers: options.headers,
      body: options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
  };
}

export function freshSandbox(options: SandboxApiOptions = {}): { api: SandboxApi; call: Caller } {
  const api = new SandboxApi(seedState(), sandboxModules, options);
  return { api, call: sandboxCaller(api) };
}
