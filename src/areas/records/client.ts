/** The operations of a resource described whole by its row (platform/operation-row.ts, RecordResource), at its row's paths. */
import type { ApiClient, ListResource } from '../../api/client.js';
import type * as z from '../../base/zod.js';
import { at, type SimpleRecord } from '../../platform/operation-row.js';
import type { RecordRow } from '../../platform/whole-rows.js';

/** A create's or an update's body: the fields given. */
export type RecordBody = Partial<Record<string, string>>;

export interface RecordClient<T extends SimpleRecord> {
  list: ListResource<T>;
  get(api: ApiClient, id: string): Promise<T>;
  create(api: ApiClient, body: RecordBody): Promise<T>;
  update(api: ApiClient, id: string, body: RecordBody): Promise<T>;
}

export function recordClient<T extends SimpleRecord>(row: RecordRow, schema: z.ZodMiniType<T>): RecordClient<T> {
  return {
    list: { path: row.list.path, item: schema },
    get: (api, id) => api.call({ method: 'GET', idempotent: true, path: at(row.get, id) }, schema),
    // Each create makes a new record: sent again after a lost answer, it would make a second one.
    create: (api, body) => api.call({ method: row.create.method, path: row.create.path, body, idempotent: false }, schema),
    // Setting the same fields twice would be harmless, but the API does not promise that an update
    // is idempotent (a later version may record history or fire events), so it is treated as a write.
    update: (api, id, body) => api.call({ method: row.update.method, path: at(row.update, id), body, idempotent: false }, schema),
  };
}
