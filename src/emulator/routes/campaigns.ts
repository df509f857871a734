/**
 * The sandbox's campaigns: created as drafts with a new email message ("always `Draft` for new
 * campaigns"), updated while they are not sent (a draft, or one scheduled in the app), and, once
 * sent, open only to a new name or group (else 409).
 */
import { z } from '../../base/shapes.js';
import { rules as campaignGroupRules } from '../../platform/campaign-groups/records.js';
import { CAMPAIGN_GROUP } from '../../platform/campaign-groups/resource.js';
import { type Campaign, campaign, createdCampaign } from '../../platform/campaigns/schemas.js';
import { type EmailMetrics, emailMetrics } from '../../platform/email-metrics.js';
import { campaignSent } from '../../platform/liveness.js';
import { recordRow } from '../../platform/whole-rows.js';
import {
  answer,
  appUrl,
  badRequest,
  conflict,
  find,
  noSendingDomain,
  notFound,
  objectBody,
  type RouteContext,
  type SandboxModule,
  seedId,
  slice,
  stringField,
} from '../module.js';
import { campaigns } from './campaign-records.js';
import { addMessage } from './email-message-records.js';
import { type KeptById, nameField, pathRecord, readRoutes } from './kept.js';
import { mailingLists } from './lists.js';
import { recordSlice } from './records.js';
import { requestFilter, segments } from './segments.js';

/**
 * What each sent campaign's email has done, by campaign id. The figures are chosen so that a rate
 * over the wrong total (delivered sends, opens) reads visibly differently from the rate over sends.
 */
/** The groups a campaign is sorted into: the slice of their own module (routes/records.ts). */
const campaignGroups = recordSlice(recordRow(CAMPAIGN_GROUP), campaignGroupRules);

export const campaignMetrics = slice(
  'campaignMetrics',
  z.record(z.string(), emailMetrics),
  (): Record<string, EmailMetrics> => ({
    [seedId('campaign/October newsletter')]: { sends: 4_000, opens: 1_800, clicks: 360, unsubscribes: 60, spamReports: 20, hardBounces: 320, softBounces: 180 },
  }),
);

const NOTHING_SENT: EmailMetrics = { sends: 0, opens: 0, clicks: 0, unsubscribes: 0, spamReports: 0, hardBounces: 0, softBounces: 0 };

/** A campaign has metrics once it is sending or sent, and only with an email message. */
function metricsOf(context: RouteContext) {
  const { state } = context;
  const found = pathRecord(kept, context);
  if (found.emailMessageId === null) throw badRequest('Campaign has no email message.');
  if (found.status !== 'Sent' && found.status !== 'Sending') throw badRequest('Campaign has not been sent yet.');
  return answer(emailMetrics, campaignMetrics.of(state)[found.id] ?? NOTHING_SENT);
}

/** A campaign as the API answers with it: the stored record with its page in the app. */
function shown(stored: Campaign): Campaign {
  const { id, ...fields } = stored;
  return { id, url: appUrl('campaigns', id), ...fields };
}

const kept: KeptById<Campaign> = { records: campaigns, schema: campaign, param: 'campaignId', noun: 'campaign', shown };

const FIELDS = ['name', 'campaignGroupId', 'mailingListId', 'audienceSegmentId', 'audienceFilter', 'scheduling'];
/** What a sent campaign still lets change. */
const AFTER_SENDING = ['name', 'campaignGroupId'];

