/**
 * The webhooks' records: the endpoint the sandbox delivers to and every delivery with its attempts.
 * Apart from the routes that queue them (webhooks.ts), so that a sandbox's start, which reads
 * them, loads none of the records and payloads those routes reach.
 */
import { z } from '../../base/shapes.js';
import { slice } from '../module.js';

const endpointSetting = z.object({ url: z.string(), secret: z.string(), simulateEngagement: z.boolean() });
export type WebhookEndpoint = z.infer<typeof endpointSetting>;

export const webhookEndpoint = slice('webhookEndpoint', z.nullable(endpointSetting), () => null);

const attempt = z.object({ at: z.string(), url: z.string(), status: z.nullable(z.number()), error: z.nullable(z.string()), latencyMs: z.number() });

const delivery = z.object({
  /** The webhook-id: the same on every attempt, so a receiver can tell a retry from a new event. */
  id: z.string(),
  eventName: z.string(),
  payload: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  /** When the next attempt is due (pending), or the last one was made. */
  dueAt: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(attempt),
});
export type WebhookDelivery = z.infer<typeof delivery>;
export type DeliveryAttempt = z.infer<typeof attempt>;

export const webhookDeliveries = slice('webhookDeliveries', z.array(delivery), () => []);
