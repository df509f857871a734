/**
 * The account's side of content as code: each record read from the API and turned into the files
 * a pull writes, and the requests that make the account hold a record's files.
 */
import { type ApiClient, everyItem, readListWhenCheaper } from '../../../api/client.js';
import { settled } from '../../../api/concurrency.js';
import { LocalFileError, NotFoundError } from '../../../base/errors.js';
import { z } from '../../../base/shapes.js';
import type { EmailMessage, EmailMessageUpdate, GuardianReport } from '../../../platform/email-messages/schemas.js';
import type { StylesRequest } from '../../../platform/themes/styles.js';
import { campaigns, getCampaign, updateCampaign } from '../../campaigns/client.js';
import { components, createComponent, getComponent, updateComponent } from '../../components/client.js';
import { getEmailMessage, guardianReport, updateEmailMessage } from '../../email-messages/client.js';
import { createTheme, getTheme, themes, updateTheme } from '../../themes/client.js';
import {
  createTransactional,
  ensureDraft,
  getTransactional,
  publishTransactional,
  transactionalEmails,
  updateTransactional,
} from '../../transactional/client.js';
import { transactionalGroups } from '../../transactional/groups.js';
import { type EmailDirectory, type Files, jsonFile, parseJson } from '../shared/files.js';
import { fieldsOf, type MessageFields, messageFields, messageUpdate } from '../shared/message-fields.js';
import { META_FILE, type RecordFiles } from '../shared/record-files.js';

/** A record as the account holds it: its files, and the email messages behind them by file prefix. */
export interface RemoteRecord extends Omit<RecordFiles, 'path'> {
  id: string;
  messages: Record<string, EmailMessage | undefined>;
  /** Why the account takes no edit of it (a campaign past its draft), which a push says rather than send. */
  locked?: string;
  /** A transactional email's: the account's transactional groups by name, which a push names the email's group from. */
  groupIds?: ReadonlyMap<string, string>;
}

/** What an email message's files hold: its fields and its LMX. */
export type HeldMessage = { fields: MessageFields; lmx: string };

/** What a message read from the account holds, as its files write it. */
export function heldOf(message: EmailMessage): HeldMessage;
export function heldOf(message: EmailMessage | undefined): HeldMessage | undefined;
export function heldOf(message: EmailMessage | undefined): HeldMessage | undefined {
  return message === undefined ? undefined : { fields: fieldsOf(message), lmx: message.lmx };
}

function messageFiles(files: Files, prefix: string, message: HeldMessage | undefined): void {
  if (message === undefined) return;
  files.set(`${prefix}.json`, jsonFile(message.fields));
  files.set(`${prefix}.lmx`, message.lmx);
}

/** The files of a record as the account holds it. */
function filesOf(kind: EmailDirectory, name: string, extra: Record<string, unknown>, messages: Record<string, HeldMessage | undefined>, lmx?: string): Files {
  const files: Files = new Map([[META_FILE[kind], jsonFile({ name, ...extra })]]);
  if (lmx !== undefined) files.set('component.lmx', lmx);
  for (const [prefix, message] of Object.entries(messages)) messageFiles(files, prefix, message);
  return files;
}

async function message(api: ApiClient, id: string | null): Promise<EmailMessage | undefined> {
  return id === null ? undefined : getEmailMessage(api, id);
}

/** The account's transactional groups, by name: what an email's file names its group by, and the id a push sends for it. */
export async function transactionalGroupIds(api: ApiClient): Promise<Map<string, string>> {
  return new Map((await everyItem(api, transactionalGroups.list)).map((group) => [group.name, group.id]));
}

/**
 * A transactional email: its draft is what a push changes. Without one, the draft a push makes
 * starts from the published version (as the API's ensure-draft does), so the files show that.
 * Its group is named by the group's name (an id the account does not list is kept as it is).
 */
async function transactionalRecord(
  api: ApiClient,
  record: { id: string; name: string; draftEmailMessageId: string | null; publishedEmailMessageId: string | null; transactionalGroupId?: string | null },
  groupIds: ReadonlyMap<string, string>,
  reading: Reading = 'all',
): Promise<RemoteRecord> {
  // The published message is read for what a write leaves alone only where there is no draft, whose place it takes.
  const publishedRead = reading === 'all' || record.draftEmailMessageId === null;
  const [draft, published] = await Promise.all([message(api, record.draftEmailMessageId), message(api, publishedRead ? record.publishedEmailMessageId : null)]);
  const messages = { draft: heldOf(draft ?? published), published: heldOf(published) };
  return {
    kind: 'transactional',
    id: record.id,
    name: record.name,
    files: filesOf('transactional', record.name, groupOf(record, groupIds), messages),
    messages: { draft, published },
    groupIds,
  };
}

