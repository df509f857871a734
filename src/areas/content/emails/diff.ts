/** `content diff` of emails, components and themes: per record, how it stands and what differs between the files and the account. */

import type { ApiClient } from '../../../api/client.js';
import type { Uses } from '../../../core/capabilities.js';
import { explained } from '../../../core/explain.js';
import { whereOf } from '../../change/account.js';
import { resolveAccount } from '../shared/account.js';
import type { EnvValues } from '../shared/env-values.js';
import type { ContentState, EmailDirectory } from '../shared/files.js';
import { type LmxNames, lmxNames, nameRecords } from '../shared/lmx-names.js';
import { readRecords } from '../shared/record-files.js';
import { recordDiff } from '../shared/render.js';
import { CONTENT, type Scope, scopeCovers } from '../shared/scope.js';
import { type Standing, standingOf } from '../shared/standing.js';
import type { RemoteRecord } from './remote.js';
import { describe, fetchAll, followRenames, nameRemotes, type Pair, pairRecords, pathOf } from './sides.js';

/** A record that differs: where it is, how it stands, and the patch from the account's files to the local ones. */
export interface EmailDifference {
  path: string;
  kind: EmailDirectory;
  name: string;
  id?: string;
  standing: Standing;
  patch: string;
}

/** The account the key reaches, as the state knows it, and its records of the kinds the tree holds: what a diff compares with. */
export async function accountSide(
  context: Uses<'client' | 'key'>,
  scope: Scope,
  state: ContentState,
  environment?: string,
): Promise<{ client: ApiClient; account: string; kinds: EmailDirectory[]; remotes: RemoteRecord[] }> {
  const kinds = scope.kinds.filter((kind) => state.kinds.includes(kind));
  const client = await context.client();
  const [{ key: account }, remotes] = await Promise.all([
    explained(
      whereOf(context, client).then((where) => resolveAccount(client, state, where, environment)),
      CONTENT,
    ),
    fetchAll(client, kinds),
  ]);
  return { client, account, kinds, remotes };
}

/**
 * The tree's records of the kinds asked for (and of the directories --only named) that differ from
 * the account's (`remotes`): the same ones only when their published files differ. Both sides' LMX
 * is compared in the tree's names of components and themes, which `names` gives the workflows too.
 */
export function diffEmails(
  scope: Scope,
  kinds: readonly EmailDirectory[],
  state: ContentState,
  account: string,
  remotes: RemoteRecord[],
  values?: EnvValues,
): { differences: EmailDifference[]; names: LmxNames; pairs: Pair[] } {
  const locals = readRecords(scope.root, kinds, values).filter((local) => scopeCovers(scope, local.path));
  followRenames(state, locals);
  const names = lmxNames(scope.root, state, account);
  nameRecords(locals, names, true);
  const paired = pairRecords(locals, remotes, state.accounts[account] ?? {});
  nameRemotes(paired, names, () => true);
  const differing = paired
    .filter((pair) => scopeCovers(scope, pathOf(pair)))
    .map((pair) => ({ pair, standing: standingOf(pair) }))
    .filter(({ standing, pair }) => standing !== 'same' || referenceDiffers(pair));
  const differences = differing.map(({ pair, standing }) => ({
    ...describe(pair),
    standing,
    patch: recordDiff(pair.remote?.files, pair.local?.files, pathOf(pair)),
  }));
  // The pairs too: a review draws the account's side of each.
  return { differences, names, pairs: differing.map(({ pair }) => pair) };
}

/** A transactional email's published files, kept for review, may differ while the draft does not. */
function referenceDiffers(pair: Pair): boolean {
  const { local, remote } = pair;
  if (local === undefined || remote === undefined) return false;
  return ['published.json', 'published.lmx'].some((file) => local.files.get(file) !== remote.files.get(file));
}
