/**
 * The calls a push of one record makes, written down rather than sent, for a plan file: the same
 * bodies `remote.ts` would send, each email message's update with the content revision it was
 * planned against, and for components and themes (whose updates take no revision) the digest of
 * what the account held, which the apply compares before it sends. Their shape is the unit's in a
 * plan file, checked when a plan is read (kind.ts).
 */
import { UsageError } from '../../../base/errors.js';
import { z } from '../../../base/shapes.js';
import { digestOf, KINDS, parseJson } from '../shared/files.js';
import { META_FILE, type RecordFiles } from '../shared/record-files.js';
import { messageFields, messageUpdate } from '../shared/message-fields.js';
import { groupField, heldOf, localMessage, themeMeta } from './remote.js';
import type { Step } from './plan.js';

const styles = z.record(z.string(), z.union([z.string(), z.number()]));

/** The calls of an email record's unit, by operation: the bodies a push sends (kind.ts refuses a body with a field a push never sends). */
const emailCall = z.discriminatedUnion('op', [
  z.looseObject({
    op: z.literal('updateEmailMessage'),
    messageId: z.string(),
    expectedRevisionId: z.nullable(z.string()),
    body: z.record(z.string(), z.unknown()),
    /**
     * What the message held at `expectedRevisionId`, as the plan read it: a write the platform takes
     * at that revision overwrote just this, so it is the record's before-image with no read.
     */
    before: z.optional(z.looseObject({ fields: messageFields, lmx: z.string() })),
  }),
  z.looseObject({
    op: z.literal('updateTransactional'),
    id: z.string(),
    body: z.looseObject({ name: z.optional(z.string()), transactionalGroupId: z.optional(z.string()) }),
  }),
  z.looseObject({ op: z.literal('updateCampaign'), id: z.string(), body: z.looseObject({ name: z.optional(z.string()) }) }),
  z.looseObject({
    op: z.literal('updateComponent'),
    id: z.string(),
    expectedDigest: z.string(),
    body: z.looseObject({ name: z.optional(z.string()), lmx: z.optional(z.string()) }),
  }),
  z.looseObject({
    op: z.literal('updateTheme'),
    id: z.string(),
    expectedDigest: z.string(),
    body: z.looseObject({ name: z.optional(z.string()), styles: z.optional(styles) }),
  }),
  z.looseObject({ op: z.literal('createComponent'), body: z.looseObject({ name: z.string(), lmx: z.string() }) }),
  z.looseObject({ op: z.literal('createTheme'), body: z.looseObject({ name: z.string(), styles: z.optional(styles) }) }),
  z.looseObject({
    op: z.literal('createTransactional'),
    body: z.looseObject({ name: z.string(), transactionalGroupId: z.optional(z.string()) }),
    /** The draft's fields and LMX, sent to the draft the create makes. */
    draft: z.optional(z.looseObject({ fields: messageFields, lmx: z.string() })),
  }),
]);
export type EmailCall = z.infer<typeof emailCall>;

/** The unit of one record, as a plan file holds it. */
export const emailUnitShape = z.looseObject({
  record: z.string(),
  kind: z.enum(KINDS),
  /** The record's id in the account; none for one the plan creates. */
  id: z.optional(z.string()),
  calls: z.array(emailCall).check(z.minLength(1)),
});
export type EmailUnit = z.infer<typeof emailUnitShape>;

/** The written message's prefix of each kind whose content is an email message. */
const MESSAGE_OF = { transactional: 'draft', campaigns: 'email' } as const;

/**
 * The calls of one step of a push, or undefined when it sends nothing. The step's local files are
 * as the account takes them (their LMX naming components and themes by its ids: shared/lmx-names.ts);
 * `groupIds`, the account's transactional groups by name as the push read them (an update's record
 * carries its own).
 */
export function recordUnit(step: Step, force: boolean, groupIds?: ReadonlyMap<string, string>): EmailUnit | undefined {
  if (step.action === 'skip') return undefined;
  const local = step.pair.local!;
  const calls = step.action === 'create' ? creation(local, groupIds) : update(step, force, groupIds);
  if (calls.length === 0) return undefined;
  return { record: local.path, kind: local.kind, ...(step.pair.remote === undefined ? {} : { id: step.pair.remote.id }), calls };
}

