/**
 * The emulator's route modules, in the order their slices are seeded, each with the paths it
 * serves (the first segments of its routes' paths, `/v1/themes`) and loaded only when a request
 * comes to one of them, or when every slice is needed (a new state, a reset). Adding an area's
 * routes is a file under routes/ and one line here, and a resource described whole by its row
 * (platform/resource-row.ts, RecordResource) has its module made from the row, with no line here; test/unit/emulator/registry.test.ts checks
 * that each module's routes are under the paths it says it serves.
 */
import { RECORD_ROWS, type RecordRow } from '../platform/record-resources.js';
import type { SandboxModule } from './module.js';
import { journeysFrom } from './routes/journey-starts.js';

export interface RouteModule {
  serves: string[];
  /** Loaded for every request, as its module prepares every request (see SandboxModule.prepare). */
  everyRequest?: boolean;
  load(): Promise<SandboxModule>;
}

/** The module of a resource described whole by its row (platform/resource-row.ts, RecordResource), made on first use. */
function recordModuleOf(row: RecordRow): RouteModule {
  let made: Promise<SandboxModule> | undefined;
  const make = async () => (await import('./routes/records.js')).recordModule(row, await row.records.load());
  return { serves: [row.list.path], load: () => (made ??= make()) };
}

export const routeModules: RouteModule[] = [
  { serves: ['/v1/transactional-emails', '/v1/transactional'], load: async () => (await import('./routes/transactional.js')).sandbox },
  { serves: ['/v1/transactional'], load: async () => (await import('./routes/transactional-send.js')).sandbox },
  { serves: ['/v1/email-messages'], load: async () => (await import('./routes/email-messages.js')).sandbox },
  { serves: ['/v1/uploads', '/sandbox-uploads'], load: async () => (await import('./routes/uploads.js')).sandbox },
  { serves: ['/v1/campaigns'], load: async () => (await import('./routes/campaigns.js')).sandbox },
  // The resources described whole by their rows, each made by routes/records.ts.
  ...RECORD_ROWS.map(recordModuleOf),
  { serves: ['/v1/components'], load: async () => (await import('./routes/components.js')).sandbox },
  { serves: ['/v1/workflows'], load: async () => (await import('./routes/workflows.js')).sandbox },
  { serves: ['/v1/event-patterns'], load: async () => (await import('./routes/event-patterns.js')).sandbox },
  { serves: ['/v1/themes'], load: async () => (await import('./routes/themes.js')).sandbox },
  { serves: ['/v1/audience-segments'], load: async () => (await import('./routes/segments.js')).sandbox },
  { serves: ['/v1/dedicated-sending-ips'], load: async () => (await import('./routes/ips.js')).sandbox },
  { serves: ['/v1/contacts'], load: async () => (await import('./routes/contacts.js')).sandbox },
  { serves: ['/v1/contacts/properties'], load: async () => (await import('./routes/contact-properties.js')).sandbox },
  { serves: ['/v1/lists'], load: async () => (await import('./routes/lists.js')).sandbox },
  { serves: ['/v1/events'], load: async () => (await import('./routes/events.js')).sandbox },
  { serves: ['/v1/api-key'], load: async () => (await import('./routes/auth.js')).sandbox },
  // Slices only: the webhooks the routes queue, and the outbox and idempotency keys of sends.
  { serves: [], load: async () => (await import('./routes/webhooks.js')).sandbox },
  { serves: [], load: async () => (await import('./routes/sandbox.js')).sandbox },
  { serves: ['/_sandbox/engagement'], load: async () => (await import('./routes/engagement.js')).sandbox },
  // The clock and the journeys: every request first releases the waits that have ended.
  { serves: ['/_sandbox/clock', '/_sandbox/journeys'], everyRequest: true, load: async () => (await import('./journeys/routes.js')).sandbox },
];

// The journeys' engine stands on the routes' records: the routes reach it by this name alone.
journeysFrom(() => import('./journeys/engine.js'));

/** The modules that serve a path (the request's, without its query), in the registry's order. */
export function modulesServing(path: string): RouteModule[] {
  return routeModules.filter((module) => module.everyRequest === true || module.serves.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)));
}
