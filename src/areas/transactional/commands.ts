/** What the `transactional` commands do. */
import { mapLimit } from '../../api/concurrency.js';
import { UsageError } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import type { Output } from '../../render/output.js';
import { createTransactional, ensureDraft, transactionalEmails, transactionalMetrics } from './client.js';
import { renderDraftRecord, renderMetrics, transactionalListView } from './render.js';
import type { TransactionalDraftRecord } from './schemas.js';

/** How many metrics requests may be in flight at once. */
const METRICS_CONCURRENCY = 4;

export const list = listHandler(transactionalEmails, transactionalListView);

export const metrics: Handler<[string[]]> = async (context, [ids]) => {
  ids.forEach((id) => checkId(id, 'transactional email id'));
  const client = await context.client();
  const results = await mapLimit(ids, METRICS_CONCURRENCY, async (id) => ({ id, metrics: await transactionalMetrics(client, id) }));
  const { out } = context;
  if (!out.json) return out.write(renderMetrics(out, results));
  if (results.length === 1) return out.writeJson(results[0]!.metrics);
  return out.writeJson(results.map(({ id, metrics: found }) => ({ transactionalId: id, ...found })));
};

export const draft: Handler<[string]> = async (context, [id]) => {
  checkId(id, 'transactional email id');
  await writeDraftRecord(context.out, await ensureDraft(await context.client(), id));
};

export const create: Handler<[], { name: string; group?: string }> = async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.group !== undefined) checkId(options.group, 'transactional group id');
  const body = options.group === undefined ? { name: options.name } : { name: options.name, transactionalGroupId: options.group };
  await writeDraftRecord(context.out, await createTransactional(await context.client(), body));
};

async function writeDraftRecord(out: Output, record: TransactionalDraftRecord): Promise<void> {
  if (out.json) return out.writeJson(record);
  const { body, note } = renderDraftRecord(out, record);
  await out.write(body);
  if (note !== undefined) out.note(note);
}