/** A transactional email's group as its file names it: by the group's name (an id the account does not list is kept as it is). */
function groupOf(record: { transactionalGroupId?: string | null }, groupIds: ReadonlyMap<string, string>): { group?: string } {
  const groupId = record.transactionalGroupId ?? undefined;
  const group = groupId === undefined ? undefined : ([...groupIds].find(([, id]) => id === groupId)?.[0] ?? groupId);
  return group === undefined ? {} : { group };
}

async function campaignRecord(api: ApiClient, record: { id: string; name: string; status: string; emailMessageId: string | null }): Promise<RemoteRecord> {
  const email = await message(api, record.emailMessageId);
  // The API refuses (409) an edit of the email of a campaign that is scheduled, sending or sent.
  const locked =
    record.status.toLowerCase() === 'draft'
      ? undefined
      : `the campaign is ${record.status}, and only a draft campaign's email can be edited: undo the edit here (pull with --force takes the account's side)`;
  return {
    kind: 'campaigns',
    id: record.id,
    name: record.name,
    files: filesOf('campaigns', record.name, {}, { email: heldOf(email) }),
    messages: { email },
    locked,
  };
}

function componentRecord(record: { id: string; name: string; lmx: string }): RemoteRecord {
  return { kind: 'components', id: record.id, name: record.name, files: filesOf('components', record.name, {}, {}, record.lmx), messages: {} };
}

function themeRecord(record: { id: string; name: string; styles: Record<string, unknown> }): RemoteRecord {
  return { kind: 'themes', id: record.id, name: record.name, files: filesOf('themes', record.name, { styles: record.styles }, {}), messages: {} };
}

/** Every record of a kind in the account, with the messages behind them fetched side by side. */
export async function fetchKind(api: ApiClient, kind: EmailDirectory): Promise<RemoteRecord[]> {
  switch (kind) {
    case 'transactional': {
      const [emails, groupIds] = await Promise.all([everyItem(api, transactionalEmails), transactionalGroupIds(api)]);
      return settled(emails, (record) => transactionalRecord(api, record, groupIds));
    }
    case 'campaigns':
      return settled(await everyItem(api, campaigns), (record) => campaignRecord(api, record));
    case 'components':
      return (await everyItem(api, components)).map(componentRecord);
    case 'themes':
      return (await everyItem(api, themes)).map(themeRecord);
  }
}

/**
 * What a read of a record holds: all of it, or what a push writes (a transactional email's published
 * message left out: no push writes it, and where it shows nothing is compared).
 */
export type Reading = 'all' | 'written';

/**
 * One record by its id in the account, or undefined when the account has no such record. A caller
 * reading many gives the transactional groups it read once, rather than a listing per email.
 */
