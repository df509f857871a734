/**
 * An email record's unit of a plan (a transactional email, a campaign, a component or a theme:
 * plan-unit.ts writes it), as the change cycle plays it (src/areas/change/kinds.ts): its shape in
 * the plan file, the calls it may hold, how each is sent, the namesake that stops its create, its
 * record's before-image as a pull writes it, and the push that puts the record back.
 */
import type { ApiClient } from '../../../api/client.js';
import { freshReads } from '../../../api/read-cache.js';
import type { Uses } from '../../../core/capabilities.js';
import type { WriteGate } from '../../../core/gate.js';
import { isIssuedId } from '../../../platform/ids.js';
import { nounOf } from '../../../platform/operations.js';
import { getCampaign, updateCampaign } from '../../campaigns/client.js';
import { type Header, type KeptImages, keepImages } from '../../change/before-images.js';
import {
  type After,
  CREATED,
  type Image,
  type ImagedRecord,
  imageKind,
  PlanKinds,
  type Played,
  StaleRecord,
  type Undone,
  type UnitEntry,
  type UnitKind,
  unitKind,
} from '../../change/kinds.js';
import type { PlannedUnit } from '../../change/plan-file.js';
import { createLists, type ResourceKind } from '../../change/request-calls.js';
import { createComponent, updateComponent } from '../../components/client.js';
import { getEmailMessage } from '../../email-messages/client.js';
import { createTheme, updateTheme } from '../../themes/client.js';
import { createTransactional, getTransactional, updateTransactional } from '../../transactional/client.js';
import { recordExists } from '../shared/account.js';
import { digestOf, type EmailDirectory } from '../shared/files.js';
import { messageUpdate } from '../shared/message-fields.js';
import type { RecordFiles } from '../shared/record-files.js';
import { emailImpact } from './impact.js';
import type { Step } from './plan.js';
import { DIRECTORY_OF, type EmailCall, type EmailUnit, emailUnitShape, messageHolder, NOUN_OF, recordUnit } from './plan-unit.js';
import {
  fetchRecord,
  type HeldMessage,
  heldOf,
  localMessage,
  type RemoteRecord,
  readEmailsAhead,
  recordAsPlanned,
  sendMessage,
  WRITTEN_MESSAGE,
} from './remote.js';

/** Every id a unit's calls put in a path: the unit's record's, the records a call names by `id`, the message it writes. */
function pathIds(unit: EmailUnit): unknown[] {
  return [unit.id, ...unit.calls.flatMap((call) => ('id' in call ? [call.id] : call.op === 'updateEmailMessage' ? [call.messageId] : []))].filter(
    (id) => id !== undefined,
  );
}

/**
 * Whether a unit may hold a call: one of its own record's operations (its row's, operations.ts), or
 * the update of the email message its record writes.
 */
function holdsOperation(unit: EmailUnit, call: EmailCall): boolean {
  return nounOf(call.op) === unit.kind || (call.op === 'updateEmailMessage' && WRITTEN_MESSAGE[DIRECTORY_OF[unit.kind]] !== undefined);
}

function problem(unit: EmailUnit): string | undefined {
  const odd = pathIds(unit).find((id) => !isIssuedId(id));
  if (odd !== undefined) return `${JSON.stringify(odd)} is no id the account issues`;
  for (const call of unit.calls) {
    if (!holdsOperation(unit, call)) return `a ${unit.kind} unit holds ${call.op}`;
    if ('id' in call && call.id !== unit.id) return `${call.op} of ${call.id} in the unit of ${String(unit.id)}`;
    if (call.op.startsWith('create') && unit.id !== undefined) return `${call.op} in the unit of an existing record`;
    if (call.op === 'updateEmailMessage' && unit.id === undefined) return 'updateEmailMessage in the unit of a record it creates';
  }
  if (unit.id === undefined && !unit.calls[0]!.op.startsWith('create')) return 'a unit without a record that creates none';
  return undefined;
}

