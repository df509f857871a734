/**
 * Records matched by name. `content push` pairs a record it knows no id of with the account's
 * record of the same kind and the very same name (emails/sides.ts, audience/plan.ts), so that what
 * the account holds is never made twice; `loopsctl apply` asks the account the same question just
 * before it sends a create of a plan, since the `.applied` record beside a plan file knows only that
 * copy of it: a second copy (another path, another CI job, a fresh checkout) would create the record
 * again.
 *
 * None of the API's lists takes a name to look for: the whole list of the kind is read, page by
 * page, and its names compared. Every kind a plan creates has a list (transactional emails,
 * components, themes, transactional and campaign groups, segments).
 */
import { everyItem, type ApiClient, type ListResource } from '../../api/client.js';
import { freshReads } from '../../api/read-cache.js';
import { CONFIGURATION_WRITES, type ConfigurationOperation } from '../../platform/configuration-writes.js';
import { campaignGroups } from '../campaign-groups/client.js';
import { components } from '../components/client.js';
import { transactionalGroups } from '../groups/client.js';
import { segments } from '../segments/client.js';
import { themes } from '../themes/client.js';
import { transactionalEmails } from '../transactional/client.js';

/** The records of `records` that are `record`'s namesakes: of its kind, with its very name. */
export function namesakes<T extends { kind: string; name: string }>(records: readonly T[], record: { kind: string; name: string }): T[] {
  return records.filter((other) => other.kind === record.kind && other.name === record.name);
}

/** Each create a plan holds, by the API's operation: its kind's list. */
const CREATES: Partial<Record<ConfigurationOperation, ListResource<{ id: string; name: string }>>> = {
  createTransactionalEmail: transactionalEmails,
  createComponent: components,
  createTheme: themes,
  createTransactionalGroup: transactionalGroups,
  createCampaignGroup: campaignGroups,
  createAudienceSegment: segments,
};

/**
 * Why the record a plan's unit creates must not be created now, or undefined when the account
 * holds no record of its kind and name (or the call creates nothing): one of that name there was
 * created by an apply of another copy of the plan, or made meanwhile. `operation` is the API's
 * operation the unit's first call makes, `body` what it sends.
 */
export async function createdAlready(client: ApiClient, kind: string, operation: string, body: unknown): Promise<string | undefined> {
  const list = CREATES[operation as ConfigurationOperation];
  const name = (body as { name?: unknown } | null | undefined)?.name;
  if (list === undefined || typeof name !== 'string') return undefined;
  const held = (await everyItem(freshReads(client), list)).map((record) => ({ kind, name: record.name }));
  if (namesakes(held, { kind, name }).length === 0) return undefined;
  return `the account holds ${CONFIGURATION_WRITES[operation as ConfigurationOperation].kind} "${name}" already: applied before, or made meanwhile`;
}
