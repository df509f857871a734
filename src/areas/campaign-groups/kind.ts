/** What a campaign group brings to a plan: its create matched by name against the account's list. */
import type { ResourceKind } from '../change/request-calls.js';
import { campaignGroups } from './client.js';

export const CAMPAIGN_GROUPS: ResourceKind = { creates: { createCampaignGroup: campaignGroups } };
