/** Text views of campaigns: the list, and one campaign with its audience and schedule in words. */

import type { Campaign, CampaignScheduling } from '../../platform/campaigns/schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { renderRecord } from '../../render/table.js';
import { filterBlock } from '../segments/render.js';

export const campaignListView: ListView<Campaign> = {
  noun: 'campaigns',
  // The app's address stays out of the table, which it would fill: it is in `get`, --json and --web.
  columns: [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'STATUS' }],
  row: (campaign) => [campaign.id, campaign.name, campaign.status],
};

/** "as soon as it is sent", "at 2025-07-15T14:00:00.000Z". */
function describeScheduling(scheduling: CampaignScheduling): string {
  if (scheduling.method === 'now') return 'as soon as it is sent';
  if (scheduling.method === 'schedule') return scheduling.timestamp === null ? 'scheduled, no time set' : `at ${scheduling.timestamp}`;
  return scheduling.timestamp === null ? scheduling.method : `${scheduling.method} ${scheduling.timestamp}`;
}

/**
 * One campaign, field by field in the API's order with the schedule in words, then its audience
 * filter in words (their JSON is under --json).
 */
export function renderCampaign(out: Output, campaign: Campaign): string {
  if (!out.tty) return renderRecord(out, campaign);
  const { audienceFilter, ...fields } = campaign;
  const record = renderRecord(out, { ...fields, scheduling: describeScheduling(campaign.scheduling) });
  return audienceFilter === null ? record : `${record}\n${filterBlock('Audience filter', audienceFilter)}`;
}
