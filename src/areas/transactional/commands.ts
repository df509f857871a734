/** What the `transactional` commands do. */
import type { ApiClient } from '../../api/client.js';
import { settleLimit } from '../../api/concurrency.js';
import { AuthError, InterruptedError, LoopsctlError, NetworkError, RejectedError, UsageError, withDetails } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { reportError } from '../../core/report.js';
import { formatCount } from '../../render/numbers.js';
import { formatJson, type Output } from '../../render/output.js';
import { ProgressLine } from '../../render/progress.js';
import { explained, explainError, type Explanation } from '../explain.js';
import { createTransactional, ensureDraft, getTransactional, publishTransactional, transactionalEmails, transactionalMetrics, updateTransactional } from './client.js';
import { renderDraftRecord, renderMetrics, renderTransactional, transactionalListView } from './render.js';
import type { TransactionalDraftRecord, TransactionalMetrics } from './schemas.js';

const ID_NOUN = 'transactional email id';
const NOT_FOUND: Explanation = { contentApi: true };
// Metrics are not part of the content API: their 401 is the key alone. Each id's failure is
// reported here rather than by main, so the hint main gives a missing record is given here.
const METRICS_HINTS: Explanation = { statuses: { 404: 'see the ids with `loopsctl transactional list`' } };
const GROUP_HINT = 'the group must exist: see the ids with `loopsctl groups list`';

/** How many metrics requests may be in flight at once. */
const METRICS_CONCURRENCY = 4;

export const list = listHandler(transactionalEmails, transactionalListView);

export const metrics: Handler<[string[]], { jsonl?: boolean }> = async (context, [given], options) => {
  const { out } = context;
  const ids = [...new Set(given)];
  ids.forEach((id) => checkId(id, ID_NOUN));
  const client = await context.client();
  const progress = new ProgressLine(() => context.runtime.stderr, context.runtime.paged);
  let done = 0;
  const outcomes = await settleLimit(
    ids,
    METRICS_CONCURRENCY,
    async (id) => {
      try {
        return await explained(transactionalMetrics(client, id), METRICS_HINTS);
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
  // Nothing on stdout when nothing could be fetched, as for any failed command.
  if (found.length > 0) await writeMetrics(out, found, options.jsonl === true);
  for (const { id, error } of failed) {
    // With one id, the message is the API's own; with several, it says which id it is about.
    const prefix = ids.length > 1 ? `${id}: ` : '';
    reportError(context.runtime.stderr, error, { json: out.json || options.jsonl === true, about: { transactionalId: id }, prefix, debug: context.globals.debug });
  }
  // The worst failure decides: the highest exit code of those that happened.
  return failed.reduce((worst, { error }) => Math.max(worst, error.exitCode), 0);
};

function writeMetrics(out: Output, found: { id: string; metrics: TransactionalMetrics }[], jsonl: boolean): Promise<void> {
  const objects = found.map(({ id, metrics: values }) => ({ transactionalId: id, ...values }));
  if (jsonl) return out.write(objects.map((object) => `${formatJson(object, 0)}\n`).join(''));
  if (out.json) return out.writeJson(objects);
  return out.write(renderMetrics(out, found));
}

/** What was thrown, as one of ours: anything else is a bug and is thrown on. */
function asLoopsctlError(error: unknown): LoopsctlError {
  if (error instanceof LoopsctlError) return error;
  throw error;
}

export const get: Handler<[string]> = async (context, [id]) => {
  checkId(id, ID_NOUN);
  await context.out.present(await explained(getTransactional(await context.client(), id), NOT_FOUND), renderTransactional);
};

export const update: Handler<[string], { name?: string; group?: string }> = async (context, [id], options) => {
  checkId(id, ID_NOUN);
  if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.group !== undefined) checkId(options.group, 'transactional group id');
  const body = { ...(options.name === undefined ? {} : { name: options.name }), ...(options.group === undefined ? {} : { transactionalGroupId: options.group }) };
  const hints: Explanation = options.group === undefined ? NOT_FOUND : { ...NOT_FOUND, statuses: { 400: GROUP_HINT } };
  const updated = await explained(updateTransactional(await context.client(), id, body), hints);
  await context.out.present(updated, renderTransactional);
};

export const publish: Handler<[string]> = async (context, [id]) => {
  checkId(id, ID_NOUN);
  const client = await context.client();
  let published;
  try {
    published = await publishTransactional(client, id);
  } catch (error) {
    throw await explainPublishFailure(error, client, id);
  }
  const { out } = context;
  await out.present(published, renderTransactional);
  out.note(`Published: it now sends email message ${published.publishedEmailMessageId ?? '-'}.`);
};

/**
 * What blocks publishing: no draft (409), or a draft that fails validation, an unverified sending
 * domain or unsafe content (422). For a 422, the draft's id makes the hint a command to run.
 */
async function explainPublishFailure(error: unknown, client: ApiClient, id: string): Promise<unknown> {
  if (error instanceof RejectedError && error.status === 422) {
    const draftId = await getTransactional(client, id).then(
      (record) => record.draftEmailMessageId,
      () => null,
    );
    const check = draftId === null ? 'run `loopsctl email-messages check <draftEmailMessageId>`' : `run \`loopsctl email-messages check ${draftId}\``;
    return withDetails(error, { hint: `${check} to see what Guardian finds in the draft (errors block publishing); publishing also needs a verified sending domain, and content not flagged as unsafe` });
  }
  return explainError(error, {
    ...NOT_FOUND,
    statuses: { 409: `there is no draft to publish (it may be published already): make one with \`loopsctl transactional draft ${id}\`, edit it, then publish` },
  });
}

export const draft: Handler<[string]> = async (context, [id]) => {
  checkId(id, ID_NOUN);
  await writeDraftRecord(context.out, await explained(ensureDraft(await context.client(), id), NOT_FOUND));
};

export const create: Handler<[], { name: string; group?: string }> = async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.group !== undefined) checkId(options.group, 'transactional group id');
  const body = options.group === undefined ? { name: options.name } : { name: options.name, transactionalGroupId: options.group };
  await writeDraftRecord(context.out, await explained(createTransactional(await context.client(), body), { contentApi: true }));
};

async function writeDraftRecord(out: Output, record: TransactionalDraftRecord): Promise<void> {
  if (out.json) return out.writeJson(record);
  const { body, notes } = renderDraftRecord(out, record);
  await out.write(body);
  notes.forEach((line) => out.note(line));
}
