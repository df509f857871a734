/**
 * What a webhook handler and the terminal's `webhooks listen` ask of a delivery store: the one
 * contract the library's stores (SQLite, PostgreSQL) keep and the CLI reads.
 */

/** A delivery as it arrived, before it is handled. */
export interface ReceivedDelivery {
  readonly webhookId: string;
  readonly receivedAt: Date;
  /** The request's headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The raw body, as received. */
  readonly body: string;
  readonly verified: boolean;
  /** The body as JSON.parse read it, when the caller has parsed it already: the store reads its facts from it, not parsing it again. */
  readonly parsed?: object;
}

/** What a handler did with a delivery. */
export type DeliveryOutcome = { readonly state: 'handled' } | { readonly state: 'failed'; readonly error: string };

/**
 * Where a delivery stands when a handler asks to claim it: `claimed`, its to handle (new, released
 * after a failure, or left unsettled past its lease by a process that stopped); `handled` already;
 * or `held` by another handler that has not settled it and whose lease still runs.
 */
export type ClaimState = 'claimed' | 'handled' | 'held';

/**
 * What a webhook handler asks of a delivery store; `openDeliveryStore` returns one. Two commits a
 * delivery: the claim before the app's handler runs, the outcome after.
 */
export interface DeliveryJournal {
  /**
   * Keeps the delivery in the journal, unless it was kept already (a redelivery), and claims it, in
   * one commit: `claimed` for one handler at a time, across processes and restarts, and never once
   * the delivery was handled.
   */
  claim(delivery: ReceivedDelivery): Promise<ClaimState>;
  /**
   * Keeps the handler's outcome, in one commit: `handled` makes the claim for good; `failed`
   * releases it, so that the platform's retry is handled.
   */
  settle(webhookId: string, outcome: DeliveryOutcome): Promise<void>;
  close(): Promise<void>;
}
