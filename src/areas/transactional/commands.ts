/** What the `transactional` commands do. */
import type { ApiClient } from '../../api/client.js';
import { checkId } from '../../api/ids.js';
import { LoopsctlError, RejectedError, UsageError, withDetails } from '../../base/errors.js';
import { openWeb } from '../../core/browser.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { fetchEach, namesOf, writeMetricsJson } from '../../core/email-metrics.js';
import { type Explanation, explainError, explained } from '../../core/explain.js';
import { listHandler } from '../../core/list-run.js';
import type { TransactionalDraftRecord } from '../../platform/transactional/schemas.js';
import type { Output } from '../../render/output.js';
import { getEmailMessage } from '../email-messages/client.js';
import {
  createTransactional,
  ensureDraft,
  getTransactional,
  publishTransactional,
  transactionalEmails,
  transactionalMetrics,
  updateTransactional,
} from './client.js';
import { renderDraftRecord, renderMetrics, renderTransactional, transactionalListView } from './render.js';

const ID_NOUN = 'transactional email id';
const NOT_FOUND: Explanation = { contentApi: true };
// Metrics are not part of the content API: their 401 is the key, or the metrics API not enabled.
// Each id's failure is reported here rather than by main, so the hint main gives a missing record
// is given here.
const METRICS_HINTS: Explanation = { metricsApi: true, statuses: { 404: 'see the ids with `loopsctl transactional list`' } };
const GROUP_HINT = 'the group must exist: see the ids with `loopsctl groups list`';
/** A 400 naming the group is an unknown --group; another 400 (no sending domain) is not. */
const UNKNOWN_GROUP: Explanation = { statuses: { 400: (message) => (/group/i.test(message) ? GROUP_HINT : undefined) } };

// The table names each email's group, read once before the emails; --json has the API's ids.
export const list = listHandler(transactionalEmails, transactionalListView(), async (client) =>
  transactionalListView(await (await import('./groups.js')).transactionalGroupNames(client)),
);

export const metrics: Handler<[string[]], { jsonl?: boolean }> = handler(['out', 'client', 'globals'], async (context, [given], options) => {
  const { out } = context;
  given.forEach((id) => checkId(id, ID_NOUN));
  const client = await context.client();
  const { found, code } = await fetchEach(
    context,
    {
      items: given,
      noun: 'transactional emails',
      fetch: (id) => explained(transactionalMetrics(client, id), METRICS_HINTS),
      about: (id) => ({ transactionalId: id }),
    },
    options,
  );
  // Nothing on stdout when nothing could be fetched, as for any failed command.
  if (found.length === 0) return code;
  if (out.json || options.jsonl) {
    await writeMetricsJson(
      out,
      found.map(({ item, value }) => ({ transactionalId: item, ...value })),
      options.jsonl === true,
    );
    return code;
  }
  // The name beside each id: a team without the content API still sees its metrics, with '-' for names.
  const names = await namesOf(
    found.map(({ item }) => item),
    async (id) => (await getTransactional(client, id)).name,
  );
  await out.write(
    renderMetrics(
      out,
      found.map(({ item, value }) => ({ id: item, name: names.get(item)!, metrics: value })),
    ),
  );
  return code;
});

export const get: Handler<[string], { web?: boolean }> = handler(['out', 'client', 'programs'], async (context, [id], options) => {
  checkId(id, ID_NOUN);
  const found = await explained(getTransactional(await context.client(), id), NOT_FOUND);
  if (options.web) return openWeb(context, found.url, `transactional email ${id}`);
  await context.out.present(found, renderTransactional);
});

export const update: Handler<[string], { name?: string; group?: string }> = handler(['out', 'client'], async (context, [id], options) => {
  checkId(id, ID_NOUN);
  if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.group !== undefined) checkId(options.group, 'transactional group id');
  const body = {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.group === undefined ? {} : { transactionalGroupId: options.group }),
  };
  const hints: Explanation = options.group === undefined ? NOT_FOUND : { ...NOT_FOUND, ...UNKNOWN_GROUP };
  const updated = await explained(updateTransactional(await context.client(), id, body), hints);
  await context.out.present(updated, renderTransactional);
});

export const publish: Handler<[string]> = handler(['out', 'client'], async (context, [id]) => {
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
  // The platform publishes an email with no subject as it is: said before the first send goes out.
  if (!out.json && published.publishedEmailMessageId !== null && (await hasNoSubject(client, published.publishedEmailMessageId)))
    out.note(
      `Its email has no subject, which inboxes show as "(no subject)": set one on a draft (\`loopsctl transactional draft ${id}\`, then \`loopsctl email-messages update <draftEmailMessageId> --subject ...\`) and publish again.`,
    );
});

/** Whether the email message has no subject; a message that cannot be read is not said to lack one (the publish is done either way). */
async function hasNoSubject(client: ApiClient, messageId: string): Promise<boolean> {
  try {
    return (await getEmailMessage(client, messageId)).subject.trim() === '';
  } catch (error) {
    if (error instanceof LoopsctlError) return false;
    throw error;
  }
}

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
    return withDetails(error, {
      hint: `${check} to see what Guardian finds in the draft (errors block publishing); publishing also needs a verified sending domain, and content not flagged as unsafe`,
    });
  }
  return explainError(error, {
    ...NOT_FOUND,
    statuses: {
      409: `there is no draft to publish (it may be published already): make one with \`loopsctl transactional draft ${id}\`, edit it, then publish`,
    },
  });
}

export const draft: Handler<[string]> = handler(['out', 'client'], async (context, [id]) => {
  checkId(id, ID_NOUN);
  await writeDraftRecord(context.out, await explained(ensureDraft(await context.client(), id), NOT_FOUND));
});

export const create: Handler<[], { name: string; group?: string }> = handler(['out', 'client'], async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.group !== undefined) checkId(options.group, 'transactional group id');
  const body = options.group === undefined ? { name: options.name } : { name: options.name, transactionalGroupId: options.group };
  await writeDraftRecord(context.out, await explained(createTransactional(await context.client(), body), { contentApi: true, ...UNKNOWN_GROUP }), {
    empty: true,
  });
});

async function writeDraftRecord(out: Output, record: TransactionalDraftRecord, draft: { empty?: boolean } = {}): Promise<void> {
  if (out.json) return out.writeJson(record);
  const { body, notes } = renderDraftRecord(out, record, draft.empty === true);
  await out.write(body);
  notes.forEach(({ text, command }) => out.note(text, { command }));
}
