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
export { type ContactState, contactState, type FoldableEvent } from './contact-state.js';
export type { ClaimState, DeliveryJournal, DeliveryOutcome, ReceivedDelivery } from './delivery-store.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export type * from './event-types.js';
export { parseWebhookEvent, type UnknownWebhookEvent, type WebhookEvent, type WebhookEventOf } from './events.js';
export { type WebhookAnswer, type WebhookHandler, type WebhookHandlerOptions, type WebhookHandlers, webhookHandler } from './handler.js';
export { type SignedWebhook, type SignWebhookOptions, signWebhookEvent, webhookFixture, webhookFixtures } from './sign.js';
export {
  type DeliveryFilter,
  type DeliveryStats,
  DeliveryStore,
  DeliveryStoreError,
  type DeliveryStoreOptions,
  type ForwardAttempt,
  type ForwardState,
  openDeliveryStore,
  type StatsBy,
  type StoredDelivery,
} from './store/index.js';
export { type VerifiedDelivery, type VerifyWebhookOptions, verifyWebhook, type WebhookInput } from './verify.js';
