/**
 * The campaigns the sandbox keeps, as its state holds them, and the demo team's. Apart from the
 * routes (./campaigns.ts), so that the modules that read campaigns (a segment's filter names them)
 * need none of them.
 */
import { z } from '../../base/shapes.js';
import { type Campaign, campaign } from '../../platform/campaigns/schemas.js';
import { lazily, seedId, seedTime, slice } from '../module.js';

// Ids are made when the seed is, not when a request first loads this module.
const productUpdates = () => seedId('mailing-list/Product updates');
const newsletters = () => seedId('campaign-group/Newsletters');

const seedCampaigns = lazily((): Campaign[] => [
  {
    id: seedId('campaign/October newsletter'),
    name: 'October newsletter',
    status: 'Sent',
    createdAt: seedTime(700),
    updatedAt: seedTime(790),
    emailMessageId: seedId('email-message/october-newsletter'),
    campaignGroupId: newsletters(),
    mailingListId: productUpdates(),
    audienceSegmentId: null,
    audienceFilter: null,
    scheduling: { method: 'schedule', timestamp: seedTime(790) },
  },
  {
    id: seedId('campaign/November newsletter'),
    name: 'November newsletter',
    status: 'Draft',
    createdAt: seedTime(1_050),
    updatedAt: seedTime(1_080),
    emailMessageId: seedId('email-message/november-newsletter'),
    campaignGroupId: newsletters(),
    mailingListId: productUpdates(),
    audienceSegmentId: seedId('segment/Engaged newsletter readers'),
    audienceFilter: {
      match: 'any',
      conditions: [
        { type: 'property', key: 'plan', operator: 'equals', value: 'pro' },
        { type: 'property', key: 'seats', operator: 'greaterThan', value: 5 },
      ],
    },
    scheduling: { method: 'now', timestamp: null },
  },
  {
    id: seedId('campaign/Spring sale'),
    name: 'Spring sale',
    status: 'Draft',
    createdAt: seedTime(1_200),
    updatedAt: seedTime(1_200),
    emailMessageId: seedId('email-message/spring-sale'),
    campaignGroupId: seedId('campaign-group/Product announcements'),
    mailingListId: null,
    audienceSegmentId: null,
    audienceFilter: null,
    scheduling: { method: 'now', timestamp: null },
  },
]);

export const campaigns = slice('campaigns', z.array(campaign), seedCampaigns);