function creation(local: RecordFiles, groupIds: ReadonlyMap<string, string> | undefined): EmailCall[] {
  switch (local.kind) {
    case 'transactional': {
      const draft = localMessage(local, 'draft');
      return [{ op: 'createTransactional', body: { name: local.name, ...groupField(local, groupIds) }, ...(draft === undefined ? {} : { draft }) }];
    }
    case 'components':
      return [{ op: 'createComponent', body: { name: local.name, lmx: local.files.get('component.lmx') ?? '' } }];
    case 'themes': {
      const theme = parseJson(`${local.path}/${META_FILE.themes}`, local.files.get(META_FILE.themes)!, themeMeta);
      return [{ op: 'createTheme', body: { name: local.name, ...(theme.styles === undefined ? {} : { styles: theme.styles }) } }];
    }
    case 'campaigns':
      // A campaign is made in the app of each account, never copied: a push skips it too.
      return [];
  }
}

/**
 * The revisions a record's write is guarded by: those it was pulled at; but where the account holds
 * just what it was pulled from (its content, by the digest the pull kept: an apply and its undo move
 * the revision and put the content back), the revisions read now, which lose nothing of the account's.
 * An undo's step holds no digest: its revisions are where the apply left the record, kept as they are.
 */
export function guardingRevisions(step: Step): Record<string, string | null> | undefined {
  const { synced } = step.pair;
  return step.standing === 'local' && synced?.digest !== undefined ? undefined : synced?.revisions;
}

function update(step: Step, force: boolean, groupIds: ReadonlyMap<string, string> | undefined): EmailCall[] {
  const local = step.pair.local!;
  const remote = step.pair.remote!;
  const renamed = local.name !== remote.name;
  const calls: EmailCall[] = [];
  if (local.kind === 'transactional' || local.kind === 'campaigns') {
    const prefix = MESSAGE_OF[local.kind];
    const wanted = localMessage(local, prefix);
    const current = remote.messages[prefix];
    if (wanted !== undefined && current === undefined && local.kind === 'transactional') {
      throw new UsageError(`${local.path}: the transactional email has no draft in the account, which a plan file cannot name beforehand`, {
        hint: 'push it without --out (its draft is made from what is published), then plan the next change',
      });
    }
    if (wanted !== undefined && current !== undefined) {
      const body = messageUpdate(wanted.fields, wanted.lmx, current);
      const pulledAt = force ? undefined : guardingRevisions(step)?.[prefix];
      const expectedRevisionId = pulledAt === undefined ? current.contentRevisionId : pulledAt;
      // What it held is the plan's to carry when the write is guarded by the revision it was read at.
      const before = expectedRevisionId !== null && expectedRevisionId === current.contentRevisionId ? { before: heldOf(current) } : {};
      if (Object.keys(body).length > 0) calls.push({ op: 'updateEmailMessage', messageId: current.id, expectedRevisionId, body: { ...body }, ...before });
    }
    // A transactional email moved to another group is one update with its name.
    const moved = local.kind === 'transactional' ? groupField(local, groupIds ?? remote.groupIds, remote) : {};
    const body = { ...(renamed ? { name: local.name } : {}), ...moved };
    if (Object.keys(body).length > 0) calls.push({ op: local.kind === 'transactional' ? 'updateTransactional' : 'updateCampaign', id: remote.id, body });
    return calls;
  }
  // Components and themes take no revision: the apply compares the account's content, as it holds it, with what the plan saw.
  const held = remote.withIds ?? remote.files;
  const expectedDigest = digestOf(held);
  if (local.kind === 'components') {
    const lmx = local.files.get('component.lmx');
    const body: Record<string, unknown> = {};
    if (renamed) body.name = local.name;
    if (lmx !== undefined && lmx !== held.get('component.lmx')) body.lmx = lmx;
    if (Object.keys(body).length > 0) calls.push({ op: 'updateComponent', id: remote.id, expectedDigest, body });
    return calls;
  }
  const theme = parseJson(`${local.path}/${META_FILE.themes}`, local.files.get(META_FILE.themes)!, themeMeta);
  const body: Record<string, unknown> = {};
  if (renamed) body.name = local.name;
  if (theme.styles !== undefined && local.files.get(META_FILE.themes) !== remote.files.get(META_FILE.themes)) body.styles = theme.styles;
  if (Object.keys(body).length > 0) calls.push({ op: 'updateTheme', id: remote.id, expectedDigest, body });
  return calls;
}
