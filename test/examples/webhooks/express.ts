// server.ts: an Express app.
import express from 'express';
import { openDeliveryStore, webhookHandler } from 'loopsctl/webhooks';
import { logError, markUndeliverable, recordEvent } from './app.js';

const store = await openDeliveryStore(process.env.LOOPS_DELIVERY_STORE ?? 'sqlite:deliveries.db');

export const app = express();

// express.raw() keeps the bytes as sent; express.json() here would change them before they are verified.
app.post(
  '/webhooks/loops',
  express.raw({ type: 'application/json' }),
  webhookHandler({
    secret: process.env.LOOPS_WEBHOOK_SECRET!,
    store,
    on: {
      'email.hardBounced': (event) => markUndeliverable(event.contactIdentity.email),
      'contact.unsubscribed': (event) => recordEvent(event.eventName, event.contactIdentity.email),
      unknown: (event) => recordEvent(event.eventName, undefined),
    },
    // Told of each refusal (401, 400) and failure (500, 503), for the app's log: the answer reaches only the platform.
    onError: (error, { webhookId }) => logError(error, webhookId),
  }),
);

// Every other route may parse JSON as usual.
app.use(express.json());
