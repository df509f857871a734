/** The campaign operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { CAMPAIGN } from '../../platform/campaigns/resource.js';
import { type Campaign, campaign, createdCampaign } from '../../platform/campaigns/schemas.js';
import { emailMetrics } from '../../platform/email-metrics.js';
import { at } from '../../platform/operation-row.js';
import type { AudienceFilterRequest } from '../../platform/segments/filter.js';

export const campaigns: ListResource<Campaign> = { path: CAMPAIGN.operations.listCampaigns.path, item: campaign };

export type SchedulingRequest = { method: 'now' } | { method: 'schedule'; timestamp: string };

/** The fields a create or an update may set; an update sends only those given. */
export interface CampaignFields {
  name?: string;
  campaignGroupId?: string;
  mailingListId?: string | null;
  audienceSegmentId?: string | null;
  audienceFilter?: AudienceFilterRequest;
  scheduling?: SchedulingRequest;
}

export function getCampaign(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(CAMPAIGN.operations.getCampaign, id) }, campaign);
}

export function createCampaign(api: ApiClient, body: CampaignFields & { name: string }) {
  // Each create makes a new campaign and email message: never sent twice.
  return api.call({ method: 'POST', path: CAMPAIGN.operations.createCampaign.path, body, idempotent: false }, createdCampaign);
}

export function updateCampaign(api: ApiClient, id: string, body: CampaignFields) {
  // Scheduling is part of an update: it is not sent again once it may have arrived.
  return api.call({ method: 'POST', path: at(CAMPAIGN.operations.updateCampaign, id), body, idempotent: false }, campaign);
}

/** The engagement metrics of a sent campaign; one not sent yet, or without an email message, is refused with 400. */
export function campaignMetrics(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(CAMPAIGN.operations.getCampaignMetrics, id) }, emailMetrics);
}
