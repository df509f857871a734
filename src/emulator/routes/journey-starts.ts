/**
 * How the routes start journeys. The journeys' engine stands on the routes' records (journeys/
 * imports routes/), so the routes do not import it: the emulator's registry, which every route
 * module is loaded through, names where it is (`journeysFrom`), and an operation that can start a
 * journey lists `journeyEngine` in its `uses`, so that a contact's look-up loads no engine.
 */
import type { TriggerCause } from '../../platform/workflows/running.js';
import { later, type RouteContext } from '../module.js';
import type { StoredContact } from './contact-records.js';

/** An email a journey sent within a request, for the outbox entry of the event that started it. */
export interface SentEmail {
  loopId: string;
  loopName: string;
  emailMessageId: string;
  subject: string;
  emailId?: string;
  journeyId: string;
}

/** What happened to the contact, with the event's properties when an event started it. */
export interface Happening {
  causes: TriggerCause[];
  event?: { name: string; properties: Record<string, unknown> };
}

/** What the routes ask of the engine. */
export interface JourneyStarter {
  startJourneys(context: RouteContext, contact: StoredContact, happening: Happening): SentEmail[];
}

let engine: (() => Promise<JourneyStarter>) | undefined;

/** Names the module that starts journeys; the registry does, before it loads any route module. */
export function journeysFrom(load: () => Promise<JourneyStarter>): void {
  engine = load;
}

export const journeyEngine = later(async () => {
  if (engine === undefined) throw new Error('no journeys engine was named: route modules are loaded through the registry');
  return engine();
});
