/**
 * `loopsctl/webhooks`: an app's side of the platform's webhooks. Verify a delivery on its raw
 * body, parse it into one of the 17 event types, handle it once across processes and restarts,
 * and keep a journal of every delivery that the terminal searches (`loopsctl deliveries`).
 *
 *   import { openDeliveryStore, webhookHandler } from 'loopsctl/webhooks';
 *   const store = await openDeliveryStore('sqlite:deliveries.db');
 *   const handler = webhookHandler({ secret: process.env.LOOPS_WEBHOOK_SECRET, store, on: {
 *     'email.hardBounced': async (event) => markUndeliverable(event.contactIdentity.email),
 *   } });
 *   http.createServer(handler);             // node:http, or app.post('/webhooks/loops', handler) in Express
 *   export const POST = handler.fetch;      // a Next.js route handler, Hono, Bun, Deno
 *
 * Verifying and parsing need nothing but Node; a postgres:// store loads the bundled pg client.
 */
export { contactState, type ContactState, type FoldableEvent } from './contact-state.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export type * from './event-types.js';
export { parseWebhookEvent, type UnknownWebhookEvent, type WebhookEvent, type WebhookEventOf } from './events.js';
export { webhookHandler, type WebhookAnswer, type WebhookHandler, type WebhookHandlerOptions, type WebhookHandlers } from './handler.js';
export type { ClaimState, DeliveryJournal, DeliveryOutcome, ReceivedDelivery } from './delivery-store.js';
export { signWebhookEvent, webhookFixture, webhookFixtures, type SignedWebhook, type SignWebhookOptions } from './sign.js';
export {
  DeliveryStore,
  DeliveryStoreError,
  openDeliveryStore,
  type DeliveryFilter,
  type DeliveryStats,
  type DeliveryStoreOptions,
  type ForwardAttempt,
  type ForwardState,
  type StatsBy,
  type StoredDelivery,
} from './store/index.js';
export { verifyWebhook, type VerifiedDelivery, type VerifyWebhookOptions, type WebhookInput } from './verify.js';
