/** Campaigns: a draft or sent email to an audience, with its group, audience and schedule. */
import { z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';
import { audienceFilter } from '../segments/schemas.js';

/** When the campaign sends: `now` (no time) or `schedule` with an ISO 8601 time. */
export const campaignScheduling = z.looseObject({
  method: z.string(),
  timestamp: z.string().nullable(),
});
export type CampaignScheduling = z.infer<typeof campaignScheduling>;

export const campaign = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** The record's page in the Loops app. */
  url: z.string().optional(),
  /** Draft, Scheduled, Sending or Sent; kept as a string so a new status still shows. */
  status: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  emailMessageId: z.string().nullable(),
  campaignGroupId: z.string().nullable(),
  mailingListId: z.string().nullable(),
  audienceSegmentId: z.string().nullable(),
  audienceFilter: audienceFilter.nullable(),
  scheduling: campaignScheduling,
});
export type Campaign = z.infer<typeof campaign>;

/** What a create answers: the campaign and the content revision of its new, empty email message. */
export const createdCampaign = campaign.extend({ emailMessageContentRevisionId: z.string().nullable() });
export type CreatedCampaign = z.infer<typeof createdCampaign>;
