/** Event patterns: the events workflow triggers listen for, and the properties each event carries. */
import { z } from '../../base/shapes.js';
import { eventProperty } from '../workflows/node-types.js';

export const eventPatternSummary = z.looseObject({
  id: z.string(),
  /** The name to send the event with. */
  eventName: z.string(),
  /** The platform whose incoming webhook sent it (clerk, polar, stripe, supabase); null for custom events. */
  incomingWebhookPlatform: z.nullable(z.string()),
});
export type EventPatternSummary = z.infer<typeof eventPatternSummary>;

export const eventPattern = z.extend(eventPatternSummary, { eventProperties: z.array(eventProperty()) });
export type EventPattern = z.infer<typeof eventPattern>;
