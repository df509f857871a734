/**
 * Which account a plan is for: the team the key reaches, the API's address, and the profile (or
 * other source) the key came from, with, for a plan that names none of the account's records, a
 * record it holds. `loopsctl apply` and `undo` refuse a plan for another account by them.
 */
import type { ApiClient } from '../../api/client.js';
import { path } from '../../api/ids.js';
import type { Uses } from '../../core/capabilities.js';
import type { Credentials } from '../../core/credentials.js';
import { apiKeyInfo } from '../../platform/auth/schemas.js';
import { themes } from '../themes/client.js';

/** Where a run's key reaches: its team, the API's address, and the profile (or other source) the key came from. */
export interface AccountWhere {
  team: string;
  baseUrl: string;
  profile: string;
}

/**
 * What a plan adds to where it is for when it names none of the account's records (it only
 * creates them): a record the account holds, by its path, the first theme it lists (every account
 * has its default theme). `loopsctl apply` finds it there, or takes the key's account for another
 * one of the same team name at the same address.
 */
export async function witnessOf(client: ApiClient, units: readonly { id?: string }[]): Promise<{ witness?: string }> {
  if (units.some((unit) => unit.id !== undefined)) return {};
  for await (const page of client.pages(themes, { limit: 1 })) {
    const first = page.data[0];
    return first === undefined ? {} : { witness: path`/v1/themes/${first.id}` };
  }
  return {};
}

/** The profile, as the state and a plan name it: the stored profile, or where else the key came from. */
export function profileOf(credentials: Pick<Credentials, 'source' | 'profile'>): string {
  if (credentials.source === 'profile' && credentials.profile !== undefined) return credentials.profile;
  return credentials.source === 'sandbox' ? '--sandbox' : 'LOOPS_API_KEY';
}

/** The team the key belongs to, as the API names it. */
export async function teamName(api: ApiClient): Promise<string> {
  return (await api.call({ method: 'GET', idempotent: true, path: '/v1/api-key' }, apiKeyInfo)).teamName;
}

/** Where this run's key reaches. */
export async function whereOf(context: Uses<'client' | 'key'>, client: ApiClient): Promise<AccountWhere> {
  const [team, baseUrl, credentials] = await Promise.all([teamName(client), context.baseUrl(), context.credentials()]);
  return { team, baseUrl, profile: profileOf(credentials) };
}
