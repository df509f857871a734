/** `content diff` of the audience half: each segment, group and single file that differs, as a unified diff from the account to the files. */
import type { ApiClient } from '../../../api/client.js';
import type { AudienceKind } from '../shared/audience-state.js';
import type { ContentState } from '../shared/files.js';
import { recordDiff } from '../shared/render.js';
import type { Standing } from '../shared/standing.js';
import { SINGLE_FILE } from './files.js';
import type { AudienceSide } from './plan.js';
import { readAudienceSides } from './sides.js';

/** A record that differs between the tree and the account, as `content diff` reports it. */
export interface AudienceDifference {
  path: string;
  kind: AudienceKind;
  name: string;
  id?: string;
  standing: Exclude<Standing, 'same'>;
  text: string;
}

/** A side's files as a unified diff, the single files named from the tree's root. */
export function audienceDiff(side: AudienceSide): string {
  const single = side.kind in SINGLE_FILE;
  return recordDiff(side.remote?.files, side.local?.files, single ? '' : side.path);
}

/** Every audience record of the tree, and of the account, that differs. */
export async function diffAudience(client: ApiClient, root: string, state: ContentState, account: string): Promise<AudienceDifference[]> {
  const { sides } = await readAudienceSides(client, root, state, account);
  return sides.flatMap((side) => {
    if (side.standing === 'same') return [];
    return [
      {
        path: side.path,
        kind: side.kind,
        name: side.name,
        ...(side.remote?.id === undefined ? {} : { id: side.remote.id }),
        standing: side.standing,
        text: audienceDiff(side),
      },
    ];
  });
}
