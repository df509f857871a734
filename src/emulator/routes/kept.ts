/**
 * A collection the sandbox keeps by id, as most of the API's are: the record a request's path
 * names, the routes that read the collection, and the checks its creates' and updates' bodies share.
 */
import type { z } from '../../base/shapes.js';
import type { OperationId } from '../../platform/operations.js';
import { answer, badRequest, find, listAnswer, objectBody, type RouteContext, type SandboxRoute, type Slice, stringField } from '../module.js';

/**
 * Its slice, a record's schema as the API answers it, the path's parameter that names a record,
 * the noun its 404 says, and what of a record the API shows where the state keeps more of it.
 */
export interface KeptById<T extends { id: string }> {
  records: Slice<T[]>;
  schema: z.ZodMiniType;
  param: string;
  noun: string;
  shown?: (record: T) => { id: string };
}

/** The record a request's path names, else a 404. */
export function pathRecord<T extends { id: string }>(kept: KeptById<T>, { params, state }: Pick<RouteContext, 'params' | 'state'>): T {
  return find(kept.records.of(state), params[kept.param]!, kept.noun);
}

/** An operation a route answers, and the feature it needs. */
interface Answering {
  operation: OperationId;
  needs?: SandboxRoute['needs'];
}

/** The routes that read a kept collection: its list, a page at a time, and its getter. */
export function readRoutes<T extends { id: string }>(kept: KeptById<T>, list: Answering, get: Answering): SandboxRoute[] {
  const shown = kept.shown ?? ((record: T) => record);
  return [
    { ...list, run: (context) => listAnswer(kept.schema, kept.records.of(context.state).map(shown), context) },
    { ...get, run: (context) => answer(kept.schema, shown(pathRecord(kept, context))) },
  ];
}

/** Names in words: `name`, `name and description`, `name, colour and description`. */
function inWords(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The body of a create or an update as objectBody checks it, with at least one of the allowed fields given. */
export function someFields(body: unknown, allowed: string[], required: string[]): Record<string, unknown> {
  const fields = objectBody(body, allowed, required);
  if (allowed.every((name) => fields[name] === undefined)) throw badRequest(`give at least one of ${inWords(allowed)}`);
  return fields;
}

/** A record's `name`: text, and not only blanks. */
export function nameField(fields: Record<string, unknown>): string {
  const name = stringField(fields, 'name');
  if (name.trim() === '') throw badRequest('name must not be empty');
  return name;
}
