/**
 * What the sandbox keeps of sends: an outbox (emails and events are delivered nowhere; `loopsctl
 * sandbox outbox` shows them) and the idempotency keys of the last 24 hours, which the API uses to
 * refuse a second send under one key.
 */
import { createHash } from 'node:crypto';
import { z } from '../../base/shapes.js';
import { badRequest, conflict, type KeptRows, type RouteContext, type RowKind, rowStoreOf, type SandboxModule, type StateCore, slice } from '../module.js';

const attachmentSummary = z.object({ filename: z.string(), contentType: z.string(), bytes: z.number() });

const transactionalEntry = z.object({
  kind: z.literal('transactional'),
  at: z.string(),
  idempotencyKey: z.nullable(z.string()),
  to: z.string(),
  transactionalId: z.string(),
  name: z.string(),
  addToAudience: z.boolean(),
  dataVariables: z.record(z.string(), z.unknown()),
  /** The email's optional data variables the send left out (a required one makes it 400), and the ones it gave that the email does not use. */
  missingVariables: z.array(z.string()),
  unknownVariables: z.array(z.string()),
  attachments: z.array(attachmentSummary),
  /** The published email message sent (what the inbox draws), and the email's id in the webhooks it caused; absent in outboxes of older versions. */
  emailMessageId: z.optional(z.string()),
  emailId: z.optional(z.string()),
});

/** An email a workflow sent at once for an event: its message, and the contact's values as they were, which it was drawn with. */
const workflowEmailEntry = z.object({
  loopId: z.string(),
  loopName: z.string(),
  emailMessageId: z.string(),
  subject: z.string(),
  emailId: z.optional(z.string()),
  contact: z.record(z.string(), z.unknown()),
  /** The journey that sent it: the email is then also an entry of its own (kind workflow), which the inbox draws. */
  journeyId: z.optional(z.string()),
});

/** An email a workflow sent, at once or when a wait ended: its journey, its message, and the values it was drawn with. */
const workflowEntry = z.object({
  kind: z.literal('workflow'),
  at: z.string(),
  to: z.string(),
  loopId: z.string(),
  loopName: z.string(),
  nodeId: z.string(),
  journeyId: z.string(),
  emailMessageId: z.string(),
  subject: z.string(),
  emailId: z.optional(z.string()),
  contact: z.record(z.string(), z.unknown()),
  eventProperties: z.record(z.string(), z.unknown()),
  /** When its simulated engagement happens (with `--simulate-engagement`): what activity conditions on opens and clicks read. */
  engagement: z.optional(z.object({ deliveredAt: z.optional(z.string()), openedAt: z.optional(z.string()), clickedAt: z.optional(z.string()) })),
});

const eventEntry = z.object({
  kind: z.literal('event'),
  at: z.string(),
  idempotencyKey: z.nullable(z.string()),
  eventName: z.string(),
  email: z.string(),
  userId: z.nullable(z.string()),
  eventProperties: z.record(z.string(), z.unknown()),
  /** The workflows whose EventTrigger waits for this event. */
  workflows: z.array(z.object({ id: z.string(), name: z.string(), status: z.string() })),
  /** The emails those workflows sent the contact at once; absent in outboxes of older versions. */
  emails: z.optional(z.array(workflowEmailEntry)),
});

export const outboxEntry = z.discriminatedUnion('kind', [transactionalEntry, eventEntry, workflowEntry]);
export type OutboxEntry = z.infer<typeof outboxEntry>;
export type TransactionalOutboxEntry = z.infer<typeof transactionalEntry>;
export type EventOutboxEntry = z.infer<typeof eventEntry>;
export type WorkflowOutboxEntry = z.infer<typeof workflowEntry>;
export type WorkflowEmailEntry = z.infer<typeof workflowEmailEntry>;

export const outbox = slice('outbox', z.array(outboxEntry), () => []);

/** The outbox as a state file keeps it: an entry a row, a workflow's email found by the journey that sent it and by its recipient (state/rows.ts). */
const outboxRows: RowKind<OutboxEntry> = { key: outbox.key, check: (row) => outboxEntry.parse(row) };

function keptOutbox(state: StateCore): KeptRows<OutboxEntry> | undefined {
  const rows = rowStoreOf(state)?.rows(outboxRows);
  return rows !== undefined && !rows.loaded() ? rows : undefined;
}

/** Puts an entry in the outbox: in a state file, one row more, the others left unread. */
export function sendToOutbox(state: StateCore, entry: OutboxEntry): void {
  const rows = keptOutbox(state);
  if (rows !== undefined) rows.add(entry);
  else outbox.of(state).push(entry);
}

/**
 * The entries that may be workflow emails a contact was sent (a superset, in no set order): those
 * its journeys sent, and those to its address; the whole outbox for a state in memory.
 */
export function outboxEntriesFor(state: StateCore, journeyIds: string[], email: string): OutboxEntry[] {
  const rows = keptOutbox(state);
  if (rows === undefined) return outbox.of(state);
  const found = new Set<OutboxEntry>();
  for (const journeyId of journeyIds) for (const entry of rows.allByKey(0, journeyId)) found.add(entry);
  for (const entry of rows.allByKey(1, email.toLowerCase())) found.add(entry);
  return [...found];
}

const usedKey = z.object({ key: z.string(), operation: z.string(), bodyDigest: z.string(), at: z.string() });
export const idempotencyKeys = slice('idempotencyKeys', z.array(usedKey), () => []);

const KEY_LIFETIME_MS = 24 * 3_600_000;
const MAX_KEY_LENGTH = 100;

export interface KeyClaim {
  key: string | null;
  /** Records the key as used; called once the send has succeeded, so a refused send uses no key. */
  remember(): void;
}

/**
 * Checks the request's Idempotency-Key for this operation, refusing it with 409 when it was used
 * in the last 24 hours (the message says whether the body was the same). A request without one is
 * let through, as the API does.
 */
export function claimIdempotencyKey(context: RouteContext, operation: string): KeyClaim {
  const key = context.headers['idempotency-key'];
  if (key === undefined) return { key: null, remember: () => {} };
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw badRequest(`The Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`);
  const now = context.now().getTime();
  const keys = idempotencyKeys.of(context.state);
  // Keys older than a day are forgotten, so the list stays as short as a day's sends.
  const fresh = keys.filter((used) => now - Date.parse(used.at) < KEY_LIFETIME_MS);
  if (fresh.length !== keys.length) keys.splice(0, keys.length, ...fresh);
  const bodyDigest = createHash('sha256')
    .update(JSON.stringify(context.body ?? null))
    .digest('hex');
  const earlier = keys.find((used) => used.key === key && used.operation === operation);
  if (earlier !== undefined) {
    throw conflict(
      earlier.bodyDigest === bodyDigest ? 'Idempotency key has already been used.' : 'Idempotency key already used with a different request body.',
    );
  }
  return { key, remember: () => void keys.push({ key, operation, bodyDigest, at: context.now().toISOString() }) };
}

export const sandbox: SandboxModule = { slices: [outbox, idempotencyKeys], routes: [] };
