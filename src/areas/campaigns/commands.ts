/** What the `campaigns` commands do. */

import { checkId } from '../../api/ids.js';
import { RejectedError, UsageError } from '../../base/errors.js';
import { openWeb } from '../../core/browser.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { fetchEach, namesOf, renderEmailMetrics, writeMetricsJson } from '../../core/email-metrics.js';
import { explained, explainedHandler } from '../../core/explain.js';
import { readJsonInput } from '../../core/input.js';
import { listHandler } from '../../core/list-run.js';
import type { Campaign, CreatedCampaign } from '../../platform/campaigns/schemas.js';
import { checkAudienceFilterFrom } from '../../platform/segments/filter.js';
import { MailingListNames } from '../lists/names.js';
import { type CampaignFields, campaignMetrics, campaigns, createCampaign, getCampaign, type SchedulingRequest, updateCampaign } from './client.js';
import { campaignListView, renderCampaign } from './render.js';

export const list = explainedHandler(listHandler(campaigns, campaignListView), { contentApi: true });

const LIST = 'loopsctl campaigns list';

export const get: Handler<[string], { web?: boolean }> = handler(['out', 'client', 'programs'], async (context, [id], options) => {
  checkId(id, 'campaign id');
  const found = await explained(getCampaign(await context.client(), id), { contentApi: true });
  if (options.web) return openWeb(context, found.url, `campaign ${id}`);
  await context.out.present(found, renderCampaign);
});

const METRICS_HINTS = { metricsApi: true, statuses: { 404: `see the campaigns with \`${LIST}\`` } };

export const metrics: Handler<[string[]], { jsonl?: boolean }> = handler(['out', 'client', 'globals'], async (context, [given], options) => {
  const { out } = context;
  given.forEach((id) => checkId(id, 'campaign id'));
  const client = await context.client();
  const { found, code } = await fetchEach(
    context,
    {
      items: given,
      noun: 'campaigns',
      fetch: (id) => explained(campaignMetrics(client, id), METRICS_HINTS),
      // A 400 may mean the campaign has not been sent: the campaign itself says so.
      noMetrics: async (id, error) =>
        error instanceof RejectedError && error.status === 400 ? whyNoMetrics(await getCampaign(client, id).catch(() => undefined)) : undefined,
      about: (id) => ({ campaignId: id }),
    },
    options,
  );
  if (out.json || options.jsonl) {
    // Every campaign without metrics said on stderr is still a run that succeeded: an empty array.
    if (found.length > 0 || code === 0)
      await writeMetricsJson(
        out,
        found.map(({ item, value }) => ({ campaignId: item, ...value })),
        options.jsonl === true,
      );
    return code;
  }
  if (found.length === 0) return code;
  const names = await namesOf(
    found.map(({ item }) => item),
    async (id) => (await getCampaign(client, id)).name,
  );
  await out.write(
    renderEmailMetrics(
      out,
      found.map(({ item, value }) => ({ id: item, name: names.get(item)!, metrics: value })),
      { id: 'ID', name: 'NAME' },
    ),
  );
  return code;
});

/** Why a campaign the API has no metrics for has none, read from the campaign; undefined when it should have some. */
function whyNoMetrics(campaign: Campaign | undefined): string | undefined {
  if (campaign === undefined) return undefined;
  const named = `campaign "${campaign.name}"`;
  if (campaign.emailMessageId === null) return `${named} has no email message, so it has no metrics`;
  if (campaign.status !== 'Sent' && campaign.status !== 'Sending') return `${named} has not been sent yet (it is ${campaign.status}), so it has no metrics yet`;
  return undefined;
}

interface CampaignOptions {
  name?: string;
  group?: string;
  list?: string;
  segment?: string;
  filterFile?: string;
  schedule?: string;
}

