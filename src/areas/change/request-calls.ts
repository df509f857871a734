/**
 * A plan's call as a command sends it: the request a write command built (`workflow nodes update`,
 * `campaigns update`, `transactional publish`, `groups create`…), held at the transport instead of
 * sent, written down, and sent exactly so by `loopsctl apply`.
 *
 * What guards it against a change made meanwhile: a workflow's calls carry the revision they were
 * planned against (`expectedRevisionId`), which the platform checks itself (a 409); a record whose
 * writes take no revision is read just before the plan is written and again just before the apply
 * sends, and a difference is a conflict, as for components and themes.
 */
import { createHash } from 'node:crypto';
import type { ApiClient } from '../../api/client.js';
import type { HttpRequest } from '../../api/http.js';
import { freshReads } from '../../api/read-cache.js';
import { RejectedError, UsageError } from '../../base/errors.js';
import { targetProblem } from '../../base/request-target.js';
import { z } from '../../base/shapes.js';
import type { WriteGate } from '../../core/gate.js';
import { CONFIGURATION_WRITES, type ConfigurationOperation, type ConfigurationWrite, configurationWrite } from '../../platform/configuration-writes.js';
import type { Operation } from '../../platform/operation-row.js';
import { NOUNS, nounOf, OPERATIONS, RECORD_OPERATIONS } from '../../platform/operations.js';
import { judgeWrite } from '../../platform/write-gate.js';
import { CONTENT_TAKEN, contentTaken } from '../../platform/write-guards.js';
import { heldRequest } from '../../render/dry-run.js';
import { accountHolds } from './account.js';
import type { ImpactContext, ImpactRecord } from './impact/records.js';
import {
  type After,
  type Image,
  type ImagedRecord,
  type ImageEntry,
  imageKind,
  type NamedList,
  StaleRecord,
  type Undone,
  type UnitEntry,
  type UnitKind,
  unitKind,
} from './kinds.js';
import { canonicalJson } from './plan-file.js';

/** The operation of a request call, as a plan file names it. */
export const REQUEST_OP = 'request';

const requestCall = z.looseObject({
  op: z.literal(REQUEST_OP),
  /** The API's operationId of a configuration write, for the reader: what its method and path make (requestProblem). */
  operation: z.enum(Object.keys(CONFIGURATION_WRITES) as [ConfigurationOperation, ...ConfigurationOperation[]]),
  method: z.string(),
  path: z.string(),
  body: z.optional(z.unknown()),
  /** For a write that takes no revision: where the record is read, and the digest of what it held when the plan was made. */
  read: z.optional(z.string()),
  expectedDigest: z.optional(z.string()),
});
export type RequestCall = z.infer<typeof requestCall>;

/** A unit of a command's --plan: one held request, labelled with the record it changes (`recordPath`: where it is read). */
const requestUnitShape = z.looseObject({
  record: z.string(),
  /** The noun of the row its operation is of: `workflow` for an edit of a workflow's node. */
  kind: z.enum(NOUNS),
  id: z.optional(z.string()),
  recordPath: z.optional(z.string()),
  calls: z.array(requestCall).check(z.minLength(1)),
});
export type RequestUnit = z.infer<typeof requestUnitShape>;

/** The record a write changes, by its path: `/v1/campaigns/{campaignId}` of `/v1/campaigns/{campaignId}`, `/v1/workflows/{id}` of a node's edit. */
export function recordPathOf(path: string, operation: string): string | undefined {
  const template = CONFIGURATION_WRITES[operation as keyof typeof CONFIGURATION_WRITES]?.path;
  const end = template?.indexOf('}');
  if (template === undefined || end === undefined || end < 0) return undefined;
  const depth = template.slice(0, end + 1).split('/').length;
  return path.split('?')[0]!.split('/').slice(0, depth).join('/');
}

export function digestOfAnswer(answer: unknown): string {
  return createHash('sha256').update(canonicalJson(answer)).digest('hex');
}

export async function readRecord(client: ApiClient, path: string): Promise<unknown> {
  return client.call({ method: 'GET', idempotent: true, path }, z.unknown());
}

/**
 * The digest a write's guard compares: of its record as the API answers for it, and, for a write
 * that takes the content of another (a publish, its draft: platform/write-guards.ts), of that too.
 */
async function guardDigest(client: ApiClient, operation: string, path: string): Promise<string> {
  const record = await readRecord(client, path);
  const taken = contentTaken(operation, record);
  if (taken.length === 0) return digestOfAnswer(record);
  return digestOfAnswer([record, ...(await Promise.all(taken.map((each) => readRecord(client, each))))]);
}

