/**
 * The inverse of an applied change, from the before-images its apply kept (before-images.ts): for
 * each record, the calls that take it from what it holds now back to what it held before, guarded
 * by where the apply left it (a workflow's or an email's revision, a record's digest), so that an
 * undo after a further change is refused by the same guard as any plan; and each record is
 * compared with where the apply left it before any is written, so that one changed since refuses
 * the whole undo, nothing sent, rather than leave it half done. Each record is put back by the kind of its image (kinds.ts). What the API cannot take
 * back (a record it cannot delete, a publish, a workflow the edit script cannot rebuild) is named,
 * with the nearest honest step.
 */
import type { ApiClient } from '../../api/client.js';
import type { BeforeImages } from './before-images.js';
import { type After, CREATED, type ImagedRecord, type ImageEntry, type NotUndone, type PlanKinds } from './kinds.js';
import type { PlannedUnit } from './plan-file.js';

export interface Inverse {
  units: PlannedUnit[];
  notUndone: NotUndone[];
  /** What the API cannot set on a workflow, to set in the app. */
  leftInApp: string[];
  /** The records changed in the account since the change, each of which its guard would refuse: found before anything is written. */
  changedSince: string[];
}

/**
 * Whether the record moved from where the apply left it, as its kind reads it now: another
 * revision of the record or of a message the apply wrote, or another digest. A message or record
 * that is gone is the undoer's to say (a draft published since), not a conflict.
 */
function movedSince(after: After, now: After | undefined): boolean {
  if (now === undefined) return false;
  if (after.revision !== undefined && now.revision !== undefined && after.revision !== now.revision) return true;
  if (after.digest !== undefined && now.digest !== undefined && after.digest !== now.digest) return true;
  return Object.entries(after.messages ?? {}).some(([prefix, revision]) => {
    const current = now.messages?.[prefix];
    return current !== undefined && current !== null && current !== revision;
  });
}

export async function inversePlan(client: ApiClient, images: BeforeImages, imageFile: string, kinds: PlanKinds): Promise<Inverse> {
  const inverse: Inverse = { units: [], notUndone: [], leftInApp: [], changedSince: [] };
  const undoers = new Map<ImageEntry, ReturnType<ImageEntry['undoer']>>();
  // Later changes first: each is undone on top of what came after it.
  for (const record of [...images.records].reverse()) {
    if (record.after === undefined) {
      inverse.notUndone.push(unknownAfter(record, imageFile));
      continue;
    }
    const kind = kinds.imageKind(record.before);
    if (record.before.type === CREATED.type || kind === undefined) {
      inverse.notUndone.push(record.before.type === CREATED.type ? created(record) : unread(record));
      continue;
    }
    const undo = undoers.get(kind) ?? kind.undoer(client, imageFile);
    undoers.set(kind, undo);
    const undone = await undo(record, record.before, record.after);
    // Every record is compared before the first write, so that an undo is refused whole rather than stopped half done.
    if (movedSince(record.after, undone.now ?? (await kind.whereNow(client, record.before, record.id)))) {
      inverse.changedSince.push(record.record);
      continue;
    }
    if (undone.unit !== undefined) inverse.units.push(undone.unit);
    if (undone.notUndone !== undefined) inverse.notUndone.push(undone.notUndone);
    inverse.leftInApp.push(...(undone.leftInApp ?? []));
  }
  return inverse;
}

/**
 * A record whose apply ended (killed, the machine down) before it kept where it left the record, or
 * found it gone: whether its write was sent, and what it holds since, is unknown, so no guard could
 * tell a later edit from it. It is named, never put back blind, and never passed over as if
 * nothing was done.
 */
function unknownAfter(record: ImagedRecord, imageFile: string): NotUndone {
  return {
    record: record.record,
    why: 'where the change left it was never kept (the change ended before it could, or the record was gone), so whether it was changed, and by whom since, is unknown',
    hint: `compare the account with what it held before, kept in ${imageFile}, and set it again in the Loops app if it differs`,
  };
}

function created(record: ImagedRecord): NotUndone {
  return {
    record: record.record,
    why: `the change created it, and the API cannot delete a ${record.kind}`,
    hint: `delete it in the Loops app${record.id === undefined ? '' : ` (its id: ${record.id})`}, or keep it`,
  };
}

function unread(record: ImagedRecord): NotUndone {
  return {
    record: record.record,
    why: `what it held before was kept as a ${record.before.type}, which this loopsctl does not put back`,
    hint: 'undo it with the loopsctl that applied the change',
  };
}
