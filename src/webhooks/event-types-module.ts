/** The text of event-types.ts, written from the payload schemas (test/unit/webhooks/event-types.test.ts keeps the file equal to it). */
import { eventTypeDeclarations } from '../platform/webhooks/typescript.js';

export function eventTypesModule(): string {
  return `/**
 * The platform's 17 webhook event types, as loopsctl/webhooks declares them to an app. Written from
 * the payload schemas (src/platform/webhooks/payloads.ts) by event-types-module.ts: do not edit.
 * Fields the platform adds later are kept on each event at run time, though not named here.
 */

${eventTypeDeclarations('KnownWebhookEvent', ['readonly known: true;'])}
/** The name of an event type this version knows. */
export type WebhookEventName = KnownWebhookEvent['eventName'];
`;
}