export async function fetchRecord(
  api: ApiClient,
  kind: EmailDirectory,
  id: string,
  groups?: Promise<ReadonlyMap<string, string>>,
  reading: Reading = 'all',
): Promise<RemoteRecord | undefined> {
  try {
    switch (kind) {
      case 'transactional': {
        const [record, groupIds] = await Promise.all([getTransactional(api, id), groups ?? transactionalGroupIds(api)]);
        return await transactionalRecord(api, record, groupIds, reading);
      }
      case 'campaigns':
        return await campaignRecord(api, await getCampaign(api, id));
      case 'components':
        return componentRecord(await getComponent(api, id));
      case 'themes':
        return themeRecord(await getTheme(api, id));
    }
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * A transactional email's or a campaign's name and files, with the message a plan writes as the
 * plan saw it (`written`, by its prefix) rather than read: the plan's write of it carries the
 * revision it saw, so a write the platform takes overwrote just that. The record itself is read (a
 * transactional email from its list's page, where the run holds it); its other message (a
 * transactional email's published one) is left out, since the change writes nothing of it.
 * Undefined when the account has no such record.
 */
export async function recordAsPlanned(
  api: ApiClient,
  kind: 'transactional' | 'campaigns',
  id: string,
  written: Record<string, HeldMessage>,
): Promise<{ name: string; files: Files } | undefined> {
  try {
    if (kind === 'campaigns') {
      const record = await getCampaign(api, id);
      return { name: record.name, files: filesOf('campaigns', record.name, {}, written) };
    }
    const [record, groupIds] = await Promise.all([getTransactional(api, id), transactionalGroupIds(api)]);
    return { name: record.name, files: filesOf('transactional', record.name, groupOf(record, groupIds), written) };
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * Reads the transactional emails' list first when its pages are no more than the `emails` a run
 * is about to read by id: a run that keeps its reads (read-cache.ts) takes each from its page.
 */
export async function readEmailsAhead(api: ApiClient, emails: number): Promise<void> {
  if (emails > 1) await readListWhenCheaper(api, transactionalEmails, emails);
}

/** What one record's push did to the account. */
export interface Applied {
  id: string;
  /** The messages written, with what Guardian found in each. */
  checked: { prefix: string; messageId: string; report?: GuardianReport; restored: boolean; message?: EmailMessage }[];
  /** The record's name and content were sent. */
  changed: boolean;
  /**
   * The record as its writes' answers leave it, where they tell it all (its message written alone,
   * and kept: "Email message updated", `EmailMessageResponse`, answers the message as its read does):
   * what the push records as in step, with no read after.
   */
  answered?: RemoteRecord;
}

export interface ApplyOptions {
  /** Run Guardian on each message written; a message with errors is put back as it was. */
  check: boolean;
  /** Refuse stale revisions: the revision each message was at when the record was last in step. */
  expectedRevisions?: Record<string, string | null>;
  /** The account's transactional groups by name, as the push read them (else the record's own read). */
  groupIds?: ReadonlyMap<string, string>;
}

/** A record's local files, read into what the API takes. */
export function localMessage(record: RecordFiles, prefix: string): { fields: MessageFields; lmx: string } | undefined {
  const json = record.files.get(`${prefix}.json`);
  const lmx = record.files.get(`${prefix}.lmx`);
  if (json === undefined && lmx === undefined) return undefined;
  return { fields: json === undefined ? {} : parseJson(`${record.path}/${prefix}.json`, json, messageFields), lmx: lmx ?? '' };
}

export const themeMeta = z.looseObject({ name: z.string(), styles: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))) });

const transactionalMeta = z.looseObject({ name: z.string(), group: z.optional(z.string().check(z.minLength(1))) });

/** The group a transactional email's file names, by its name; undefined when it names none (the account's is left as it is). */
export function groupNamed(files: Files, path: string): string | undefined {
  const text = files.get(META_FILE.transactional);
  return text === undefined ? undefined : parseJson(`${path}/${META_FILE.transactional}`, text, transactionalMeta).group;
}

/**
 * What a push sends of a transactional email's group: the id, in the account, of the group its file
 * names, when the email is not in it already; nothing when the file names none. A group the
 * account lacks stops the push before its first write.
 */
export function groupField(local: RecordFiles, groupIds: ReadonlyMap<string, string> | undefined, remote?: RemoteRecord): { transactionalGroupId?: string } {
  const group = groupNamed(local.files, local.path);
  if (group === undefined || (remote !== undefined && groupNamed(remote.files, local.path) === group)) return {};
  const id = groupIds?.get(group);
  if (id === undefined)
    throw new LocalFileError(`${local.path}/${META_FILE.transactional}: group: the transactional group "${group}" is not in the account; nothing was sent`, {
      hint: "push the tree's groups with it (groups/transactional/), or name a group the account has",
    });
  return { transactionalGroupId: id };
}

/** The message of each kind of record a push writes: a transactional email's draft, a campaign's email. */
export const WRITTEN_MESSAGE: Partial<Record<RecordFiles['kind'], string>> = { transactional: 'draft', campaigns: 'email' };

/**
 * Reads what a push of the record would send, as it would: a file that cannot be (JSON that does
 * not parse, a field of the wrong type) stops the push before its first write, not half way.
 */
export function readForPush(local: RecordFiles, remote: RemoteRecord | undefined, groupIds: ReadonlyMap<string, string> | undefined): void {
  if (local.kind === 'transactional') groupField(local, groupIds ?? remote?.groupIds, remote);
  if (local.kind === 'themes') parseJson(`${local.path}/${META_FILE.themes}`, local.files.get(META_FILE.themes)!, themeMeta);
  const prefix = WRITTEN_MESSAGE[local.kind];
  if (prefix !== undefined) localMessage(local, prefix);
}

/**
 * Writes one message, then has Guardian check it: Guardian reads only what the account holds. A
 * message Guardian finds errors in is put back as it was, so the record is left untouched.
 */
async function writeMessage(
  api: ApiClient,
  messageId: string,
  wanted: { fields: MessageFields; lmx: string },
  current: EmailMessage,
  expected: string | null | undefined,
  check: boolean,
) {
  const body = messageUpdate(wanted.fields, wanted.lmx, current);
  if (Object.keys(body).length === 0) return undefined;
  return sendMessage(api, messageId, body, heldOf(current), expected === undefined ? current.contentRevisionId : expected, check);
}

/**
 * Sends a message's update guarded by `revision`, then, with `check`, has Guardian check it and
 * puts back `before` (what the message held at that revision) when Guardian finds errors. In the
 * outcome, `message` is the message as its last write's answer gave it ("Email message updated",
 * `EmailMessageResponse`, as its read answers it): `revision`, the content revision it was left at.
 */
export async function sendMessage(api: ApiClient, messageId: string, body: EmailMessageUpdate, before: HeldMessage, revision: string | null, check: boolean) {
  const updated = await updateEmailMessage(api, messageId, revision === null ? body : { expectedRevisionId: revision, ...body });
  if (!check) return { report: undefined, restored: false, revision: updated.contentRevisionId, message: updated };
  const report = await guardianReport(api, messageId);
  if (report.errors.length === 0) return { report, restored: false, revision: updated.contentRevisionId, message: updated };
  const back = messageUpdate(before.fields, before.lmx, updated);
  const putBack = await updateEmailMessage(
    api,
    messageId,
    updated.contentRevisionId === null ? back : { expectedRevisionId: updated.contentRevisionId, ...back },
  );
  return { report, restored: true, revision: putBack.contentRevisionId, message: putBack };
}

/** Makes an existing record in the account hold the local files. */
export async function applyRecord(api: ApiClient, local: RecordFiles, remote: RemoteRecord, options: ApplyOptions): Promise<Applied> {
  const applied: Applied = { id: remote.id, checked: [], changed: false };
  const renamed = local.name !== remote.name;
  // Whether the record itself was written (a name, a group): its answer is not the record as a read gives it.
  let recordWritten = false;
  switch (local.kind) {
    case 'transactional': {
      const wanted = localMessage(local, WRITTEN_MESSAGE.transactional!);
      if (wanted !== undefined) {
        let draft = remote.messages.draft;
        let expected = options.expectedRevisions?.draft;
        if (draft === undefined) {
          // Published since, or never drafted: a new draft starts from what is published.
          const record = await ensureDraft(api, remote.id);
          draft = await getEmailMessage(api, record.draftEmailMessageId!);
          expected = draft.contentRevisionId;
        }
        recordMessage(applied, 'draft', draft.id, await writeMessage(api, draft.id, wanted, draft, expected, options.check));
      }
      const moved = groupField(local, options.groupIds ?? remote.groupIds, remote);
      if ((renamed || moved.transactionalGroupId !== undefined) && !restored(applied)) {
        await updateTransactional(api, remote.id, { ...(renamed ? { name: local.name } : {}), ...moved });
        applied.changed = true;
        recordWritten = true;
      }
      break;
    }
    case 'campaigns': {
      const wanted = localMessage(local, WRITTEN_MESSAGE.campaigns!);
      const email = remote.messages.email;
      if (wanted !== undefined && email !== undefined) {
        recordMessage(applied, 'email', email.id, await writeMessage(api, email.id, wanted, email, options.expectedRevisions?.email, options.check));
      }
      if (renamed && !restored(applied)) {
        await updateCampaign(api, remote.id, { name: local.name });
        recordWritten = true;
      }
      break;
    }
    case 'components': {
      const lmx = local.files.get('component.lmx');
      const body: { name?: string; lmx?: string } = {};
      if (renamed) body.name = local.name;
      // The local files come with the account's ids in their LMX: compared with what the account holds as it holds it.
      if (lmx !== undefined && lmx !== (remote.withIds ?? remote.files).get('component.lmx')) body.lmx = lmx;
      if (Object.keys(body).length > 0) {
        await updateComponent(api, remote.id, body);
        applied.changed = true;
      }
      break;
    }
    case 'themes': {
      const wanted = parseJson(`${local.path}/${META_FILE.themes}`, local.files.get(META_FILE.themes)!, themeMeta);
      const body: { name?: string; styles?: StylesRequest } = {};
      if (renamed) body.name = local.name;
      if (wanted.styles !== undefined && local.files.get(META_FILE.themes) !== remote.files.get(META_FILE.themes)) body.styles = wanted.styles as StylesRequest;
      if (Object.keys(body).length > 0) {
        await updateTheme(api, remote.id, body);
        applied.changed = true;
      }
      break;
    }
  }
  if ((renamed && !restored(applied)) || applied.checked.some((message) => !message.restored)) applied.changed = true;
  const [only] = applied.checked;
  if (!recordWritten && applied.checked.length === 1 && !only!.restored && only!.message !== undefined && remote.messages[only!.prefix] !== undefined)
    applied.answered = withMessage(remote, only!.prefix, only!.message);
  return applied;
}

/** A record with one of its messages as a write's answer gave it: its files as a read would give them, in the account's ids. */
function withMessage(remote: RemoteRecord, prefix: string, message: EmailMessage): RemoteRecord {
  const { withIds, ...record } = remote;
  const files = new Map(withIds ?? remote.files);
  messageFiles(files, prefix, heldOf(message));
  return { ...record, files, messages: { ...remote.messages, [prefix]: message } };
}

/**
 * Guardian's check of what the account holds of a record, for a push that wrote it and stopped
 * before checking: nothing is put back, as what was there before is not known any more.
 */
export async function guardianCheckOf(api: ApiClient, remote: RemoteRecord): Promise<Applied> {
  const written = Object.entries(remote.messages).filter((entry): entry is [string, EmailMessage] => entry[0] !== 'published' && entry[1] !== undefined);
  const reports = await settled(written, ([, message]) => guardianReport(api, message.id));
  return {
    id: remote.id,
    checked: written.map(([prefix, message], index) => ({ prefix, messageId: message.id, report: reports[index], restored: false })),
    changed: true,
  };
}

/** Guardian found errors in a message of the record, which was put back as it was. */
export function restored(applied: Applied): boolean {
  return applied.checked.some((message) => message.restored);
}

function recordMessage(
  applied: Applied,
  prefix: string,
  messageId: string,
  written: { report?: GuardianReport; restored: boolean; message: EmailMessage } | undefined,
): void {
  if (written !== undefined) applied.checked.push({ prefix, messageId, report: written.report, restored: written.restored, message: written.message });
}

/** Creates a record the account does not have yet, from its local files. */
export async function createRecord(api: ApiClient, local: RecordFiles, options: { check: boolean; groupIds?: ReadonlyMap<string, string> }): Promise<Applied> {
  switch (local.kind) {
    case 'transactional': {
      const created = await createTransactional(api, { name: local.name, ...groupField(local, options.groupIds) });
      const applied: Applied = { id: created.id, checked: [], changed: true };
      const wanted = localMessage(local, WRITTEN_MESSAGE.transactional!);
      if (wanted !== undefined && created.draftEmailMessageId !== null) {
        const draft = await getEmailMessage(api, created.draftEmailMessageId);
        recordMessage(applied, 'draft', draft.id, await writeMessage(api, draft.id, wanted, draft, draft.contentRevisionId, options.check));
      }
      return applied;
    }
    case 'components':
      return { id: (await createComponent(api, { name: local.name, lmx: local.files.get('component.lmx') ?? '' })).id, checked: [], changed: true };
    case 'themes': {
      const wanted = parseJson(`${local.path}/${META_FILE.themes}`, local.files.get(META_FILE.themes)!, themeMeta);
      return { id: (await createTheme(api, { name: local.name, styles: wanted.styles as StylesRequest | undefined })).id, checked: [], changed: true };
    }
    case 'campaigns':
      // A campaign is a send to an audience of one account, made in that account: a push's step never creates one (emails/plan.ts).
      throw new Error(`${local.path}: a campaign is never created by a push`);
  }
}

export async function publish(api: ApiClient, id: string): Promise<void> {
  await publishTransactional(api, id);
}
