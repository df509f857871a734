/**
 * What each record of a plan held just before the plan was applied, read from the account and
 * kept privately beside the journal (src/config/before-images.ts): a workflow as a pull writes it
 * (its graph and its emails), an email's record as a pull writes it (LMX and fields), a group's or
 * a campaign's fields as the API answers them. Once the apply is done, the revision (or the digest)
 * each record was left at is added, so that `loopsctl undo` is refused when the record changed again.
 */
import type { ApiClient } from '../../api/client.js';
import { keepImage, newImageId } from '../../config/before-images.js';
import type { Uses } from '../../core/capabilities.js';
import { getWorkflow } from '../workflows/client.js';
import type { AccountWhere } from '../change/account.js';
import { digestOf, type Kind } from './files.js';
import type { PlannedUnit } from '../change/plan-file.js';
import type { Step } from './emails/plan.js';
import type { WorkflowSide } from './workflows/sides.js';
import { fetchRecord } from './emails/remote.js';
import { assignKeys, fetchNames, fetchWorkflow, workflowFilesOf, type AccountNames } from './workflows/remote.js';
import { digestOfAnswer, readRecord, type RequestCall } from '../change/request-calls.js';

export const IMAGES_FORMAT = 1;

export type Image =
  /** A workflow as a pull writes it, with the id of each node by its key. */
  | { type: 'workflow'; workflowId: string; name: string; revision: string | null; files: Record<string, string>; keys: Record<string, string> }
  /** An email, component or theme as a pull writes it. */
  | { type: 'record'; kind: Kind; name: string; files: Record<string, string> }
  /** A record as the API answers for it, read where the plan's write guard reads it. */
  | { type: 'answer'; path: string; answer: unknown }
  /** A record the plan creates: there was none. */
  | { type: 'created' };

/** Where the apply left a record: the revision (a workflow's, an email message's by its prefix) or the digest of what it holds. */
export interface After {
  revision?: string | null;
  messages?: Record<string, string | null>;
  digest?: string;
}

export interface ImagedRecord {
  record: string;
  kind: string;
  id?: string;
  /** The plan's unit, as applied. */
  unit: PlannedUnit;
  before: Image;
  after?: After;
}

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

const WORKFLOW_KINDS = new Set(['workflows', 'workflow', 'workflow node']);

/** The kind of image a unit of a plan needs. */
function imageKind(unit: PlannedUnit): 'workflow' | 'record' | 'answer' | 'created' {
  if (unit.id === undefined) return 'created';
  if (WORKFLOW_KINDS.has(unit.kind)) return 'workflow';
  return unit.calls[0]?.op === 'request' ? 'answer' : 'record';
}

async function imageOf(client: ApiClient, unit: PlannedUnit, names: () => Promise<AccountNames>): Promise<Image> {
  switch (imageKind(unit)) {
    case 'created':
      return { type: 'created' };
    case 'workflow': {
      const remote = await fetchWorkflow(client, unit.id!);
      const known = await names();
      const keys = assignKeys(remote, {}, known);
      const files = Object.fromEntries(workflowFilesOf(remote, keys, known));
      return {
        type: 'workflow',
        workflowId: remote.id,
        name: remote.name,
        revision: remote.revision,
        files,
        keys: Object.fromEntries([...keys].map(([id, key]) => [key, id])),
      };
    }
    case 'answer': {
      const path = unit.recordPath as string;
      return { type: 'answer', path, answer: await readRecord(client, path) };
    }
    case 'record': {
      const remote = await fetchRecord(client, unit.kind as Kind, unit.id!);
      if (remote === undefined) return { type: 'created' };
      return { type: 'record', kind: remote.kind, name: remote.name, files: Object.fromEntries(remote.files) };
    }
  }
}

/** Where a record is now: what `undo` compares with where the apply left it. */
export async function whereNow(client: ApiClient, image: Image, id: string | undefined): Promise<After | undefined> {
  switch (image.type) {
    case 'created':
      return {};
    case 'workflow':
      return { revision: (await getWorkflow(client, image.workflowId)).workflowRevisionId ?? null };
    case 'answer':
      return { digest: digestOfAnswer(await readRecord(client, image.path)) };
    case 'record': {
      const remote = await fetchRecord(client, image.kind, id!);
      if (remote === undefined) return undefined;
      const messages = Object.fromEntries(Object.entries(remote.messages).map(([prefix, message]) => [prefix, message?.contentRevisionId ?? null]));
      return { digest: digestOf(remote.files), messages };
    }
  }
}