/**
 * The plan's unit for one write a command would have sent: the request as built, and, unless it
 * carries a revision, the digest of the record it changes as read now.
 */
export async function requestUnit(client: ApiClient, req: HttpRequest): Promise<RequestUnit> {
  const held = heldRequest(req);
  const write = configurationWrite(req.method, held.path!, held.body);
  if (write === undefined) {
    throw new UsageError(`${req.method} ${req.path} is not a change a plan file holds`, { hint: 'run the command without --plan' });
  }
  const body = held.body as { expectedRevisionId?: unknown } | null;
  const record = recordPathOf(held.path!, write.operation);
  const call: RequestCall = { op: REQUEST_OP, operation: write.operation, method: held.method, path: held.path!, body: held.body };
  if (record !== undefined && (body === null || typeof body !== 'object' || !('expectedRevisionId' in body))) {
    call.read = record;
    call.expectedDigest = await guardDigest(client, write.operation, record);
  }
  // The record the path names first (a node's workflow), which the account must hold; the report names every id of the path.
  const id = Object.values(write.ids)[0];
  return {
    record: unitLabel(write, held.body),
    kind: nounOf(write.operation)!,
    ...(id === undefined ? {} : { id, recordPath: record }),
    calls: [call],
  };
}

/** What a report names the record of a write by: its kind and every id of its path, or, for a create, its kind and name. */
export function unitLabel(write: ConfigurationWrite, body: unknown): string {
  const ids = Object.values(write.ids);
  if (ids.length > 0) return `${write.kind} ${ids.join('/')}`;
  const name = (body as { name?: unknown } | null)?.name;
  return `${write.kind}${typeof name === 'string' ? ` "${name}"` : ''}`;
}

/** Sends a request call as planned; a workflow change the API held back for queued contacts is refused, as a plan never discards them. */
export async function playRequest(client: ApiClient, call: RequestCall): Promise<{ id?: string }> {
  if (call.read !== undefined && (await guardDigest(freshReads(client), call.operation, call.read)) !== call.expectedDigest) {
    throw new StaleRecord();
  }
  const answer = await client.call(
    { method: call.method as HttpRequest['method'], idempotent: false, path: call.path, ...(call.body === null ? {} : { body: call.body }) },
    z.unknown(),
  );
  const status = (answer as { status?: unknown } | null)?.status;
  if (status === 'queuedContactsFound' || status === 'dryRun') {
    const count = (answer as { queuedContactCount?: unknown }).queuedContactCount;
    throw Object.assign(
      new RejectedError(`the account held the change back: ${String(count)} contacts are queued where it removes them, and a plan never discards them`, {
        status: 409,
      }),
      { beforeAnyWrite: true },
    );
  }
  const id = (answer as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? { id } : {};
}

/** The ids a record's row's path or body names a record by (`campaignId`, `emailMessageId`, `mailingListId`…): a body field of one of these names a record. */
const RECORD_FIELDS: ReadonlySet<string> = new Set(
  Object.values(RECORD_OPERATIONS).flatMap(({ path, bodyIds }) => [
    ...[...path.matchAll(/\{(\w+)\}/g)].map((found) => found[1]!),
    ...Object.keys(bodyIds ?? {}).map((field) => field.split('.').pop()!),
  ]),
);

/**
 * A body field naming a record, at any depth, that its operation does not say its body carries
 * (its row's `bodyIds`: a group, a list, a segment it refers to) and whose id is not among `own`
 * (the ids of its path), as `field=id`; undefined when there is none.
 */
function foreignRecordField(body: unknown, operation: string, own: readonly string[]): string | undefined {
  const carried = (OPERATIONS as Record<string, Operation>)[operation]?.bodyIds ?? {};
  const stack: [string, unknown][] = [['', body]];
  while (stack.length > 0) {
    const [where, value] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const [field, item] of Object.entries(value)) {
      const at = Array.isArray(value) ? where : where === '' ? field : `${where}.${field}`;
      if (RECORD_FIELDS.has(field) && carried[at] === undefined && !own.includes(item as string)) return `${field}=${JSON.stringify(item)}`;
      stack.push([at, item]);
    }
  }
  return undefined;
}

/**
 * A unit of request calls (`--plan` of a write command): one configuration write, of the unit's
 * kind, record and name, to a path sent as written, guarded by a read of that record (or its
 * revision), naming no other record in its body, and asking no dry run.
 */
