/** Campaigns: a draft or sent email to an audience, with its group, audience and schedule. */
import { z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';
import { audienceFilter } from '../segments/schemas.js';

/** When the campaign sends: `now` (no time) or `schedule` with an ISO 8601 time. */
export const campaignScheduling = z.looseObject({
  method: z.string(),
  timestamp: z.nullable(z.string()),
});
export type CampaignScheduling = z.infer<typeof campaignScheduling>;

export const campaign = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** The record's page in the Loops app. */
  url: z.optional(z.string()),
  /** Draft, Scheduled, Sending or Sent; kept as a string so a new status still shows. */
  status: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  emailMessageId: z.nullable(z.string()),
  campaignGroupId: z.nullable(z.string()),
  mailingListId: z.nullable(z.string()),
  audienceSegmentId: z.nullable(z.string()),
  audienceFilter: z.nullable(audienceFilter),
  scheduling: campaignScheduling,
});
export type Campaign = z.infer<typeof campaign>;

/** What a create answers: the campaign and the content revision of its new, empty email message. */
export const createdCampaign = z.extend(campaign, { emailMessageContentRevisionId: z.nullable(z.string()) });
export type CreatedCampaign = z.infer<typeof createdCampaign>;
