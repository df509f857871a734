// app.ts: a Hono app (Node, Bun, Deno or Cloudflare Workers with a PostgreSQL store).
import { Hono } from 'hono';
import { openDeliveryStore, webhookHandler } from 'loopsctl/webhooks';
import { logError, markUndeliverable, recordEvent } from './app.js';

const store = await openDeliveryStore(process.env.LOOPS_DELIVERY_STORE ?? 'sqlite:deliveries.db');

const handler = webhookHandler({
  secret: process.env.LOOPS_WEBHOOK_SECRET!,
  store,
  on: {
    'email.hardBounced': (event) => markUndeliverable(event.contactIdentity.email),
    'contact.unsubscribed': (event) => recordEvent(event.eventName, event.contactIdentity.email),
    unknown: (event) => recordEvent(event.eventName, undefined),
  },
  // Told of each refusal (401, 400) and failure (500, 503), for the app's log: the answer reaches only the platform.
  onError: (error, { webhookId }) => logError(error, webhookId),
});

export const app = new Hono();
// c.req.raw is the Fetch Request, its body unread: never c.req.json() before it.
app.post('/webhooks/loops', (c) => handler.fetch(c.req.raw));
