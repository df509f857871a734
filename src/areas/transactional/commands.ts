/** What the `transactional` commands do. */
import type { ApiClient } from '../../api/client.js';
import { mapLimit } from '../../api/concurrency.js';
import { RejectedError, UsageError, withHint } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import type { Output } from '../../render/output.js';
import { hinted, withHints, type StatusHints } from '../email-messages/hints.js';
import { createTransactional, ensureDraft, getTransactional, publishTransactional, transactionalEmails, transactionalMetrics, updateTransactional } from './client.js';
import { renderDraftRecord, renderMetrics, renderTransactional, transactionalListView } from './render.js';
import type { TransactionalDraftRecord } from './schemas.js';

const ID_NOUN = 'transactional email id';
const NOT_FOUND = { 404: 'see the ids with `loopsctl transactional list`' };
// Metrics are not part of the content API: their 401 is the key alone.
const METRICS_HINTS = { ...NOT_FOUND, 401: null };
const GROUP_HINT = 'the group must exist: see the ids with `loopsctl groups list`';

/** How many metrics requests may be in flight at once. */
const METRICS_CONCURRENCY = 4;

export const list = listHandler(transactionalEmails, transactionalListView);

export const metrics: Handler<[string[]]> = async (context, [ids]) => {
  ids.forEach((id) => checkId(id, ID_NOUN));
  const client = await context.client();
  const results = await mapLimit(ids, METRICS_CONCURRENCY, async (id) => ({ id, metrics: await withHints(transactionalMetrics(client, id), METRICS_HINTS) }));
  const { out } = context;
  if (!out.json) return out.write(renderMetrics(out, results));
  if (results.length === 1) return out.writeJson(results[0]!.metrics);
  return out.writeJson(results.map(({ id, metrics: found }) => ({ transactionalId: id, ...found })));
};

export const get: Handler<[string]> = async (context, [id]) => {
  checkId(id, ID_NOUN);
  await context.out.present(await withHints(getTransactional(await context.client(), id), NOT_FOUND), renderTransactional);
};

export const update: Handler<[string], { name?: string; group?: string }> = async (context, [id], options) => {
  checkId(id, ID_NOUN);
  if (options.name === undefined && options.group === undefined) throw new UsageError('nothing to update', { hint: 'give --name, --group, or both' });
  if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.group !== undefined) checkId(options.group, 'transactional group id');
  const body = { ...(options.name === undefined ? {} : { name: options.name }), ...(options.group === undefined ? {} : { transactionalGroupId: options.group }) };
  const hints: StatusHints = options.group === undefined ? NOT_FOUND : { ...NOT_FOUND, 400: GROUP_HINT };
  const updated = await withHints(updateTransactional(await context.client(), id, body), hints);
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
    return withHint(error, `${check} to see what Guardian finds in the draft (errors block publishing); publishing also needs a verified sending domain, and content not flagged as unsafe`);
  }
  return hinted(error, {
    ...NOT_FOUND,
    409: `there is no draft to publish (it may be published already): make one with \`loopsctl transactional draft ${id}\`, edit it, then publish`,
  });
}

export const draft: Handler<[string]> = async (context, [id]) => {
  checkId(id, ID_NOUN);
  await writeDraftRecord(context.out, await withHints(ensureDraft(await context.client(), id), NOT_FOUND));
};

export const create: Handler<[], { name: string; group?: string }> = async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.group !== undefined) checkId(options.group, 'transactional group id');
  const body = options.group === undefined ? { name: options.name } : { name: options.name, transactionalGroupId: options.group };
  await writeDraftRecord(context.out, await withHints(createTransactional(await context.client(), body), {}));
};

async function writeDraftRecord(out: Output, record: TransactionalDraftRecord): Promise<void> {
  if (out.json) return out.writeJson(record);
  const { body, notes } = renderDraftRecord(out, record);
  await out.write(body);
  notes.forEach((line) => out.note(line));
}