/** What `apply` and `content push` do with the before-images they keep: settle each record done with where it was left. */
export interface KeptImages {
  id: string;
  /**
   * Where a record's own write left it, read as soon as its calls are done: what `undo` compares
   * with, so that a change made by someone else while the rest of the change was applied is a
   * conflict, never overwritten.
   */
  reached: (done: { record: string; id?: string }) => Promise<void>;
  /** By the record's path in the plan (`workflows/…`, `groups …`), with the id of one it created. */
  settle: (done: { record: string; id?: string }[]) => Promise<void>;
}

export type Header = { command: string; account: AccountWhere; plan?: { file: string; digest: string } };

/** Reads and keeps the before-image of every record the units change, before the first is sent. */
export async function keepBeforeImages(context: Uses<'config' | 'clock'>, client: ApiClient, header: Header, units: PlannedUnit[]): Promise<KeptImages> {
  let names: Promise<AccountNames> | undefined;
  const lazyNames = () => {
    names ??= fetchNames(client);
    return names;
  };
  const records: ImagedRecord[] = [];
  for (const unit of units) {
    const before = await imageOf(client, unit, lazyNames);
    records.push({ record: unit.record, kind: unit.kind, ...(unit.id === undefined ? {} : { id: unit.id }), unit, before });
  }
  return storeImages(context, client, header, records);
}

/** The records a push writes, as it read them just before: kept with no read more. */
export function keepPushImages(context: Uses<'config' | 'clock'>, client: ApiClient, header: Header, steps: Step[]): KeptImages | undefined {
  const records = steps
    .filter((step) => step.action !== 'skip')
    .map((step): ImagedRecord => {
      const local = step.pair.local!;
      const remote = step.pair.remote;
      const unit: PlannedUnit = { record: local.path, kind: local.kind, ...(remote === undefined ? {} : { id: remote.id }), calls: [] };
      // As the account holds it, its own ids in its LMX where the push read it in the tree's names: what an undo puts back.
      const before: Image =
        step.action === 'create' || remote === undefined
          ? { type: 'created' }
          : { type: 'record', kind: remote.kind, name: remote.name, files: Object.fromEntries(remote.withIds ?? remote.files) };
      return { record: local.path, kind: local.kind, ...(remote === undefined ? {} : { id: remote.id }), unit, before };
    });
  return records.length === 0 ? undefined : storeImages(context, client, header, records);
}

/** The workflows a push changes, as it read them just before (a pull's files of each): kept with no read more. */
export function keepWorkflowPushImages(context: Uses<'config' | 'clock'>, client: ApiClient, header: Header, sides: WorkflowSide[]): KeptImages | undefined {
  const records = sides.flatMap((side): ImagedRecord[] => {
    const remote = side.remote;
    if (remote === undefined || side.account === undefined) return [];
    const unit: PlannedUnit = { record: side.path, kind: 'workflows', id: remote.id, calls: [] };
    const keys = Object.fromEntries([...side.account.keys].map(([id, key]) => [key, id]));
    // As the account holds it, its emails' LMX with its own ids: what an undo puts back.
    const files = Object.fromEntries(side.account.withIds ?? side.account.files);
    return [
      {
        record: side.path,
        kind: 'workflows',
        id: remote.id,
        unit,
        before: { type: 'workflow', workflowId: remote.id, name: remote.name, revision: remote.revision, files, keys },
      },
    ];
  });
  return records.length === 0 ? undefined : storeImages(context, client, header, records);
}

function storeImages(context: Uses<'config' | 'clock'>, client: ApiClient, header: Header, records: ImagedRecord[]): KeptImages {
  const now = context.runtime.now();
  const images: BeforeImages = { format: IMAGES_FORMAT, id: newImageId(now), at: now.toISOString(), ...header, records };
  keepImage(context.configDir, images.id, images);
  const idOf = (record: ImagedRecord, outcome: { id?: string }) => (record.id === undefined && outcome.id !== undefined ? { id: outcome.id } : {});
  const reached = new Map<string, After | undefined>();
  return {
    id: images.id,
    reached: async (done) => {
      const record = records.find((each) => each.record === done.record);
      if (record !== undefined) reached.set(record.record, await whereNow(client, record.before, record.id ?? done.id));
    },
    settle: async (done) => {
      // Only what was done is kept to undo: a record the change never reached was not changed.
      images.records = records.flatMap((record) => {
        const outcome = done.find((each) => each.record === record.record);
        return outcome === undefined ? [] : [{ ...record, ...idOf(record, outcome) }];
      });
      for (const record of images.records)
        record.after = reached.has(record.record) ? reached.get(record.record) : await whereNow(client, record.before, record.id);
      keepImage(context.configDir, images.id, images);
    },
  };
}

/** The kept images of a request call's record: what its undo reads. */
export function requestCallOf(unit: PlannedUnit): RequestCall | undefined {
  const call = unit.calls[0];
  return call?.op === 'request' ? (call as RequestCall) : undefined;
}
