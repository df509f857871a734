/**
 * What each record of a plan held just before the plan was applied, read from the account and
 * kept privately beside the journal (src/config/before-images.ts): each as the kind of the unit
 * that changes it reads it (kinds.ts): a workflow as a pull writes it (its graph and its emails),
 * an email's record as a pull writes it (LMX and fields), a group's or a campaign's fields as the
 * API answers them. Once the apply is done, the revision (or the digest) each record was left at
 * is added, so that `loopsctl undo` is refused when the record changed again.
 */
import type { ApiClient } from '../../api/client.js';
import { dropImage, keepImage, newImageId } from '../../config/before-images.js';
import type { Uses } from '../../core/capabilities.js';
import type { AccountWhere } from './account.js';
import { type After, CREATED, type ImagedRecord, type PlanKinds } from './kinds.js';
import type { PlannedUnit } from './plan-file.js';

export const IMAGES_FORMAT = 1;

export interface BeforeImages {
  format: typeof IMAGES_FORMAT;
  id: string;
  at: string;
  command: string;
  account: AccountWhere;
  /** The plan file applied, and its digest. */
  plan?: { file: string; digest: string };
  records: ImagedRecord[];
}

/** What `apply` and `content push` do with the before-images they keep: settle each record done with where it was left. */
export interface KeptImages {
  id: string;
  /**
   * Where a record's own write left it: what `undo` compares with, so that a change made by someone
   * else since is a conflict, never overwritten. `after`, when its writes' answers told it (the
   * revision the last write left); else read as soon as its calls are done, which a change made in
   * the moment between the write and that read would slip past.
   */
  reached: (done: { record: string; id?: string; after?: After }) => Promise<void>;
  /** By the record's path in the plan (`workflows/…`, `groups …`), with the id of one it created. */
  settle: (done: { record: string; id?: string }[]) => Promise<void>;
}

export type Header = { command: string; account: AccountWhere; plan?: { file: string; digest: string } };

/** Reads and keeps the before-image of every record the units change, before the first is sent. */
export async function keepBeforeImages(
  context: Uses<'config' | 'clock'>,
  client: ApiClient,
  header: Header,
  units: PlannedUnit[],
  kinds: PlanKinds,
): Promise<KeptImages> {
  const imageOf = kinds.imagers(client);
  const records: ImagedRecord[] = [];
  for (const unit of units) {
    const id = unit.id;
    const before = id === undefined ? CREATED : await imageOf({ ...unit, id });
    records.push({ record: unit.record, kind: unit.kind, ...(id === undefined ? {} : { id }), unit, before });
  }
  return keepImages(context, client, header, records, kinds);
}

/** Keeps the before-images of the records a change is about to write, and settles each with where the change left it. */
export function keepImages(context: Uses<'config' | 'clock'>, client: ApiClient, header: Header, records: ImagedRecord[], kinds: PlanKinds): KeptImages {
  const now = context.runtime.now();
  const images: BeforeImages = { format: IMAGES_FORMAT, id: newImageId(now), at: now.toISOString(), ...header, records };
  keepImage(context.configDir, images.id, images);
  const idOf = (record: ImagedRecord, outcome: { id?: string }) => (record.id === undefined && outcome.id !== undefined ? { id: outcome.id } : {});
  const reached = new Map<string, After | undefined>();
  return {
    id: images.id,
    reached: async (done) => {
      const record = records.find((each) => each.record === done.record);
      if (record !== undefined) reached.set(record.record, done.after ?? (await kinds.whereNow(client, record.before, record.id ?? done.id)));
    },
    settle: async (done) => {
      // Only what was done is kept to undo: a record the change never reached was not changed.
      images.records = records.flatMap((record) => {
        const outcome = done.find((each) => each.record === record.record);
        return outcome === undefined ? [] : [{ ...record, ...idOf(record, outcome) }];
      });
      // A change that changed nothing (refused at a conflict, stopped before its first write) keeps no image: it is no change to
      // undo, and would hide the earlier change of the same plan from `loopsctl undo <plan>` and from an undo of the latest.
      if (images.records.length === 0) {
        dropImage(context.configDir, images.id);
        return;
      }
      for (const record of images.records)
        record.after = reached.has(record.record) ? reached.get(record.record) : await kinds.whereNow(client, record.before, record.id);
      keepImage(context.configDir, images.id, images);
    },
  };
}