/** An id, or null for `none`: how an audience is cleared. */
function idOrNone(value: string, noun: string): string | null {
  return value === 'none' ? null : checkId(value, noun);
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** `now`, or a time with its zone that is still ahead: the API refuses a schedule in the past. */
function scheduling(value: string, now: Date): SchedulingRequest {
  if (value === 'now') return { method: 'now' };
  const time = Date.parse(value);
  if (!ISO_WITH_ZONE.test(value) || Number.isNaN(time)) {
    throw new UsageError(`--schedule "${value}" is neither "now" nor an ISO 8601 time with a zone`, { hint: 'for example --schedule 2025-07-15T14:00:00Z' });
  }
  if (time <= now.getTime()) throw new UsageError(`--schedule ${value} is in the past`, { hint: 'give a time ahead of now, or --schedule now' });
  return { method: 'schedule', timestamp: new Date(time).toISOString() };
}

/** The request's fields from the options given, each checked (the list against the account's); the filter file is read and checked too. */
async function campaignFields(context: Uses<'client' | 'files' | 'clock'>, options: CampaignOptions): Promise<CampaignFields> {
  const fields: CampaignFields = {};
  if (options.name !== undefined) {
    if (options.name.trim() === '') throw new UsageError('--name must not be empty');
    fields.name = options.name;
  }
  if (options.group !== undefined) fields.campaignGroupId = checkId(options.group, 'campaign group id');
  // The list by its id or its name; none clears it.
  if (options.list !== undefined)
    fields.mailingListId = options.list === 'none' ? null : await new MailingListNames(() => context.client()).idOf(options.list, '--list');
  if (options.segment !== undefined) fields.audienceSegmentId = idOrNone(options.segment, 'segment id');
  if (options.schedule !== undefined) fields.scheduling = scheduling(options.schedule, context.runtime.now());
  if (options.filterFile !== undefined) {
    const { source, value } = await readJsonInput(context.runtime, options.filterFile, 'filter');
    fields.audienceFilter = checkAudienceFilterFrom(source, value);
  }
  return fields;
}

const REFUSED = {
  400: 'the campaign group may not exist (see `loopsctl campaign-groups list`), or the team has no sending domain',
  404: audienceNotFound,
};

/** A campaign's audience that does not exist: the list of what the API's message names. */
function audienceNotFound(apiMessage: string): string {
  const list = /\b(mailing )?list\b/i.test(apiMessage);
  const segment = /\bsegment\b/i.test(apiMessage);
  if (list && !segment) return 'the mailing list does not exist; see the mailing lists with `loopsctl lists list`';
  if (segment && !list) return 'the segment does not exist; see the segments with `loopsctl segments list`';
  return 'the mailing list or segment does not exist; see them with `loopsctl lists list` and `loopsctl segments list`';
}

export const create: Handler<[], CampaignOptions & { name: string }> = handler(['out', 'client', 'files', 'clock'], async (context, _args, options) => {
  const fields = await campaignFields(context, options);
  const created = await explained(createCampaign(await context.client(), { ...fields, name: options.name }), { contentApi: true, statuses: REFUSED });
  if (context.out.json) return context.out.writeJson(created);
  await context.out.write(renderCampaign(context.out, created));
  for (const line of nextSteps(created)) context.out.note(line);
});

/** Where the new campaign's content is set, and the revision the first edit must name. */
function nextSteps(created: CreatedCampaign): string[] {
  if (created.emailMessageId === null) return ['The campaign has no email message yet.'];
  const message = `Email message: ${created.emailMessageId} (set its subject, sender and content)`;
  const revision = created.emailMessageContentRevisionId;
  return revision === null ? [message] : [message, `Its first update must expect revision ${revision}.`];
}

export const update: Handler<[string], CampaignOptions> = handler(['out', 'client', 'files', 'clock'], async (context, [id], options) => {
  checkId(id, 'campaign id');
  const fields = await campaignFields(context, options);
  const updated = await explained(updateCampaign(await context.client(), id, fields), {
    contentApi: true,
    statuses: {
      ...REFUSED,
      404: (apiMessage) =>
        /\bcampaign\b/i.test(apiMessage) ? `the campaign does not exist; see the campaigns with \`${LIST}\`` : audienceNotFound(apiMessage),
      409: `nothing was changed: the campaign has been sent, so only --name and --group can change now; see its state with \`loopsctl campaigns get ${id}\``,
    },
  });
  await context.out.present(updated, renderCampaign);
});
