/**
 * The types of `loopsctl/sandbox` are declared by hand in src/emulator/public.ts, so that its
 * declaration file stands alone: they must be the emulator's own, which this checks (by the type
 * checker, `npm run typecheck`; the test itself only runs the checks).
 */
import { expectTypeOf, it } from 'vitest';
import type { input } from 'zod';
import type { fixturesSchema } from '../../../src/emulator/fixtures.js';
import type { Journey } from '../../../src/emulator/journey-records.js';
import type { SandboxDelivery, SandboxFixtures, SandboxJourney, SandboxOutboxEntry } from '../../../src/emulator/public.js';
import type { OutboxEntry } from '../../../src/emulator/routes/sandbox.js';
import type { WebhookDelivery } from '../../../src/emulator/routes/webhook-records.js';

it('declares the outbox entries and deliveries as the emulator keeps them', () => {
  expectTypeOf<SandboxOutboxEntry>().toEqualTypeOf<OutboxEntry>();
  expectTypeOf<SandboxDelivery>().toEqualTypeOf<WebhookDelivery>();
  expectTypeOf<SandboxJourney>().toEqualTypeOf<Journey>();
});

it('declares fixtures that the fixture schema takes, and takes what it takes', () => {
  expectTypeOf<Omit<SandboxFixtures, 'contacts'>>().toEqualTypeOf<Omit<input<typeof fixturesSchema>, 'contacts'>>();
  // A contact's custom properties make an index signature that the two write differently: what the schema takes is declared.
  type ContactInput = NonNullable<input<typeof fixturesSchema>['contacts']>[number];
  expectTypeOf<ContactInput>().toExtend<NonNullable<SandboxFixtures['contacts']>[number]>();
});