/** The message a unit writes must be its record's own (a transactional email's draft, a campaign's email), as the account holds it now. */
async function foreignMessage(client: ApiClient, unit: EmailUnit): Promise<string | undefined> {
  const written = unit.calls.flatMap((call) => (call.op === 'updateEmailMessage' ? [call.messageId] : []));
  if (written.length === 0 || unit.id === undefined) return undefined;
  const own =
    unit.kind === 'transactional email'
      ? (await getTransactional(client, unit.id)).draftEmailMessageId
      : unit.kind === 'campaign'
        ? (await getCampaign(client, unit.id)).emailMessageId
        : undefined;
  const other = written.find((messageId) => messageId !== own);
  return other === undefined
    ? undefined
    : `updateEmailMessage of ${other}, which is not the email message of ${unit.record} (${unit.id}) in the account: another record's, or one it no longer writes to`;
}

/** What a message write's plan says the message held, when the write is guarded by the revision it held it at. */
function plannedBefore(call: EmailCall): HeldMessage | undefined {
  return call.op === 'updateEmailMessage' && call.expectedRevisionId !== null ? call.before : undefined;
}

/**
 * The messages a unit of a transactional email or a campaign writes, as the plan saw them, by
 * prefix: its before-image needs no read of them. Undefined when a write carries none.
 */
function plannedMessages(unit: EmailUnit): Record<string, HeldMessage> | undefined {
  const prefix = WRITTEN_MESSAGE[DIRECTORY_OF[unit.kind]];
  const writes = unit.calls.filter((call) => call.op === 'updateEmailMessage');
  if (prefix === undefined || writes.length !== 1) return undefined;
  const before = plannedBefore(writes[0]!);
  return before === undefined ? undefined : { [prefix]: before };
}

function refusal(errors: string[] | undefined, restored: boolean): Played {
  return restored && errors !== undefined ? { refused: `Guardian: ${errors.join('; ')}; put back as it was` } : {};
}

/**
 * Whether the API's Guardian checks a message the apply writes, the apply putting it back on its
 * errors: not a transactional email's draft, which reaches no one until it is published and which
 * the platform checks then ("Errors must be resolved before the email can be published", the API's
 * reference of `GET /v1/email-messages/{emailMessageId}/guardian`; a publish "failed validation" is
 * its 422). A plan publishes none (`transactional publish` does), and what Guardian finds in the
 * draft as planned is in the plan's impact, which the apply prints before it sends anything.
 */
function checkedAfterWrite(check: boolean, kind: EmailDirectory): boolean {
  return check && kind !== 'transactional';
}

// The unit's calls, one case each: a switch over the operations, read as one table.
async function playCall(client: ApiClient, planCheck: boolean, kind: EmailDirectory, call: EmailCall): Promise<Played> {
  const check = checkedAfterWrite(planCheck, kind);
  switch (call.op) {
    case 'updateEmailMessage': {
      // What Guardian's refusal puts back: the plan's, guarded by the revision the write carries, or read (a plan that carries none).
      const before = plannedBefore(call) ?? heldOf(await getEmailMessage(client, call.messageId));
      const sent = await sendMessage(client, call.messageId, call.body, before, call.expectedRevisionId, check);
      return {
        ...refusal(
          sent.report?.errors.map((rule) => rule.title),
          sent.restored,
        ),
        after: { messages: { [WRITTEN_MESSAGE[kind]!]: sent.revision } },
      };
    }
    case 'updateTransactionalEmail':
      await updateTransactional(client, call.id, call.body);
      return {};
    case 'updateCampaign':
      await updateCampaign(client, call.id, call.body);
      return {};
    case 'updateComponent':
    case 'updateTheme': {
      // These take no revision: the account's content is compared with what the plan saw, just before the write.
      const now = await fetchRecord(freshReads(client), kind, call.id);
      if (now === undefined || digestOf(now.files) !== call.expectedDigest) throw new StaleRecord();
      if (call.op === 'updateComponent') await updateComponent(client, call.id, call.body);
      else await updateTheme(client, call.id, call.body);
      return {};
    }
    case 'createComponent':
      return { id: (await createComponent(client, call.body)).id };
    case 'createTheme':
      return { id: (await createTheme(client, call.body)).id };
    case 'createTransactionalEmail': {
      const created = await createTransactional(client, call.body);
      const draft = call.draft;
      if (draft === undefined || created.draftEmailMessageId === null) return { id: created.id };
      const current = await getEmailMessage(client, created.draftEmailMessageId);
      const update = messageUpdate(draft.fields, draft.lmx, current);
      if (Object.keys(update).length === 0) return { id: created.id };
      const sent = await sendMessage(client, current.id, update, heldOf(current), current.contentRevisionId, check);
      return {
        id: created.id,
        ...refusal(
          sent.report?.errors.map((rule) => rule.title),
          sent.restored,
        ),
      };
    }
  }
}

