/** The sandbox's transactional groups, and the group new transactional emails go to. */
import { z } from '../../api/schemas.js';
import { answer, find, listAnswer, seedId, seedTime, slice, type SandboxModule } from '../../sandbox/module.js';
import { group, type Group } from './schemas.js';

const transactionalGroupNames: [string, string][] = [
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

const seedGroups: Group[] = transactionalGroupNames.map(([name, description], index) => ({
  id: seedId(`transactional-group/${name}`),
  name,
  description,
  createdAt: seedTime(2 + index * 40),
  updatedAt: seedTime(2 + index * 40 + (index % 3)),
}));

const groupId = (name: string) => seedId(`transactional-group/${name}`);

export const transactionalGroups = slice('transactionalGroups', z.array(group), () => seedGroups);
/** Where a transactional email created without a group goes. */
export const defaultTransactionalGroupId = slice('defaultTransactionalGroupId', z.string(), () => groupId('General'));

export const sandbox: SandboxModule = {
  slices: [transactionalGroups, defaultTransactionalGroupId],
  routes: [
    { method: 'GET', path: '/v1/transactional-groups', needs: 'content', run: ({ query, state }) => listAnswer(group, transactionalGroups.of(state), query) },
    {
      method: 'GET',
      path: '/v1/transactional-groups/:transactionalGroupId',
      needs: 'content',
      run: ({ params, state }) => answer(group, find(transactionalGroups.of(state), params.transactionalGroupId!, 'transactional group')),
    },
  ],
};
