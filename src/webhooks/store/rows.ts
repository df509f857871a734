/**
 * A delivery as the store writes its row and reads it back: the values of its INSERT, with the
 * facts of its body the journal is searched by, and a row of the journal as a StoredDelivery.
 */
import type { DeliveryOutcome, ReceivedDelivery } from '../delivery-store.js';
import type { Row } from './sql.js';

/** Where a delivery stands with one forwarding target. */
export interface ForwardState {
  readonly target: string;
  readonly webhookId: string;
  readonly enqueuedAt: Date;
  readonly attempts: number;
  readonly lastAt: Date | null;
  /** The target's last status, or null when it did not answer (see lastError). */
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  /** When it is due again; null once done, or given up. */
  readonly nextAt: Date | null;
  /** When the target accepted it (2xx). */
  readonly doneAt: Date | null;
}

/** A delivery as the journal keeps it. */
export interface StoredDelivery extends ReceivedDelivery {
  readonly eventName: string | null;
  /** The event's time (eventTime), else when it arrived. */
  readonly eventAt: Date;
  /** contactIdentity.email, in lower case. */
  readonly recipient: string | null;
  readonly emailId: string | null;
  readonly contactId: string | null;
  /** The handler's outcome; null while none was kept. */
  readonly outcome: DeliveryOutcome | null;
  readonly settledAt: Date | null;
  /** With a `target` filter: where the delivery stands with that target. */
  readonly forward?: ForwardState;
}

/** A delivery's values in the order of its INSERT (DELIVERY_COLUMNS, statements.ts), claimed at `claimedAt` when not null. */
export function insertValues(delivery: ReceivedDelivery, claimedAt: number | null): unknown[] {
  const facts = factsOf(delivery.parsed ?? parsedBody(delivery.body));
  const received = delivery.receivedAt.getTime();
  return [
    delivery.webhookId,
    received,
    facts.eventTime === null ? received : facts.eventTime * 1000,
    facts.eventName,
    facts.recipient,
    facts.emailId,
    facts.contactId,
    JSON.stringify(delivery.headers),
    delivery.body,
    delivery.verified ? 1 : 0,
    claimedAt,
  ];
}

/** A body as JSON, or an empty object where it is not a JSON object: kept as received, with nothing to search it by. */
function parsedBody(body: string): object {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {}
  return {};
}

/** The facts of a body the journal is searched by; nulls where the body does not say. */
function factsOf(parsed: object): {
  eventName: string | null;
  eventTime: number | null;
  recipient: string | null;
  emailId: string | null;
  contactId: string | null;
} {
  const event = parsed as Readonly<Record<string, unknown>>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const identity = (event.contactIdentity ?? {}) as Record<string, unknown>;
  const email = (event.email ?? {}) as Record<string, unknown>;
  const time = event.eventTime;
  return {
    eventName: text(event.eventName),
    eventTime: typeof time === 'number' && Number.isSafeInteger(time) ? time : null,
    recipient: text(identity.email)?.toLowerCase() ?? null,
    emailId: text(email.id),
    contactId: text(identity.id),
  };
}

const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : new Date(Number(value)));

/** A row of the journal (with its forward's columns when `withForward`) as a StoredDelivery. */
export function storedDelivery(row: Row, withForward: boolean): StoredDelivery {
  const outcome: DeliveryOutcome | null =
    row.outcome === 'handled' ? { state: 'handled' } : row.outcome === 'failed' ? { state: 'failed', error: String(row.error ?? '') } : null;
  return {
    webhookId: String(row.webhook_id),
    receivedAt: new Date(Number(row.received_at)),
    headers: JSON.parse(String(row.headers)) as Record<string, string>,
    body: String(row.body),
    verified: Number(row.verified) === 1,
    eventName: (row.event_name as string | null) ?? null,
    eventAt: new Date(Number(row.event_at)),
    recipient: (row.recipient as string | null) ?? null,
    emailId: (row.email_id as string | null) ?? null,
    contactId: (row.contact_id as string | null) ?? null,
    outcome,
    settledAt: dateOrNull(row.settled_at),
    ...(withForward ? { forward: forwardState(row) } : {}),
  };
}

/** A forward's row (loopsctl_webhook_forwards) as a ForwardState. */
export function forwardState(row: Row): ForwardState {
  return {
    target: String(row.target),
    webhookId: String(row.webhook_id),
    enqueuedAt: new Date(Number(row.enqueued_at)),
    attempts: Number(row.attempts),
    lastAt: dateOrNull(row.last_at),
    lastStatus: row.last_status === null || row.last_status === undefined ? null : Number(row.last_status),
    lastError: (row.last_error as string | null) ?? null,
    nextAt: dateOrNull(row.next_at),
    doneAt: dateOrNull(row.done_at),
  };
}
