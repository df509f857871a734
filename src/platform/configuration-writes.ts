/**
 * Which of the API's writes change an account's configuration: its emails, components, themes,
 * campaigns (and their schedules), workflows and their nodes, groups, segments, contact properties
 * and transactional publishes. Each of them is kept in the journal of changes (`loopsctl log`).
 * The API's other writes change people, not configuration (a contact, a suppression, an event, a
 * transactional send, a preview sent to a test address, an uploaded image that no email uses yet),
 * and are not journaled: a journal of contacts would be a copy of contact data.
 *
 * Every operation of the API's published description that is not a GET is in exactly one of the
 * two tables (test/unit/platform/configuration-writes.test.ts reads the contract).
 */

import { idsAt } from './operation-row.js';
import { OPERATIONS, type Operations } from './operations.js';

/** The operations of the rows that change configuration, by operationId. */
type WriteId = { [Id in keyof Operations]: Operations[Id] extends { writes: string } ? Id : never }[keyof Operations];

/** What a configuration write changes, by operationId, with its path template: the rows' operations that say what they write (operations.ts). */
export const CONFIGURATION_WRITES = Object.fromEntries(
  Object.entries(OPERATIONS as Record<string, { method: string; path: string; writes?: string }>).flatMap(([id, operation]) =>
    operation.writes === undefined ? [] : [[id, { method: operation.method, path: operation.path, kind: operation.writes }]],
  ),
) as { [Id in WriteId]: { method: Operations[Id]['method']; path: Operations[Id]['path']; kind: Extract<Operations[Id], { writes: string }>['writes'] } };

/** The API's other writes, and why none is a change of configuration. */
export const OTHER_WRITES = {
  createContact: 'a contact is a person, not configuration',
  updateContact: 'a contact is a person, not configuration',
  deleteContact: 'a contact is a person, not configuration',
  removeContactSuppression: "a suppression is a person's, not configuration",
  sendEvent: 'an event is about a person',
  sendTransactionalEmail: 'a send, to a person',
  previewEmailMessage: 'a preview sent to test addresses changes nothing',
  createUpload: 'an uploaded image changes nothing until an email uses it, which is journaled',
  completeUpload: 'an uploaded image changes nothing until an email uses it, which is journaled',
} as const;

export type ConfigurationOperation = keyof typeof CONFIGURATION_WRITES;

/** A request matched to its configuration write, with the ids its path names. */
export interface ConfigurationWrite {
  operation: ConfigurationOperation;
  kind: string;
  /** The path's parameters by name: `{ workflowId: 'wf_1', nodeId: 'n_2' }`. */
  ids: Record<string, string>;
}

const MATCHERS = Object.entries(CONFIGURATION_WRITES).map(([operation, { method, path, kind }]) => ({
  operation: operation as ConfigurationOperation,
  method,
  kind,
  path,
  names: [...path.matchAll(/\{(\w+)\}/g)].map((found) => found[1]!),
}));

/**
 * The writes the API makes a dry run of when asked: "Make a dry run request using `dryRun: true`"
 * (their descriptions; "If `true`, the request will be validated but the workflow will not be
 * modified"). No other write takes `dryRun`: one that carries it is made all the same.
 */
export const DRY_RUNS: ReadonlySet<ConfigurationOperation> = new Set(['changeWorkflowMailingList', 'deleteWorkflowNode', 'deleteWorkflowNodeRecursively']);

/** Whether a request only asks what a write would do: a write that takes `dryRun`, with `dryRun: true`. */
export function isDryRun(method: string, pathWithQuery: string, body?: unknown): boolean {
  if (typeof body !== 'object' || body === null || (body as { dryRun?: unknown }).dryRun !== true) return false;
  const write = matchWrite(method, pathWithQuery);
  return write !== undefined && DRY_RUNS.has(write.operation);
}

/**
 * The configuration write a request makes, or undefined for a read, a write of people, or a dry
 * run of a write that takes one (isDryRun: it changes nothing).
 */
export function configurationWrite(method: string, pathWithQuery: string, body?: unknown): ConfigurationWrite | undefined {
  const write = matchWrite(method, pathWithQuery);
  if (write === undefined || (DRY_RUNS.has(write.operation) && (body as { dryRun?: unknown } | null | undefined)?.dryRun === true)) return undefined;
  return write;
}

function matchWrite(method: string, pathWithQuery: string): ConfigurationWrite | undefined {
  if (method === 'GET') return undefined;
  for (const matcher of MATCHERS) {
    if (matcher.method !== method) continue;
    const found = idsAt(matcher, pathWithQuery);
    if (found === undefined) continue;
    const ids = Object.fromEntries(matcher.names.map((name, index) => [name, found[index]!]));
    return { operation: matcher.operation, kind: matcher.kind, ids };
  }
  return undefined;
}

/**
 * What identifies the records an answer names: its ids and revisions (`id`, `workflowRevisionId`,
 * `emailMessageContentRevisionId`…) and its name, at the top and one object down (a node edit
 * answers `{ node, workflow }`); nothing else of the answer is kept.
 */
export function identifiersOf(answer: unknown): { ids: Record<string, string>; revisions: Record<string, string>; name?: string } {
  const ids: Record<string, string> = {};
  const revisions: Record<string, string> = {};
  let name: string | undefined;
  const visit = (value: unknown, prefix: string, depth: number) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [key, field] of Object.entries(value)) {
      if (depth === 0 && key === 'name' && typeof field === 'string') name = field;
      if (typeof field === 'object' && field !== null && depth === 0) visit(field, `${key}.`, 1);
      if (typeof field !== 'string' || field === '') continue;
      if (/revision/i.test(key) && /id$/i.test(key)) revisions[`${prefix}${key}`] = field;
      else if (key === 'id' || /[a-z]Id$/.test(key)) ids[`${prefix}${key}`] = field;
    }
  };
  visit(answer, '', 0);
  return name === undefined ? { ids, revisions } : { ids, revisions, name };
}
