/**
 * The event types `loopsctl/webhooks` declares (src/webhooks/event-types.ts) are written from the
 * payload schemas, never by hand: this test writes them again and compares (`npx vitest run
 * test/unit/webhooks/event-types.test.ts -u` writes the file after a schema changed), and checks
 * at compile time that each declared event and its schema's type are the same type.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from '../../../src/base/shapes.js';
import type { WEBHOOK_EVENTS, WebhookEventName } from '../../../src/platform/webhooks/payloads.js';
import type { KnownWebhookEvent } from '../../../src/webhooks/event-types.js';
import { eventTypesModule } from '../../../src/webhooks/event-types-module.js';

type Declared<Name extends WebhookEventName> = Omit<Extract<KnownWebhookEvent, { eventName: Name }>, 'known'>;
type FromSchema<Name extends WebhookEventName> = z.infer<(typeof WEBHOOK_EVENTS)[Name]['schema']>;
/** The declarations are read-only all through; the schemas' types are not. */
type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
/**
 * Each declared event is a schema's type. Not the other way round for every event: the schemas of
 * marketing email's events are built by a function whose type admits a transactionalId their
 * shape never has, which the declarations (read from the shape) rightly leave out.
 */
type Within<A, B> = [A] extends [B] ? true : false;
type EverySame = { [Name in WebhookEventName]: Within<Declared<Name>, DeepReadonly<FromSchema<Name>>> }[WebhookEventName];
type FromMarketing = 'email.clicked' | 'email.opened' | 'email.unsubscribed' | 'email.resubscribed';
type SchemaWithin = { [Name in Exclude<WebhookEventName, FromMarketing>]: Within<DeepReadonly<FromSchema<Name>>, Declared<Name>> }[Exclude<
  WebhookEventName,
  FromMarketing
>];

describe('the declared event types', () => {
  it('are what the schemas write', async () => {
    await expect(eventTypesModule()).toMatchFileSnapshot('../../../src/webhooks/event-types.ts');
  });

  it('are the schemas’ own types, event by event, and name every event type', () => {
    expectTypeOf<EverySame>().toEqualTypeOf<true>();
    expectTypeOf<SchemaWithin>().toEqualTypeOf<true>();
    expectTypeOf<KnownWebhookEvent['eventName']>().toEqualTypeOf<WebhookEventName>();
  });
});