function requestProblem(unit: RequestUnit): string | undefined {
  if (unit.calls.length !== 1) return 'more than one request in a unit';
  const call = unit.calls[0]!;
  if (!('body' in call)) return 'the call holds no body (a plan writes null for a request without one)';
  const sent = targetProblem(call.path, true);
  if (sent !== undefined) return `${call.method} ${call.path} is not sent as written: ${sent}`;
  const write = configurationWrite(call.method, call.path, call.body);
  if (write === undefined) return `${call.method} ${call.path} is not a configuration write`;
  if (write.operation !== call.operation) return `${call.method} ${call.path} is ${write.operation}, not ${call.operation}`;
  const ids = Object.values(write.ids);
  const label = unitLabel(write, call.body);
  if (unit.kind !== nounOf(write.operation) || unit.id !== ids[0] || unit.record !== label)
    return `${call.method} ${call.path} changes ${label}, and the unit names ${unit.record}`;
  const body = call.body as { expectedRevisionId?: unknown; dryRun?: unknown } | null | undefined;
  if (typeof body === 'object' && body !== null && 'dryRun' in body) return `${call.operation} asks for a dry run, which no plan holds`;
  const foreign = foreignRecordField(call.body, write.operation, ids);
  if (foreign !== undefined) return `${call.operation} of ${label} names another record in its body (${foreign})`;
  const record = recordPathOf(call.path, write.operation);
  if (unit.recordPath !== record)
    return record === undefined
      ? 'a unit that creates a record reads none'
      : `the unit reads ${unit.recordPath ?? 'no record'}, not the record its call changes (${record})`;
  const guarded = typeof body === 'object' && body !== null && 'expectedRevisionId' in body;
  if (record !== undefined && !guarded && (call.read === undefined || call.expectedDigest === undefined))
    return `${call.operation} of ${label} takes no revision, and the call is guarded by no read of its record`;
  if (call.read !== undefined && call.read !== record) return `the call is guarded by ${call.read}, not the record it changes`;
  return undefined;
}

/** A record as the API answers for it, read where the plan's write guard reads it. */
interface AnswerImage extends Image {
  type: 'answer';
  path: string;
  answer: unknown;
}

/** A held write as a resource's impact reads it: the record's label, the ids its path names, and its body. */
export interface HeldWrite {
  record: string;
  ids: Partial<Record<string, string>>;
  body: Record<string, unknown>;
}

/** What one write of a resource does to people and to the app, from the request a command held. */
export type WriteImpact = (client: ApiClient, write: HeldWrite, context: ImpactContext) => Promise<ImpactRecord[]>;

/** What a resource brings to the held requests of its commands, by the API's operationId. */
export interface ResourceKind {
  /** The list each of its creates is matched against by name, just before it is sent. */
  creates?: Partial<Record<string, NamedList>>;
  /** What each of its writes does to people and to the app (a workflow's dry run, a campaign's audience). */
  impacts?: Partial<Record<string, WriteImpact>>;
  /** Its updates whose before-image, the API's answer, holds every field they send: each is undone by the same update with the fields as they were. */
  inverts?: readonly string[];
}

/** The list each create of the resources is matched against by name, by the create's operationId. */
export function createLists(resources: readonly ResourceKind[]): NonNullable<ResourceKind['creates']> {
  return Object.assign({}, ...resources.map((resource) => resource.creates ?? {}));
}

/** A held request of a write command (`groups update --plan`), played as it was built, with what each resource brings to it. */
export function requestKind(resources: readonly ResourceKind[]): UnitEntry {
  const creates = createLists(resources);
  const impacts = Object.assign({}, ...resources.map((resource) => resource.impacts ?? {})) as NonNullable<ResourceKind['impacts']>;
  return unitKind<RequestUnit>({
    ...REQUEST_UNITS,
    namesakes: (unit) => requestNamesakes(creates, unit),
    impact: (client, unit, context) => requestImpact(impacts, client, unit, context),
  });
}

/** The record a held create makes, matched by name against its kind's list. */
function requestNamesakes(creates: NonNullable<ResourceKind['creates']>, unit: RequestUnit) {
  const call = unit.calls[0]!;
  const list = creates[call.operation];
  const name = (call.body as { name?: unknown } | null | undefined)?.name;
  return list === undefined || typeof name !== 'string' ? undefined : { list, noun: unit.kind, name };
}

