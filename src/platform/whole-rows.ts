/**
 * The resources described whole by their rows (operation-row.ts, RecordResource), with their four
 * operations found in the row: what the sandbox, the commands and the plan kinds are made from.
 */
import type { Operation, RecordResource, ResourceRow } from './operation-row.js';
import { type OperationId, RESOURCES } from './operations.js';

export interface RecordOperation extends Operation {
  id: OperationId;
}

export interface RecordRow {
  noun: string;
  records: RecordResource;
  /** Its list's ids, as an argument names them for completion and the picker. */
  ids?: string;
  list: RecordOperation;
  get: RecordOperation;
  create: RecordOperation;
  update: RecordOperation;
}

function operation(row: ResourceRow, found: (operation: Operation) => boolean, what: string): RecordOperation {
  const match = Object.entries(row.operations).find(([, each]) => found(each));
  if (match === undefined) throw new TypeError(`the row of ${row.noun} has no ${what}`);
  return { id: match[0] as OperationId, ...match[1] };
}

/** A row with its records described, its operations found: the list, the getter, the POST to the list's path and the write to the getter's. */
export function recordRow(row: ResourceRow & { records: RecordResource }): RecordRow {
  const list = operation(row, (each) => each === row.operations[row.list?.operation ?? ''], 'list');
  const get = operation(row, (each) => each === row.operations[row.get ?? ''], 'getter');
  return {
    noun: row.noun,
    records: row.records,
    ids: row.list?.ids,
    list,
    get,
    create: operation(row, (each) => each.method === 'POST' && each.path === list.path, 'create (a POST to its list)'),
    update: operation(row, (each) => each.method !== 'GET' && each.path === get.path, 'update (a write to its getter)'),
  };
}

/** Every resource described whole by its row, in the rows' order. */
export const RECORD_ROWS: readonly RecordRow[] = (RESOURCES as readonly ResourceRow[]).flatMap((row) =>
  row.records === undefined ? [] : [recordRow(row as ResourceRow & { records: RecordResource })],
);

/**
 * A list in `--help`'s order (the areas, their declarations) with each resource's own put in, made
 * from its row: after the area its row names (`area.after`), or last.
 */
export function withRecordAreas<T>(listed: readonly T[], nameOf: (each: T) => string, made: (row: RecordRow) => T): T[] {
  const placed = [...listed];
  for (const row of RECORD_ROWS) {
    const { after } = row.records.area;
    const index = after === undefined ? placed.length - 1 : placed.findIndex((each) => nameOf(each) === after);
    if (index === -1) throw new TypeError(`the ${row.noun}'s commands are listed after ${after}, which is no area`);
    placed.splice(index + 1, 0, made(row));
  }
  return placed;
}
