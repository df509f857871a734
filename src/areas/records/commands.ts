/** What the commands of a resource described whole by its row do (platform/operation-row.ts, RecordResource). */
import { checkId } from '../../api/ids.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { type Explanation, explained, explainedHandler } from '../../core/explain.js';
import { listHandler } from '../../core/list-run.js';
import type { SimpleRecord } from '../../platform/operation-row.js';
import type { RecordRow } from '../../platform/whole-rows.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { renderRecord, timestampColumn } from '../../render/table.js';
import { type RecordBody, recordClient } from './client.js';

type FieldOptions = Record<string, string | undefined>;

/** The list's columns: the id, each field, and when the record was last updated. */
export function recordListView(row: RecordRow): ListView<SimpleRecord> {
  const names = Object.keys(row.records.fields);
  return {
    noun: row.records.plural,
    columns: [
      { header: 'ID' },
      ...names.map((name) => ({
        header: name.replace(/[A-Z]/g, (letter) => ` ${letter}`).toUpperCase(),
        ...(row.records.fields[name]!.column === 'truncate' ? { truncate: true } : { prose: true }),
      })),
      timestampColumn('UPDATED'),
    ],
    row: (record) => [record.id, ...names.map((name) => String(record[name] ?? '')), record.updatedAt],
  };
}

function renderOne(out: Output, record: SimpleRecord): string {
  return renderRecord(out, record);
}

/** The body of a create or an update: only the fields given (an update's declaration asks for at least one), in the record's order. */
function bodyOf(row: RecordRow, options: FieldOptions): RecordBody {
  return Object.fromEntries(Object.keys(row.records.fields).flatMap((name) => (options[name] === undefined ? [] : [[name, options[name]]])));
}

export async function recordCommands(row: RecordRow): Promise<Record<'list' | 'get' | 'create' | 'update', Handler>> {
  const client = recordClient(row, (await row.records.load()).schema);
  const explanation: Explanation = { contentApi: row.records.needs === 'content' };
  const writes: Explanation = { ...explanation, statuses: row.records.refused };
  const idWords = `${row.noun} id`;
  return {
    list: explainedHandler(listHandler(client.list, recordListView(row)), explanation),
    get: handler(['out', 'client'], async (context, [id]: [string]) => {
      checkId(id, idWords);
      await context.out.present(await explained(client.get(await context.client(), id), explanation), renderOne);
    }),
    create: handler(['out', 'client'], async (context, _args: [], options: FieldOptions) => {
      const created = await explained(client.create(await context.client(), bodyOf(row, options)), writes);
      await context.out.present(created, renderOne);
    }),
    update: handler(['out', 'client'], async (context, [id]: [string], options: FieldOptions) => {
      checkId(id, idWords);
      const updated = await explained(client.update(await context.client(), id, bodyOf(row, options)), writes);
      await context.out.present(updated, renderOne);
    }),
  };
}
