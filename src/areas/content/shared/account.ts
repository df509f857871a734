/**
 * Which account of the state file a run is about. A team name is not an account: two accounts can
 * share one (every sandbox is "Acme Sandbox"), and a tree pulled from one and pushed to the other
 * must not take the first one's records for the second's. The state keeps, beside each account's
 * records, where they were seen (the team, the base URL, the profiles); an account is the one the
 * state names when the ids it recorded there exist in the account the key reaches. An id the
 * account answers 404 for, and none found, means this is another account: it gets records of its
 * own, and a push creates what it lacks.
 */
import type { ApiClient } from '../../../api/client.js';
import { AuthError, NotFoundError } from '../../../base/errors.js';
import { z } from '../../../base/shapes.js';
import { at } from '../../../platform/operation-row.js';
import { getterOf } from '../../../platform/operations.js';
import { directoryKind } from '../../../platform/record-kinds.js';
import type { AccountWhere } from '../../change/account.js';
import { syncedAudienceOf } from './audience-state.js';
import type { ContentState } from './files.js';

/** The account a run is about: the key of its records in the state, and where it was reached. */
export interface Account extends AccountWhere {
  key: string;
  /** The environment of environments.json the account is, for a run that has one. */
  environment?: string;
}

/** Recorded ids tried before an account is taken for another: one found is proof, as ids are never reused. */
const IDS_TRIED = 5;

/** The team of an account key of the state: the key itself for a state written before accounts were told apart. */
function teamOf(state: ContentState, key: string): string {
  return state.where?.[key]?.team ?? key;
}

/**
 * The account of the state this run's key reaches, recorded in `state` (a run that writes the
 * state keeps it): an account of the same team whose recorded ids exist here, else a new one. A
 * run for an environment (--env) is never another environment's account, whatever ids two
 * accounts made from one seed share: only that environment's, or one the state knows of no
 * environment that was reached with its profile, is a candidate.
 */
export async function resolveAccount(client: ApiClient, state: ContentState, where: AccountWhere, environment?: string): Promise<Account> {
  const ofEnvironment = (key: string) => {
    const recorded = state.where?.[key];
    return (
      environment === undefined ||
      recorded?.environment === environment ||
      (recorded?.environment === undefined && recorded?.profiles.includes(where.profile) === true)
    );
  };
  const candidates = Object.keys(state.accounts).filter((key) => teamOf(state, key) === where.team && ofEnvironment(key));
  // The account last seen from this profile and address first: usually the one.
  const seenHere = (key: string) => state.where?.[key]?.baseUrl === where.baseUrl && state.where?.[key]?.profiles.includes(where.profile) === true;
  candidates.sort((a, b) => Number(seenHere(b)) - Number(seenHere(a)));
  for (const key of candidates) {
    // The segments and groups the state recorded there are its records too (the single files have no id).
    const audience = Object.entries(syncedAudienceOf(state, key)).flatMap(([path, record]) =>
      record.id === undefined ? [] : [[path, { id: record.id }] as const],
    );
    if (await holdsRecordedIds(client, { ...state.accounts[key]!, ...Object.fromEntries(audience) })) return remember(state, key, { ...where, environment });
  }
  return remember(state, newKey(state, where, environment), { ...where, environment });
}

/** Records in the state where the account was reached, and the environment it is (kept when the run writes the state). */
export function remember(state: ContentState, key: string, where: AccountWhere & { environment?: string }): Account {
  const known = state.where?.[key];
  const profiles = known?.profiles ?? [];
  const named = where.environment ?? known?.environment;
  state.where = {
    ...state.where,
    [key]: {
      team: where.team,
      baseUrl: where.baseUrl,
      profiles: profiles.includes(where.profile) ? profiles : [...profiles, where.profile].sort(),
      ...(named === undefined ? {} : { environment: named }),
    },
  };
  return { key, ...where, ...(named === undefined ? {} : { environment: named }) };
}

/** The key of an account the state does not know yet: its team name, unless another account of that name holds it. */
function newKey(state: ContentState, where: AccountWhere, environment: string | undefined): string {
  const taken = (key: string) => state.accounts[key] !== undefined || state.where?.[key] !== undefined;
  if (!taken(where.team)) return where.team;
  const base = environment === undefined ? `${where.team} (${where.profile} at ${hostOf(where.baseUrl)})` : `${where.team} (${environment})`;
  let key = base;
  for (let count = 2; taken(key); count += 1) key = `${base} #${count}`;
  return key;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * Whether the account holds the records the state recorded for it: true when it holds none to
 * check (nothing to lose), or one of the first few is found; false when each of them answers 404.
 */
async function holdsRecordedIds(client: ApiClient, records: Record<string, { id: string }>): Promise<boolean> {
  const tried = Object.entries(records).slice(0, IDS_TRIED);
  if (tried.length === 0) return true;
  for (const [path, { id }] of tried) {
    const found = await recordExists(client, path, id);
    if (found !== false) return true;
  }
  return false;
}

/**
 * Whether the account holds the record, read by its kind's getter (its resource's row): undefined
 * when it cannot tell (a kind loopsctl only reads, the workflow API not enabled for the team).
 */
export async function recordExists(client: ApiClient, path: string, id: string): Promise<boolean | undefined> {
  // A group's kind is two folders deep: groups/transactional/…, groups/campaigns/….
  const kind = directoryKind(
    path
      .split('/')
      .slice(0, path.startsWith('groups/') ? 2 : 1)
      .join('/'),
  );
  const getter = kind === undefined || kind.writes.length === 0 ? undefined : getterOf(kind.noun);
  if (getter === undefined) return undefined;
  try {
    await client.call({ method: 'GET', idempotent: true, path: at(getter, id) }, z.unknown());
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    if (error instanceof AuthError && kind!.noun === 'workflow') return undefined;
    throw error;
  }
}
