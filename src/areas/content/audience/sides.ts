/** The audience half of a tree beside the account's: what pull, diff and push each start from. */
import type { ApiClient } from '../../../api/client.js';
import { syncedAudienceOf } from '../shared/audience-state.js';
import type { ContentState } from '../shared/files.js';
import { type AudienceSide, pairAudience } from './plan.js';
import { fetchAudience, type RemoteAudience } from './remote.js';
import { type AudienceTree, readAudienceTree } from './rules.js';

export interface AudienceSides {
  tree: AudienceTree;
  remotes: RemoteAudience[];
  sides: AudienceSide[];
}

/** The tree's audience records and the account's, read and paired. */
export async function readAudienceSides(client: ApiClient, root: string, state: ContentState | undefined, account: string): Promise<AudienceSides> {
  const remotes = await fetchAudience(client);
  const tree = readAudienceTree(root);
  const sides = pairAudience(tree.records, remotes, syncedAudienceOf(state, account), tree.fields);
  return { tree, remotes, sides };
}
