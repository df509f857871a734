/**
 * Every resource of the API loopsctl reads or changes, one row each (operation-row.ts), in the
 * order the kinds of record are listed wherever they are listed (`check`'s kinds, the tree's
 * directories). record-kinds.ts, configuration-writes.ts and core/id-lists.ts are indexes of them.
 * A resource described whole by its row has its line in whole-row-registry.ts instead, but the
 * transactional group, which keeps its place in this order (its row has `records` all the same).
 */
import { API_KEY } from './auth/resource.js';
import { CAMPAIGN } from './campaigns/resource.js';
import { COMPONENT } from './components/resource.js';
import { CONTACT_PROPERTY } from './contact-properties/resource.js';
import { CONTACT } from './contacts/resource.js';
import { EMAIL_MESSAGE } from './email-messages/resource.js';
import { EVENT } from './event-patterns/resource.js';
import { EVENT_SEND } from './events/resource.js';
import { TRANSACTIONAL_GROUP } from './groups/resource.js';
import { DEDICATED_SENDING_IP } from './ips/resource.js';
import { MAILING_LIST } from './lists/resource.js';
import type { Operation } from './operation-row.js';
import { SEGMENT } from './segments/resource.js';
import { THEME } from './themes/resource.js';
import { TRANSACTIONAL_EMAIL, TRANSACTIONAL_SEND } from './transactional/resource.js';
import { UPLOAD } from './uploads/resource.js';
import * as RECORD_REGISTRY from './whole-row-registry.js';
import { WORKFLOW } from './workflows/resource.js';

/** The rows of the resources described whole by them (whole-row-registry.ts), in the order of their nouns. */
const RECORD_RESOURCES = Object.values(RECORD_REGISTRY).sort((one, other) => (one.noun < other.noun ? -1 : 1));

export const RESOURCES = [
  TRANSACTIONAL_EMAIL,
  CAMPAIGN,
  WORKFLOW,
  COMPONENT,
  THEME,
  MAILING_LIST,
  SEGMENT,
  EVENT,
  CONTACT_PROPERTY,
  TRANSACTIONAL_GROUP,
  ...RECORD_RESOURCES,
  EMAIL_MESSAGE,
] as const;

export type Resource = (typeof RESOURCES)[number];

/**
 * The rows of the API's other families, whose calls change people, send, or read the key: no
 * record of theirs is a kind, is listed by id, or is changed by a plan (configuration-writes.ts
 * says why each of their writes is not configuration).
 */
export const FAMILIES = [CONTACT, EVENT_SEND, TRANSACTIONAL_SEND, UPLOAD, DEDICATED_SENDING_IP, API_KEY] as const;

/** Every row: each operation of the API's published description is in exactly one (test/unit/platform/operations.test.ts). */
export const ROWS = [...RESOURCES, ...FAMILIES] as const;

type UnionToIntersection<U> = (U extends unknown ? (each: U) => void : never) extends (each: infer I) => void ? I : never;

/** Every operation of every row, by operationId. */
export type Operations = UnionToIntersection<(typeof ROWS)[number]['operations']>;
export type OperationId = keyof Operations;

/** Every operation of every row, by operationId. */
export const OPERATIONS = Object.assign({}, ...ROWS.map((row) => row.operations)) as Operations;

/** The operations of the rows of records (RESOURCES), by operationId: what a plan's units may call. */
export const RECORD_OPERATIONS: Readonly<Record<string, Operation>> = Object.assign({}, ...RESOURCES.map((row) => row.operations));

/** The operation that reads one record of a kind by its id (its row's getter), by the kind's noun. */
export function getterOf(noun: string): { method: string; path: string } | undefined {
  const row = RESOURCES.find((each) => each.noun === noun);
  return row === undefined || !('get' in row) ? undefined : (OPERATIONS as Record<string, { method: string; path: string }>)[row.get];
}

/** The noun of a row: the kind of record a plan's unit changes, as the unit names it. */
export type Noun = Resource['noun'];

/** Every row's noun, in the rows' order. */
export const NOUNS = RESOURCES.map((row) => row.noun) as unknown as readonly [Noun, ...Noun[]];

/** The noun of the row an operation is of: the kind of record its call changes (`updateWorkflowNode`: a workflow). */
export function nounOf(operationId: string): Noun | undefined {
  return RESOURCES.find((row) => Object.hasOwn(row.operations, operationId))?.noun;
}
