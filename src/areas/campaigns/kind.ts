/**
 * What a campaign brings to a plan: who its schedule sends to, its mailing list, its segment and
 * its own filter as the update leaves them (the fields it sets, else the campaign's), each as the
 * API answers for it. The API counts no audience: neither a segment nor a list answers with how
 * many contacts it has.
 */
import type { ApiClient } from '../../api/client.js';
import { CAMPAIGN } from '../../platform/campaigns/resource.js';
import { carriedId } from '../../platform/operation-row.js';
import type { AudienceImpact } from '../change/impact/records.js';
import type { ResourceKind } from '../change/request-calls.js';
import { listMailingLists } from '../lists/client.js';
import { getSegment } from '../segments/client.js';
import { getCampaign } from './client.js';

/** The audience a campaign's update with a schedule sends to. */
async function audienceOf(client: ApiClient, record: string, campaignId: string, body: Record<string, unknown>): Promise<AudienceImpact> {
  const campaign = await getCampaign(client, campaignId);
  // The list and segment the update sets (its row says which fields carry them), else the campaign's.
  const after = (names: string, was: string | null) => {
    const set = carriedId(CAMPAIGN.operations.updateCampaign, body, names);
    return set === undefined ? was : set;
  };
  const listId = after('mailing list', campaign.mailingListId);
  const segmentId = after('segment', campaign.audienceSegmentId);
  const lists = listId === null ? [] : await listMailingLists(client);
  return {
    kind: 'audience',
    record,
    campaignId,
    scheduling: body.scheduling,
    campaign,
    mailingList: listId === null ? null : (lists.find((list) => list.id === listId) ?? { id: listId }),
    segment: segmentId === null ? null : await getSegment(client, segmentId),
    audienceFilter: body.audienceFilter === undefined ? campaign.audienceFilter : body.audienceFilter,
  };
}

export const CAMPAIGNS: ResourceKind = {
  inverts: ['updateCampaign'],
  // A campaign's schedule is its update: the audience it goes to.
  impacts: {
    updateCampaign: async (client, write) =>
      write.body.scheduling === undefined ? [] : [await audienceOf(client, write.record, write.ids.campaignId!, write.body)],
  },
};
