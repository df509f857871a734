/**
 * Which account a plan is for: the team the key reaches, the API's address, and the profile (or
 * other source) the key came from, with, for a plan that names none of the account's records, a
 * record it holds. `loopsctl apply`, `undo`, `content review` and an MCP server refuse a plan (a
 * change, a proposal) for another account by them, in the words written here alone.
 */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import { NotFoundError, ProtectedError } from '../../base/errors.js';
import { z } from '../../base/shapes.js';
import type { Uses } from '../../core/capabilities.js';
import { accountOf } from '../../core/credentials.js';
import { API_KEY } from '../../platform/auth/resource.js';
import { apiKeyInfo } from '../../platform/auth/schemas.js';

/** Where a run's key reaches: its team, the API's address, and the profile (or other source) the key came from. */
export interface AccountWhere {
  team: string;
  baseUrl: string;
  profile: string;
}

/**
 * What a plan adds to where it is for when it names none of the account's records (it only
 * creates them): a record the account holds, by its path, the first of the registry's witness
 * list (the themes: every account has its default theme). `loopsctl apply` finds it there, or
 * takes the key's account for another one of the same team name at the same address.
 */
export async function witnessOf(
  client: ApiClient,
  witness: ListResource<{ id: string }> | undefined,
  units: readonly { id?: string }[],
): Promise<{ witness?: string }> {
  if (witness === undefined || units.some((unit) => unit.id !== undefined)) return {};
  for await (const page of client.pages(witness, { limit: 1 })) {
    const first = page.data[0];
    return first === undefined ? {} : { witness: `${witness.path}${path`/${first.id}`}` };
  }
  return {};
}

/** The team the key belongs to, as the API names it. */
export async function teamName(api: ApiClient): Promise<string> {
  return (await api.call({ method: 'GET', idempotent: true, path: API_KEY.operations.testApiKey.path }, apiKeyInfo)).teamName;
}

/** Where this run's key reaches. */
export async function whereOf(context: Uses<'client' | 'key'>, client: ApiClient): Promise<AccountWhere> {
  const [team, baseUrl, credentials] = await Promise.all([teamName(client), context.baseUrl(), context.credentials()]);
  return { team, baseUrl, profile: accountOf(credentials) };
}

/** Whether the account holds the record at a path: one it answers 404 for is another account's. */
export async function accountHolds(client: ApiClient, recordPath: string): Promise<boolean> {
  try {
    await client.call({ method: 'GET', idempotent: true, path: recordPath }, z.unknown());
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/**
 * The refusal of a plan, a change to undo or a proposal in an account other than the key's: a
 * protected refusal (exit 11), nothing sent. Every one is worded here, so that apply, undo, review
 * and an MCP server's approval say it alike.
 */
function anotherAccount(what: string, hint: string, code?: string): ProtectedError {
  return new ProtectedError(`${what}; nothing was sent`, { hint, ...(code === undefined ? {} : { code }) });
}

/**
 * Where the key reaches, refused with `what` (`the plan is for`, `<change> changed`) and the hint
 * when it is another team or address than `planned`: the one sentence of every such refusal.
 */
async function refuseElsewhere(context: Uses<'client' | 'key'>, client: ApiClient, what: string, planned: AccountWhere, hint: string): Promise<AccountWhere> {
  const where = await whereOf(context, client);
  if (where.team !== planned.team || where.baseUrl !== planned.baseUrl)
    throw anotherAccount(`${what} ${planned.team} at ${planned.baseUrl}, and this key reaches ${where.team} at ${where.baseUrl}`, hint);
  return where;
}

/** A unit of a plan as the account check reads it: the record it names, and whether the account holds it (its kind's `exists`). */
interface UnitInAccount {
  unit: { record: string; id?: string };
  exists(client: ApiClient): Promise<boolean | undefined>;
}

/**
 * Refuses a plan for another account than the key reaches: another team or address, a record the
 * plan changes that the account does not hold, or, for a plan that only creates, the record it noted.
 */
export async function refuseAnotherAccount(
  context: Uses<'client' | 'key'>,
  client: ApiClient,
  planned: AccountWhere & { witness?: string },
  units: readonly UnitInAccount[],
): Promise<void> {
  const hint = `apply it with the key it was planned with (profile ${planned.profile}), or plan again for this account`;
  await refuseElsewhere(context, client, 'the plan is for', planned, hint);
  for (const bound of units) {
    const unit = bound.unit;
    if (unit.id !== undefined && (await bound.exists(client)) === false) {
      throw anotherAccount(`${unit.record} (${unit.id}) is not in the account this key reaches: it is not the account the plan was made for`, hint);
    }
  }
  // A plan that only creates names none of the account's records: the one it noted must be here.
  const witness = planned.witness;
  if (witness !== undefined && units.every(({ unit }) => unit.id === undefined) && !(await accountHolds(client, witness))) {
    throw anotherAccount(
      `the plan was made in an account holding ${witness}, which the account this key reaches does not hold: it is not the account the plan was made for`,
      hint,
    );
  }
}

/** Where the key reaches, to undo a change: refused when it is another account than the one the change changed. */
export function refuseUndoInAnotherAccount(context: Uses<'client' | 'key'>, client: ApiClient, change: string, changed: AccountWhere): Promise<AccountWhere> {
  return refuseElsewhere(context, client, `${change} changed`, changed, `undo it with the key it was applied with (profile ${changed.profile})`);
}

/** Where the key reaches, to review a plan: refused when it is another account than the one the plan was made for. */
export async function refuseReviewInAnotherAccount(context: Uses<'client' | 'key'>, client: ApiClient, file: string, planned: AccountWhere): Promise<void> {
  await refuseElsewhere(
    context,
    client,
    `${file} is a plan for`,
    planned,
    `review it with the key it was planned with (profile ${planned.profile}), or with none`,
  );
}

/**
 * The refusal of an MCP proposal on a server that reaches another account than the one it was
 * proposed on (another key, profile, base URL, or the sandbox, sharing the config directory).
 */
export function anotherAccountsProposal(id: string, account: string): ProtectedError {
  return anotherAccount(
    `the change ${id} was proposed for ${account}, not the account this server changes`,
    'propose it again on this server, for a person to approve here',
    'wrong_account',
  );
}
