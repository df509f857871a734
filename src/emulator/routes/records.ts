/**
 * The sandbox's part of a resource described whole by its row (platform/operation-row.ts,
 * RecordResource): a slice of its records, seeded from its rules, and routes for its list, its
 * getter, its create and its update at its row's paths, each body checked as the API checks it and
 * each answer against its record's schema.
 */
import { z } from '../../base/shapes.js';
import type { RecordRules, SimpleRecord } from '../../platform/operation-row.js';
import type { RecordRow } from '../../platform/whole-rows.js';
import { answer, badRequest, lazily, type RouteContext, type SandboxModule, type Slice, seedId, seedTime, slice, stringField } from '../module.js';
import { type KeptById, pathRecord, readRoutes, someFields } from './kept.js';

/** The key of a resource's slice in the state: its row's, or its command group's name in camel case (`campaignGroups`). */
function sliceKey(row: RecordRow): string {
  return row.records.stateKey ?? row.records.area.name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

const MAKERS = { id: seedId, time: seedTime };

/** The slice of a resource's records; the same for every module that reads it. */
export function recordSlice<T extends SimpleRecord>(row: RecordRow, rules: RecordRules<T>): Slice<T[]> {
  const seeded = lazily(() => rules.seed(MAKERS));
  const everyTeam = rules.everyTeam;
  return slice(sliceKey(row), z.array(rules.schema), seeded, everyTeam === undefined ? undefined : () => everyTeam(seeded()));
}

/** The slice of a setting the sandbox keeps with a resource's records (RecordRules.settings), by its key. */
export function recordSetting<T>(rules: Pick<RecordRules, 'settings'>, key: string): Slice<T> {
  const setting = rules.settings?.[key];
  if (setting === undefined) throw new TypeError(`the records' rules keep no setting ${key}`);
  return slice(key, setting.schema as z.ZodMiniType<T>, () => setting.seed(MAKERS) as T);
}

/** The fields of a create's or an update's body, checked as the API checks them: known, text, at least one, and the resource's own rules. */
function fieldsOf<T extends SimpleRecord>(row: RecordRow, rules: RecordRules<T>, body: unknown, required: string[]): Record<string, string> {
  const names = Object.keys(row.records.fields);
  const given = someFields(body, names, required);
  const fields = Object.fromEntries(names.filter((name) => given[name] !== undefined).map((name) => [name, stringField(given, name)]));
  const refused = rules.refuse?.(fields);
  if (refused !== undefined) throw badRequest(refused);
  return fields;
}

/** The sandbox's module of a resource: its slices (its records, and its settings) and its four routes. */
export function recordModule<T extends SimpleRecord>(row: RecordRow, rules: RecordRules<T>, records = recordSlice(row, rules)): SandboxModule {
  const { schema } = rules;
  const { fields } = row.records;
  const kept: KeptById<T> = { records, schema, param: /\{(\w+)\}/.exec(row.get.path)![1]!, noun: row.noun };
  const needs = row.records.needs;
  const required = Object.keys(fields).filter((name) => fields[name]!.required === true);
  const create = ({ body, state, now, newId, changed }: RouteContext) => {
    const given = fieldsOf(row, rules, body, required);
    const time = now().toISOString();
    const made: Record<string, unknown> = { id: newId() };
    for (const [name, field] of Object.entries(fields)) if ((given[name] ?? field.absent) !== undefined) made[name] = given[name] ?? field.absent;
    const created = { ...made, createdAt: time, updatedAt: time } as T;
    records.of(state).push(created);
    changed();
    return answer(schema, created);
  };
  const update = (context: RouteContext) => {
    const { body, now, changed } = context;
    const found = pathRecord(kept, context);
    const given = fieldsOf(row, rules, body, []);
    const frozen = rules.frozen?.(found);
    if (frozen !== undefined) throw badRequest(frozen);
    Object.assign(found, given, { updatedAt: now().toISOString() });
    changed();
    return answer(schema, found);
  };
  const routes = [
    ...readRoutes(kept, { operation: row.list.id, needs }, { operation: row.get.id, needs }),
    { operation: row.create.id, needs, run: create },
    { operation: row.update.id, needs, run: update },
  ];
  const settings = Object.keys(rules.settings ?? {}).map((key) => recordSetting(rules, key));
  return { slices: [records, ...settings], routes };
}
