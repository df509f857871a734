/**
 * The calls a push of one record makes, written down rather than sent, for a plan file: the same
 * bodies `remote.ts` would send, each email message's update with the content revision it was
 * planned against, and for components and themes (whose updates take no revision) the digest of
 * what the account held, which the apply compares before it sends. Their shape is the unit's in a
 * plan file, checked when a plan is read (kind.ts).
 */
import { UsageError } from '../../../base/errors.js';
import { z } from '../../../base/shapes.js';
import { campaign } from '../../../platform/campaigns/schemas.js';
import { component } from '../../../platform/components/schemas.js';
import { emailMessage, FALLBACK_FIELD_NAMES } from '../../../platform/email-messages/schemas.js';
import type { OperationId } from '../../../platform/operations.js';
import { directoryKind, type EmailWord, type NounOfDirectory, RECORD_KINDS } from '../../../platform/record-kinds.js';
import { theme } from '../../../platform/themes/schemas.js';
import { transactionalEmail } from '../../../platform/transactional/schemas.js';
import { digestOf, type EmailDirectory, KINDS, parseJson } from '../shared/files.js';
import { messageFields, messageUpdate } from '../shared/message-fields.js';
import { META_FILE, type RecordFiles } from '../shared/record-files.js';
import type { Step } from './plan.js';
import { groupField, heldOf, localMessage, themeMeta, WRITTEN_MESSAGE } from './remote.js';

/** The noun each kind of record of the tree's emails half is named by in a plan, by its directory (`transactional`: transactional email). */
export const NOUN_OF = Object.fromEntries(KINDS.map((kind) => [kind, directoryKind(kind)!.noun])) as { [K in EmailDirectory]: NounOfDirectory<K> };
export type EmailNoun = (typeof NOUN_OF)[EmailDirectory];
/** The directory of each kind, by its noun. */
export const DIRECTORY_OF = Object.fromEntries(KINDS.map((kind) => [NOUN_OF[kind], kind])) as Record<EmailNoun, EmailDirectory>;

/** A body of these fields and no other: one with another field is none a content push wrote. */
function body<Shape extends z.$ZodShape>(shape: Shape) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `sends ${issue.keys.join(', ')}, which a content push never sends` : undefined),
  });
}

/** A call of an email record's unit: the API's operation and the fields it takes besides its body, and no other. */
function call<Op extends OperationId, Shape extends z.$ZodShape>(op: Op, shape: Shape) {
  return z.strictObject({ op: z.literal(op), ...shape });
}

/** What a message held, or is to hold: its fields file and its LMX. */
const held = z.strictObject({ fields: messageFields, lmx: emailMessage.shape.lmx });

/** Each record's fields as the API's schema of it says, but a group named by the id the push found for it and a theme's styles as its file holds them. */
const transactionalBody = body({ name: transactionalEmail.shape.name, transactionalGroupId: z.optional(z.string()) });
const componentBody = body({ name: component.shape.name, lmx: component.shape.lmx });
const themeBody = body({ name: theme.shape.name, styles: themeMeta.shape.styles });
/** An email message's fields, its LMX, and each fallback set, or removed with null. */
const messageBody = body({
  ...messageFields.shape,
  lmx: z.optional(emailMessage.shape.lmx),
  ...(Object.fromEntries(FALLBACK_FIELD_NAMES.map((field) => [field, z.optional(z.record(z.string(), z.nullable(z.string())))])) as Record<
    (typeof FALLBACK_FIELD_NAMES)[number],
    z.ZodMiniOptional<z.ZodMiniRecord<z.ZodMiniString, z.ZodMiniNullable<z.ZodMiniString>>>
  >),
});

/** The calls of an email record's unit, by the API's operationId: the bodies a push sends. */
const emailCall = z.discriminatedUnion('op', [
  call('updateEmailMessage', {
    messageId: z.string(),
    expectedRevisionId: z.nullable(z.string()),
    body: messageBody,
    /**
     * What the message held at `expectedRevisionId`, as the plan read it: a write the platform takes
     * at that revision overwrote just this, so it is the record's before-image with no read.
     */
    before: z.optional(held),
  }),
  call('updateTransactionalEmail', { id: z.string(), body: z.partial(transactionalBody) }),
  call('updateCampaign', { id: z.string(), body: body({ name: z.optional(campaign.shape.name) }) }),
  call('updateComponent', { id: z.string(), expectedDigest: z.string(), body: z.partial(componentBody) }),
  call('updateTheme', { id: z.string(), expectedDigest: z.string(), body: z.partial(themeBody) }),
  call('createComponent', { body: componentBody }),
  call('createTheme', { body: themeBody }),
  /** `draft`: the draft's fields and LMX, sent to the draft the create makes. */
  call('createTransactionalEmail', { body: transactionalBody, draft: z.optional(held) }),
]);
export type EmailCall = z.infer<typeof emailCall>;

/** The unit of one record, as a plan file holds it. */
export const emailUnitShape = z.strictObject({
  record: z.string(),
  kind: z.enum(Object.values(NOUN_OF) as [EmailNoun, ...EmailNoun[]]),
  /** The record's id in the account; none for one the plan creates. */
  id: z.optional(z.string()),
  calls: z.array(emailCall).check(z.minLength(1)),
});
export type EmailUnit = z.infer<typeof emailUnitShape>;

/**
 * The word (record-kinds.ts) of a unit's record when the record's content is an email message a
 * push writes (a transactional email's draft, a campaign's email): what holds the message, and
 * the kind of email it is; none for a component or a theme.
 */
export function messageHolder(noun: EmailNoun): EmailWord | undefined {
  return WRITTEN_MESSAGE[DIRECTORY_OF[noun]] === undefined ? undefined : (RECORD_KINDS[noun].word as EmailWord);
}

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
  return { record: local.path, kind: NOUN_OF[local.kind], ...(step.pair.remote === undefined ? {} : { id: step.pair.remote.id }), calls };
}

function creation(local: RecordFiles, groupIds: ReadonlyMap<string, string> | undefined): EmailCall[] {
  switch (local.kind) {
    case 'transactional': {
      const draft = localMessage(local, 'draft');
      return [{ op: 'createTransactionalEmail', body: { name: local.name, ...groupField(local, groupIds) }, ...(draft === undefined ? {} : { draft }) }];
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
    const prefix = WRITTEN_MESSAGE[local.kind]!;
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
    if (Object.keys(body).length > 0) calls.push({ op: local.kind === 'transactional' ? 'updateTransactionalEmail' : 'updateCampaign', id: remote.id, body });
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
