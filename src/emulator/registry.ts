/**
 * The emulator's route modules, in the order their slices are seeded, each with the operations it
 * answers (by operationId, whole rows of platform/operations.ts or some of a row's) and loaded only
 * when a request comes to one of their paths, or when every slice is needed (a new state, a
 * reset). The paths a module serves are its operations' (their rows'), and the sandbox's own outside
 * the API's `/v1/`. Adding an area's routes is a file under routes/ and one line here, and a
 * resource described whole by its row (platform/operation-row.ts, RecordResource) has its module
 * made from the row, with no line here; test/unit/emulator/registry.test.ts checks that each
 * module's routes answer exactly the operations it says, at no other path.
 */

import { OPERATIONS, type OperationId, ROWS } from '../platform/operations.js';
import { RECORD_ROWS, type RecordRow } from '../platform/whole-rows.js';
import type { SandboxModule } from './module.js';
import { CAMPAIGN_SEND_PATH, CLOCK_PATH, ENGAGEMENT_PATH, JOURNEYS_PATH } from './own-paths.js';
import { journeysFrom } from './routes/journey-starts.js';

export interface RouteModule {
  /** The operations its routes answer. */
  answers: readonly OperationId[];
  /** The paths it serves: the first segments of its operations' paths (`/v1/themes`), and of its own. */
  serves: string[];
  /** Loaded for every request, as its module prepares every request (see SandboxModule.prepare). */
  everyRequest?: boolean;
  load(): Promise<SandboxModule>;
}

/** Every operation of a row, by its noun. */
function rowOf(noun: (typeof ROWS)[number]['noun']): OperationId[] {
  return Object.keys(ROWS.find((row) => row.noun === noun)!.operations) as OperationId[];
}

/**
 * A module that answers these operations and serves these paths of its own: it serves each
 * operation's path up to its first id, none under another it serves.
 */
function answering(answers: readonly OperationId[], load: () => Promise<SandboxModule>, own: string[] = []): RouteModule {
  const bases = answers.map((id) => (OPERATIONS as Record<string, { path: string }>)[id]!.path.split('/{')[0]!);
  const serves = [...new Set([...bases, ...own])].filter((base, _, all) => !all.some((other) => other !== base && base.startsWith(`${other}/`)));
  return { answers, serves, load };
}

/** The module of a resource described whole by its row (platform/operation-row.ts, RecordResource), made on first use. */
function recordModuleOf(row: RecordRow): RouteModule {
  let made: Promise<SandboxModule> | undefined;
  const make = async () => (await import('./routes/records.js')).recordModule(row, await row.records.load());
  return answering([row.list.id, row.get.id, row.create.id, row.update.id], () => (made ??= make()));
}

export const routeModules: RouteModule[] = [
  answering([...rowOf('transactional email'), 'listPublishedTransactionalEmails'], async () => (await import('./routes/transactional.js')).sandbox),
  answering(['sendTransactionalEmail'], async () => (await import('./routes/transactional-send.js')).sandbox),
  answering(rowOf('email message'), async () => (await import('./routes/email-messages.js')).sandbox),
  answering(rowOf('upload'), async () => (await import('./routes/uploads.js')).sandbox, ['/sandbox-uploads']),
  answering(rowOf('campaign'), async () => (await import('./routes/campaigns.js')).sandbox),
  // The resources described whole by their rows, each made by routes/records.ts.
  ...RECORD_ROWS.map(recordModuleOf),
  answering(rowOf('component'), async () => (await import('./routes/components.js')).sandbox),
  answering(rowOf('workflow'), async () => (await import('./routes/workflows.js')).sandbox),
  answering(rowOf('event'), async () => (await import('./routes/event-patterns.js')).sandbox),
  answering(rowOf('theme'), async () => (await import('./routes/themes.js')).sandbox),
  answering(rowOf('segment'), async () => (await import('./routes/segments.js')).sandbox),
  answering(rowOf('dedicated sending IP'), async () => (await import('./routes/ips.js')).sandbox),
  answering(rowOf('contact'), async () => (await import('./routes/contacts.js')).sandbox),
  answering(rowOf('contact property'), async () => (await import('./routes/contact-properties.js')).sandbox),
  answering(rowOf('mailing list'), async () => (await import('./routes/lists.js')).sandbox),
  answering(rowOf('event send'), async () => (await import('./routes/events.js')).sandbox),
  answering(rowOf('API key'), async () => (await import('./routes/auth.js')).sandbox),
  // Slices only: the webhooks the routes queue, and the outbox and idempotency keys of sends.
  answering([], async () => (await import('./routes/webhooks.js')).sandbox),
  answering([], async () => (await import('./routes/sandbox.js')).sandbox),
  answering([], async () => (await import('./routes/engagement.js')).sandbox, [ENGAGEMENT_PATH]),
  // The clock and the journeys: every request first releases the waits that have ended.
  {
    ...answering([], async () => (await import('./journeys/routes.js')).sandbox, [CLOCK_PATH, JOURNEYS_PATH, CAMPAIGN_SEND_PATH]),
    everyRequest: true,
  },
];

// The journeys' engine stands on the routes' records: the routes reach it by this name alone.
journeysFrom(() => import('./journeys/engine.js'));

/** The modules that serve a path (the request's, without its query), in the registry's order. */
export function modulesServing(path: string): RouteModule[] {
  return routeModules.filter((module) => module.everyRequest === true || module.serves.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)));
}
