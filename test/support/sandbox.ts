/** Calls a SandboxApi directly, as the HTTP layer would, for tests of its rules. */

import { type ApiAnswer, loadSandboxModules, RouteTable, SandboxApi, type SandboxApiOptions } from '../../src/emulator/api.js';
import { type Slice, type StateCore, seedId } from '../../src/emulator/module.js';
import type { sendingIps } from '../../src/emulator/routes/ips.js';
import type { segments } from '../../src/emulator/routes/segments.js';
import type { themes } from '../../src/emulator/routes/themes.js';
import type { transactionalEmails } from '../../src/emulator/routes/transactional.js';
import type { workflows } from '../../src/emulator/routes/workflow-records.js';
import { seedState as seedFrom } from '../../src/emulator/state/index.js';
import type { Group } from '../../src/platform/groups/schemas.js';

/** Every area's part of the sandbox, loaded once for the test file. */
export const sandboxModules = await loadSandboxModules();

type Held<S> = S extends Slice<infer T> ? T : never;

/** The slices tests read from the seed, as their areas type them; the rest stay unknown. */
export interface SandboxState extends StateCore {
  themes: Held<typeof themes>;
  transactionalGroups: Group[];
  campaignGroups: Group[];
  segments: Held<typeof segments>;
  transactionalEmails: Held<typeof transactionalEmails>;
  sendingIps: Held<typeof sendingIps>;
  workflows: Held<typeof workflows>;
}

/** A fresh copy of the seed, safe to change. */
export function seedState(): SandboxState {
  // Every slice of every module is seeded under its key, these included.
  return seedFrom(sandboxModules) as SandboxState;
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

export function sandboxCaller(api: SandboxApi = new SandboxApi(seedState(), new RouteTable(sandboxModules))): Caller {
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
  const api = new SandboxApi(seedState(), new RouteTable(sandboxModules), options);
  return { api, call: sandboxCaller(api) };
}