/**
 * What the unit does to a record that can email people now, and why, read through the gate: a
 * message it writes that is sent now (a scheduled campaign's, a transactional email's published
 * one), or a component or theme it writes that a live email uses (platform/used-liveness.ts). Its
 * other calls reach no one: a name, a group, a draft's creation.
 */
async function emailLive(gate: WriteGate, unit: EmailUnit): Promise<{ does: string; why: string } | undefined> {
  // What holds the messages it writes: the record it names, which the gate reads (and checks names the message).
  const kind = messageHolder(unit.kind);
  const heldBy = kind === undefined || unit.id === undefined ? {} : { heldBy: { kind, id: unit.id } };
  for (const call of unit.calls) {
    const judged =
      call.op === 'updateEmailMessage'
        ? { does: 'edits an email message', target: { kind: 'email message' as const, id: call.messageId, ...heldBy } }
        : call.op === 'updateComponent' || call.op === 'updateTheme'
          ? { does: `edits a ${call.op === 'updateComponent' ? 'component' : 'theme'}`, target: { kind: USED[call.op], id: call.id } }
          : undefined;
    const why = judged === undefined ? undefined : await gate.live(judged.target);
    if (why !== undefined) return { does: judged!.does, why };
  }
  return undefined;
}

const USED = { updateComponent: 'component', updateTheme: 'theme' } as const;

/** An email, component or theme as a pull writes it, in the tree's words: `kind`, its directory. */
interface RecordImage extends Image {
  type: 'record';
  kind: EmailDirectory;
  name: string;
  files: Record<string, string>;
}

/**
 * A content push's unit of an email, a component or a theme; `resources`: what each resource brings
 * to its writes, of which the list each create is matched against by name (the same as its
 * command's `--plan`).
 */
export function emailUnits(resources: readonly ResourceKind[]): UnitEntry {
  const lists = createLists(resources);
  return unitKind<EmailUnit>({
    ...EMAIL_UNIT,
    namesakes: (unit) => {
      const [call] = unit.calls;
      const list = lists[call!.op];
      return list === undefined || !('name' in call!.body) || call!.body.name === undefined ? undefined : { list, noun: unit.kind, name: call!.body.name };
    },
  });
}

/** What a content push's unit is, whichever record it writes. */
const EMAIL_UNIT = {
  holds: (unit: PlannedUnit) => Object.hasOwn(DIRECTORY_OF, unit.kind) && unit.calls.every((call) => call.op !== 'request'),
  shape: emailUnitShape,
  problem,
  exists: async (client: ApiClient, unit: EmailUnit) => (unit.id === undefined ? undefined : recordExists(client, unit.record, unit.id)),
  impact: emailImpact,
  foreign: foreignMessage,
  stale: (unit) => `the ${unit.kind} changed in the account since the plan was made`,
  live: async (gate, unit) => (await emailLive(gate, unit))?.why,
  needsYes: async (gate, unit) => {
    const live = await emailLive(gate, unit);
    return live === undefined ? undefined : `${live.does} ${live.why}`;
  },
  creates: (unit) => unit.calls[0]!.op.startsWith('create'),
  play: (client, unit, plan) => {
    // A unit that writes its message alone is left where that write's answer says; one that writes more is read once done.
    const messageAlone = unit.calls.every((call) => call.op === 'updateEmailMessage');
    return unit.calls.map((call) => async () => {
      const { after, ...played } = await playCall(client, plan.check, DIRECTORY_OF[unit.kind], call);
      return messageAlone ? { ...played, after } : played;
    });
  },
  readAhead: (client, units) => readEmailsAhead(client, units.filter((unit) => unit.kind === 'transactional email' && unit.id !== undefined).length),
  imager: (client) => async (unit) => {
    const planned = plannedMessages(unit);
    const kind = DIRECTORY_OF[unit.kind];
    const remote =
      planned === undefined || (kind !== 'transactional' && kind !== 'campaigns')
        ? await fetchRecord(client, kind, unit.id)
        : await recordAsPlanned(client, kind, unit.id, planned);
    if (remote === undefined) return CREATED;
    const image: RecordImage = { type: 'record', kind, name: remote.name, files: Object.fromEntries(remote.files) };
    return image;
  },
} satisfies Omit<UnitKind<EmailUnit>, 'namesakes'>;

