/** What the `transactional` commands do. */
import { settleLimit } from '../../api/concurrency.js';
import { AuthError, InterruptedError, LoopsctlError, NetworkError, UsageError } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { reportError } from '../../core/report.js';
import { formatCount } from '../../render/numbers.js';
import { formatJson, type Output } from '../../render/output.js';
import { ProgressLine } from '../../render/progress.js';
import { createTransactional, ensureDraft, transactionalEmails, transactionalMetrics } from './client.js';
import { renderDraftRecord, renderMetrics, transactionalListView } from './render.js';
import type { TransactionalDraftRecord } from './schemas.js';

/** How many metrics requests may be in flight at once. */
const METRICS_CONCURRENCY = 4;

export const list = listHandler(transactionalEmails, transactionalListView);

export const metrics: Handler<[string[]], { jsonl?: boolean }> = async (context, [given], options) => {
  const { out } = context;
  if (options.jsonl && out.json) throw new UsageError('--json and --jsonl cannot be used together', { hint: 'choose one output form' });
  const ids = [...new Set(given)];
  ids.forEach((id) => checkId(id, 'transactional email id'));
  const client = await context.client();
  const progress = new ProgressLine(context.runtime.stderr);
  let done = 0;
  const outcomes = await settleLimit(
    ids,
    METRICS_CONCURRENCY,
    async (id) => {
      try {
        return await transactionalMetrics(client, id);
      } finally {
        done += 1;
        if (ids.length > 1) progress.show(`fetched the metrics of ${formatCount(done)} of ${formatCount(ids.length)} transactional emails`);
      }
    },
    // A key that is refused, or an API out of reach, fails every id alike: stop at the first.
    { dooms: (error) => error instanceof AuthError || error instanceof InterruptedError || (error instanceof NetworkError && error.code !== 'timeout'), onDoomed: () => context.cancel() },
  ).finally(() => progress.clear());
  const found = outcomes.flatMap((outcome) => (outcome.ok ? [{ id: outcome.item, metrics: outcome.value }] : []));
  const failed = outcomes.flatMap((outcome) => (outcome.ok ? [] : [{ id: outcome.item, error: asLoopsctlError(outcome.error) }]));
  if (options.jsonl) await out.write(found.map(({ id, metrics: values }) => `${formatJson({ transactionalId: id, ...values }, 0)}\n`).join(''));
  else if (out.json) await out.writeJson(found.map(({ id, metrics: values }) => ({ transactionalId: id, ...values })));
  else if (found.length > 0) await out.write(renderMetrics(out, found));
  for (const { id, error } of failed) {
    reportError(context.runtime.stderr, error, { json: out.json || options.jsonl === true, about: { transactionalId: id }, prefix: `${id}: `, debug: context.globals.debug });
  }
  // The worst failure decides: the highest exit code of those that happened.
  return failed.reduce((worst, { error }) => Math.max(worst, error.exitCode), 0);
};

/** What was thrown, as one of ours: anything else is a bug and is thrown on. */
function asLoopsctlError(error: unknown): LoopsctlError {
  if (error instanceof LoopsctlError) return error;
  throw error;
}

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
