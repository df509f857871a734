/**
 * Who a campaign's schedule sends to: its mailing list, its segment and its own filter, as the
 * update leaves them (the fields it sets, else the campaign's), each as the API answers for it.
 * The API counts no audience: neither a segment nor a list answers with how many contacts it has.
 */
import type { ApiClient } from '../../../api/client.js';
import type { Campaign } from '../../../platform/campaigns/schemas.js';
import type { MailingList } from '../../../platform/lists/schemas.js';
import type { AudienceSegment } from '../../../platform/segments/schemas.js';
import { getCampaign } from '../../campaigns/client.js';
import { listMailingLists } from '../../lists/client.js';
import { getSegment } from '../../segments/client.js';

export interface AudienceImpact {
  kind: 'audience';
  record: string;
  campaignId: string;
  /** The schedule the update sets. */
  scheduling: unknown;
  /** The campaign as the API answers for it now. */
  campaign: Campaign;
  /** The list it goes to: the API's record of it; null for none (every subscribed contact). */
  mailingList: MailingList | { id: string } | null;
  segment: AudienceSegment | { id: string } | null;
  audienceFilter: unknown;
}

export async function audienceOf(client: ApiClient, record: string, campaignId: string, body: Record<string, unknown>): Promise<AudienceImpact> {
  const campaign = await getCampaign(client, campaignId);
  const listId = (body.mailingListId === undefined ? campaign.mailingListId : body.mailingListId) as string | null;
  const segmentId = (body.audienceSegmentId === undefined ? campaign.audienceSegmentId : body.audienceSegmentId) as string | null;
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