/** The impact of each held request, by its resource's operation: none for a write that has none to show. */
async function requestImpact(impacts: NonNullable<ResourceKind['impacts']>, client: ApiClient, unit: RequestUnit, context: ImpactContext) {
  const records: ImpactRecord[] = [];
  for (const call of unit.calls) {
    const write = configurationWrite(call.method, call.path, call.body);
    const impact = write === undefined ? undefined : impacts[write.operation];
    if (write !== undefined && impact !== undefined)
      records.push(...(await impact(client, { record: unit.record, ids: write.ids, body: (call.body ?? {}) as Record<string, unknown> }, context)));
  }
  return records;
}

/** What a held request is, whichever resource it writes. */
const REQUEST_UNITS = {
  holds: (unit: { calls: readonly { op: string }[] }) => unit.calls.some((call) => call.op === REQUEST_OP),
  shape: requestUnitShape,
  problem: requestProblem,
  exists: async (client: ApiClient, unit: RequestUnit) => (unit.recordPath === undefined ? undefined : accountHolds(client, unit.recordPath)),
  stale: (unit) => {
    const taken = CONTENT_TAKEN[unit.calls[0]!.operation];
    return `${unit.recordPath ?? unit.record}${taken === undefined ? '' : ` or ${taken}`} changed in the account since the plan was made`;
  },
  // The record its request changes, when the request is one whose reach depends on it (an edit of a workflow, a message, a campaign's audience).
  live: async (gate: WriteGate, unit) => {
    for (const call of unit.calls) {
      const judged = judgeWrite(call.method, call.path, call.body);
      const why = judged.needs === 'live' ? await gate.live(judged.target) : undefined;
      if (why !== undefined) return why;
    }
    return undefined;
  },
  needsYes: async (gate: WriteGate, unit) => {
    for (const call of unit.calls) {
      const does = await gate.needsYes(call.method, call.path, call.body);
      if (does !== undefined) return does;
    }
    return undefined;
  },
  creates: (unit) => unit.calls[0]!.operation.startsWith('create'),
  play: (client, unit) => unit.calls.map((call) => () => playRequest(client, call)),
  // A write to a part of a record another kind images whole (a workflow's node: the workflow), or the record as the API answers.
  imager: (client, others) => async (unit) => {
    const whole = others(unit.kind);
    if (whole !== undefined) return whole(unit.id);
    const path = unit.recordPath!;
    const image: AnswerImage = { type: 'answer', path, answer: await readRecord(client, path) };
    return image;
  },
} satisfies Omit<UnitKind<RequestUnit>, 'namesakes' | 'impact'>;

/** A record's fields put back as the API answered them before, by an update its resource says inverts (`invertible`: each resource's `inverts`). */
function answerInverse(record: ImagedRecord, before: AnswerImage, after: After, imageFile: string, invertible: ReadonlySet<string>): Undone {
  // Its call alone: the unit's kind is named again from the call's operation, whatever vocabulary the kept unit spoke.
  const calls = z.array(requestCall).safeParse(record.unit.calls);
  const call = calls.success ? calls.data[0] : undefined;
  const fields = Object.keys((call?.body ?? {}) as Record<string, unknown>).filter((field) => field !== 'expectedRevisionId');
  const was = before.answer as Record<string, unknown>;
  const missing = fields.filter((field) => !Object.hasOwn(was, field));
  if (call === undefined || !invertible.has(call.operation) || missing.length > 0) {
    return {
      notUndone: {
        record: record.record,
        why:
          call !== undefined && missing.length > 0 && invertible.has(call.operation)
            ? `the API's answer for it does not show ${missing.join(', ')} as they were, so they cannot be sent back`
            : `${call?.operation ?? 'its call'} cannot be taken back through the API`,
        hint: `what it held before is kept in ${imageFile}: set it again in the Loops app`,
      },
    };
  }
  const inverse: RequestCall = {
    op: REQUEST_OP,
    operation: call.operation,
    method: call.method,
    path: call.path,
    body: Object.fromEntries(fields.map((field) => [field, was[field]])),
    read: before.path,
    expectedDigest: after.digest!,
  };
  return { unit: { record: record.record, kind: nounOf(call.operation)!, id: record.id, recordPath: before.path, calls: [inverse] } };
}

/** The image of a record a held request changes, as the API answers for it, put back by the updates each resource says invert. */
export function answerImages(resources: readonly ResourceKind[]): ImageEntry {
  const invertible = new Set(resources.flatMap((resource) => resource.inverts ?? []));
  return imageKind<AnswerImage>({
    is: (image): image is AnswerImage => image.type === 'answer',
    whereNow: async (client, image) => ({ digest: digestOfAnswer(await readRecord(client, image.path)) }),
    undoer: (_client, imageFile) => async (record, image, after) => answerInverse(record, image, after, imageFile, invertible),
  });
}
