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
import { NotFoundError, RejectedError, UsageError } from '../../base/errors.js';
import { z } from '../../base/shapes.js';
import { CONFIGURATION_WRITES, type ConfigurationWrite, configurationWrite } from '../../platform/configuration-writes.js';
import { heldRequest } from '../../render/dry-run.js';
import { canonicalJson, type PlannedCall, type PlannedUnit } from './plan-file.js';

/** The operation of a request call, as a plan file names it. */
export const REQUEST_OP = 'request';

export interface RequestCall extends PlannedCall {
  op: typeof REQUEST_OP;
  /** The API's operationId, for the reader. */
  operation: string;
  method: string;
  path: string;
  body: unknown;
  /** For a write that takes no revision: where the record is read, and the digest of what it held when the plan was made. */
  read?: string;
  expectedDigest?: string;
}

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

/** Whether the account holds the record a request call changes: one it answers 404 for is another account's. */
export async function requestRecordExists(client: ApiClient, path: string): Promise<boolean> {
  try {
    await readRecord(client, path);
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/**
 * The plan's unit for one write a command would have sent: the request as built, and, unless it
 * carries a revision, the digest of the record it changes as read now.
 */
export async function requestUnit(client: ApiClient, req: HttpRequest): Promise<PlannedUnit> {
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
    call.expectedDigest = digestOfAnswer(await readRecord(client, record));
  }
  // The record the path names first (a node's workflow), which the account must hold; the report names every id of the path.
  const id = Object.values(write.ids)[0];
  return {
    record: unitLabel(write, held.body),
    kind: write.kind,
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

/** A conflict found before the call was sent: nothing of it was. */
export function conflictBeforeSending(message: string): RejectedError {
  return Object.assign(new RejectedError(message, { status: 409 }), { beforeAnyWrite: true });
}

/** Sends a request call as planned; a workflow change the API held back for queued contacts is refused, as a plan never discards them. */
export async function playRequest(client: ApiClient, call: RequestCall): Promise<{ id?: string }> {
  if (call.read !== undefined && digestOfAnswer(await readRecord(client, call.read)) !== call.expectedDigest) {
    throw conflictBeforeSending(`${call.read} changed in the account since the plan was made`);
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