/** An email's, a component's or a theme's files put back, as a push of the files a pull wrote before would send them. */
async function recordInverse(client: ApiClient, record: ImagedRecord, before: RecordImage, after: After, imageFile: string): Promise<Undone> {
  // What the inverse writes, read now: its calls are the difference from there, guarded by where the apply left it.
  const remote = await fetchRecord(client, before.kind, record.id!, undefined, 'written');
  if (remote === undefined) return {};
  const local: RecordFiles = { kind: before.kind, path: record.record, name: before.name, files: new Map(Object.entries(before.files)) };
  // A draft published since: its change now sends, and the account holds no draft to put back.
  if (before.kind === 'transactional' && remote.messages.draft === undefined && localMessage(local, 'draft') !== undefined) {
    return {
      notUndone: {
        record: record.record,
        why: 'it was published since, so the account holds no draft to put back, and its published email sends the change',
        hint: `make its draft (\`loopsctl transactional draft ${record.id!}\`), write in it what it held before (kept in ${imageFile}), and publish it`,
      },
    };
  }
  // The revisions the apply left: a change made since is refused by the platform.
  const step: Step = { pair: { local, remote, synced: { revisions: after.messages ?? {} } }, standing: 'local', action: 'update' } as unknown as Step;
  const unit = recordUnit(step, false);
  const now = placeOf(remote);
  if (unit === undefined) return { now };
  for (const call of unit.calls) if ('expectedDigest' in call) call.expectedDigest = after.digest!;
  return { unit, now };
}

/** Where a record is, as `undo` compares it: the digest of its files and the revision of each of its messages. */
export function placeOf(remote: RemoteRecord): After {
  const messages = Object.fromEntries(Object.entries(remote.messages).map(([prefix, message]) => [prefix, message?.contentRevisionId ?? null]));
  return { digest: digestOf(remote.files), messages };
}

/** The image of an email, a component or a theme, as a pull writes it. */
export const RECORD_IMAGES = imageKind<RecordImage>({
  is: (image): image is RecordImage => image.type === 'record',
  whereNow: async (client, image, id) => {
    const remote = await fetchRecord(client, image.kind, id!);
    return remote === undefined ? undefined : placeOf(remote);
  },
  undoer: (client, imageFile) => (record, image, after) => recordInverse(client, record, image, after, imageFile),
});

/** The records a push writes, as it read them just before: kept with no read more. */
export function keepPushImages(context: Uses<'config' | 'clock'>, client: ApiClient, header: Header, steps: Step[]): KeptImages | undefined {
  const records = steps
    .filter((step) => step.action !== 'skip')
    .map((step): ImagedRecord => {
      const local = step.pair.local!;
      const remote = step.pair.remote;
      const id = remote === undefined ? {} : { id: remote.id };
      // As the account holds it, its own ids in its LMX where the push read it in the tree's names: what an undo puts back.
      const before: RecordImage | typeof CREATED =
        step.action === 'create' || remote === undefined
          ? CREATED
          : { type: 'record', kind: remote.kind, name: remote.name, files: Object.fromEntries(remote.withIds ?? remote.files) };
      const kind = NOUN_OF[local.kind];
      return { record: local.path, kind, ...id, unit: { record: local.path, kind, ...id, calls: [] }, before };
    });
  return records.length === 0 ? undefined : keepImages(context, client, header, records, new PlanKinds([], [RECORD_IMAGES]));
}