/** Each given field checked as the API checks it, then set on the campaign. */
function apply(target: Campaign, fields: Record<string, unknown>, context: RouteContext): void {
  const { state, now } = context;
  if (fields.name !== undefined) target.name = nameField(fields);
  if (fields.campaignGroupId !== undefined) {
    const groupId = stringField(fields, 'campaignGroupId');
    if (!campaignGroups.of(state).some((group) => group.id === groupId)) throw badRequest(`campaign group ${groupId} not found`);
    target.campaignGroupId = groupId;
  }
  if (fields.mailingListId !== undefined) {
    const listId = fields.mailingListId === null ? null : stringField(fields, 'mailingListId');
    if (listId !== null && !mailingLists.of(state).some((list) => list.id === listId)) throw notFound(`mailing list ${listId} not found`);
    target.mailingListId = listId;
  }
  const segmentGiven = fields.audienceSegmentId !== undefined;
  const filterGiven = fields.audienceFilter !== undefined;
  if (segmentGiven) {
    const segmentId = fields.audienceSegmentId === null ? null : stringField(fields, 'audienceSegmentId');
    if (segmentId !== null) find(segments.of(state), segmentId, 'audience segment');
    target.audienceSegmentId = segmentId;
    // A segment alone replaces the filter, as the description says.
    if (!filterGiven) target.audienceFilter = null;
  }
  if (filterGiven) {
    target.audienceFilter = fields.audienceFilter === null ? null : requestFilter(fields.audienceFilter);
    if (!segmentGiven) target.audienceSegmentId = null;
  }
  if (fields.scheduling !== undefined) target.scheduling = requestScheduling(fields.scheduling, now());
}

function requestScheduling(value: unknown, now: Date): Campaign['scheduling'] {
  const fields = objectBody(value, ['method', 'timestamp'], ['method']);
  if (fields.method === 'now') {
    if (fields.timestamp !== undefined) throw badRequest('scheduling.timestamp must be omitted when method is now');
    return { method: 'now', timestamp: null };
  }
  if (fields.method !== 'schedule') throw badRequest('scheduling.method must be now or schedule');
  const timestamp = fields.timestamp === undefined ? undefined : stringField(fields, 'timestamp');
  const time = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  if (Number.isNaN(time)) throw badRequest('scheduling.timestamp must be an ISO 8601 time when method is schedule');
  if (time <= now.getTime()) throw badRequest('scheduling.timestamp must be in the future');
  return { method: 'schedule', timestamp: new Date(time).toISOString() };
}

function createCampaign(context: RouteContext) {
  const { body, state, features, now, newId, changed } = context;
  const fields = objectBody(body, FIELDS, ['name']);
  if (!features.sendingDomain) throw noSendingDomain();
  const time = now().toISOString();
  const created: Campaign = {
    id: newId(),
    name: '',
    status: 'Draft',
    createdAt: time,
    updatedAt: time,
    emailMessageId: null,
    campaignGroupId: seedId('campaign-group/Unsorted'),
    mailingListId: null,
    audienceSegmentId: null,
    audienceFilter: null,
    scheduling: { method: 'now', timestamp: null },
  };
  apply(created, fields, context);
  // A new campaign comes with an empty email message of its own, to be edited before it is sent.
  const { message } = addMessage(context, { kind: 'campaign', id: created.id, published: false });
  created.emailMessageId = message.id;
  campaigns.of(state).push(created);
  changed();
  return answer(createdCampaign, { ...shown(created), emailMessageContentRevisionId: message.contentRevisionId }, 201);
}

function updateCampaign(context: RouteContext) {
  const { body, now, changed } = context;
  const found = pathRecord(kept, context);
  const fields = objectBody(body, FIELDS, []);
  if (Object.keys(fields).length === 0) throw badRequest(`give at least one of ${FIELDS.join(', ')}`);
  const locked = Object.keys(fields).filter((key) => !AFTER_SENDING.includes(key));
  // A scheduled campaign has not been sent: its audience and schedule still change ("Once a campaign has been sent...").
  if (campaignSent(found.status) && locked.length > 0) {
    throw conflict(`Campaign has been sent (status ${found.status}); only name and campaignGroupId can be updated, not ${locked.join(', ')}`);
  }
  // Checked on a copy, so a field refused halfway leaves the campaign as it was.
  const next = structuredClone(found);
  apply(next, fields, context);
  Object.assign(found, next, { updatedAt: now().toISOString() });
  changed();
  return answer(campaign, shown(found));
}

export const sandbox: SandboxModule = {
  slices: [campaigns, campaignMetrics],
  routes: [
    ...readRoutes(kept, { operation: 'listCampaigns', needs: 'content' }, { operation: 'getCampaign', needs: 'content' }),
    { operation: 'createCampaign', needs: 'content', run: createCampaign },
    { operation: 'updateCampaign', needs: 'content', run: updateCampaign },
    { operation: 'getCampaignMetrics', needs: 'metrics', run: metricsOf },
  ],
};
