/**
 * What of a transactional group needs zod, read on first use (operation-row.ts, RecordRules): its
 * shape, its seed, the rules of a group, and the group a transactional email created without one
 * goes to.
 */
import { z } from '../../base/shapes.js';
import type { RecordRules, SeedMakers } from '../operation-row.js';
import { groupEditRefusal, groupFieldsRefusal } from './names.js';
import { type Group, group } from './schemas.js';

const NAMES: [string, string][] = [
  ['General', 'Everything not sorted elsewhere; new transactional emails land here'],
  ['Account', 'Sign-up, email changes and account deletion'],
  ['Security', 'Password resets, sign-in links and new-device alerts'],
  ['Billing', 'Receipts, invoices and failed payments'],
  ['Onboarding', 'First-week emails sent from the product'],
  ['Notifications', 'Mentions, comments and assignments'],
  ['Team', 'Invitations and role changes'],
  ['Reports', 'Weekly and monthly usage reports'],
  ['Exports', 'Download links for data exports'],
  ['Integrations', 'Connected apps and webhook failures'],
  ['Support', 'Ticket updates from the help desk'],
  ['Trials', 'Trial start, midpoint and expiry'],
  ['Subscriptions', 'Plan changes, renewals and cancellations'],
  ['Orders', 'Order confirmations and shipping updates'],
  ['Events', 'Webinar and meetup registrations'],
  ['Referrals', 'Invite rewards and referral credits'],
  ['Compliance', 'Data requests and policy updates'],
  ['Mobile', 'Emails triggered from the mobile apps'],
  ['API', 'Key rotation and rate-limit warnings'],
  ['Partners', 'Emails for agencies and resellers'],
  ['Education', 'Course enrolments and certificates'],
  ['Marketplace', 'Listings, purchases and payouts'],
  ['Legacy', 'Emails kept for the old dashboard'],
  ['Experiments', 'Emails behind feature flags'],
  ['Internal', 'Alerts sent to our own team'],
  ['Localization', 'Translated variants awaiting review'],
];

/** The group new transactional emails go to, which every team has. */
const DEFAULT_GROUP = 'General';

const seedIdOf = (id: SeedMakers['id'], name: string) => id(`transactional-group/${name}`);

export const rules: RecordRules<Group> = {
  schema: group,
  seed: ({ id, time }) =>
    NAMES.map(([name, description], index) => ({
      id: seedIdOf(id, name),
      name,
      description,
      createdAt: time(2 + index * 40),
      updatedAt: time(2 + index * 40 + (index % 3)),
    })),
  everyTeam: (seeded) => seeded.filter((candidate) => candidate.name === DEFAULT_GROUP),
  refuse: groupFieldsRefusal,
  frozen: groupEditRefusal,
  settings: {
    // Where a transactional email created without a group goes.
    defaultTransactionalGroupId: { schema: z.string(), seed: ({ id }) => seedIdOf(id, DEFAULT_GROUP) },
  },
};
