/** The sandbox's transactional groups, the group new transactional emails go to, and the rules both kinds of group share. */
import { z } from '../../base/shapes.js';
import {
  answer,
  badRequest,
  find,
  listAnswer,
  objectBody,
  seedId,
  seedTime,
  slice,
  stringField,
  type RouteContext,
  type SandboxModule,
  type SandboxRoute,
  type Slice,
  lazily,
} from '../module.js';
import { groupEditRefusal, groupFieldsRefusal } from '../../platform/groups/names.js';
import { group, type Group } from '../../platform/groups/schemas.js';

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

const seedGroups = lazily((): Group[] =>
  transactionalGroupNames.map(([name, description], index) => ({
    id: seedId(`transactional-group/${name}`),
    name,
    description,
    createdAt: seedTime(2 + index * 40),
    updatedAt: seedTime(2 + index * 40 + (index % 3)),
  })),
);

const groupId = (name: string) => seedId(`transactional-group/${name}`);

// Every team has the default group new transactional emails go to.
export const transactionalGroups = slice('transactionalGroups', z.array(group), seedGroups, () =>
  seedGroups().filter((candidate) => candidate.id === groupId('General')),
);
/** Where a transactional email created without a group goes. */
export const defaultTransactionalGroupId = slice('defaultTransactionalGroupId', z.string(), () => groupId('General'));

/** A name or description from a request body, checked as the API checks them; undefined when absent. */
function groupFields(body: unknown, required: string[]): { name?: string; description?: string } {
  const fields = objectBody(body, ['name', 'description'], required);
  if (Object.keys(fields).length === 0) throw badRequest('give at least one of name and description');
  const name = fields.name === undefined ? undefined : stringField(fields, 'name');
  const description = fields.description === undefined ? undefined : stringField(fields, 'description');
  const refused = groupFieldsRefusal({ name });
  if (refused !== undefined) throw badRequest(refused);
  return { name, description };
}

/** POST to a collection of groups: a new group, answered with 200 as the description says. */
function createGroup(groups: Slice<Group[]>) {
  return ({ body, state, now, newId, changed }: RouteContext) => {
    const { name, description } = groupFields(body, ['name']);
    const time = now().toISOString();
    const created: Group = { id: newId(), name: name!, description: description ?? '', createdAt: time, updatedAt: time };
    groups.of(state).push(created);
    changed();
    return answer(group, created);
  };
}

/** POST to one group: its name or description; the reserved group cannot be edited. */
function updateGroup(groups: Slice<Group[]>, param: string, noun: string) {
  return ({ params, body, state, now, changed }: RouteContext) => {
    const found = find(groups.of(state), params[param]!, noun);
    const { name, description } = groupFields(body, []);
    const frozen = groupEditRefusal(found);
    if (frozen !== undefined) throw badRequest(frozen);
    if (name !== undefined) found.name = name;
    if (description !== undefined) found.description = description;
    found.updatedAt = now().toISOString();
    changed();
    return answer(group, found);
  };
}

/** The routes of a collection of groups: list, get, create and update, under `path`. */
export function groupRoutes(path: string, all: Slice<Group[]>, param: string, noun: string): SandboxRoute[] {
  return [
    { method: 'GET', path, needs: 'content', run: (context) => listAnswer(group, all.of(context.state), context) },
    { method: 'GET', path: `${path}/:${param}`, needs: 'content', run: ({ params, state }) => answer(group, find(all.of(state), params[param]!, noun)) },
    { method: 'POST', path, needs: 'content', run: createGroup(all) },
    { method: 'POST', path: `${path}/:${param}`, needs: 'content', run: updateGroup(all, param, noun) },
  ];
}

export const sandbox: SandboxModule = {
  slices: [transactionalGroups, defaultTransactionalGroupId],
  routes: groupRoutes('/v1/transactional-groups', transactionalGroups, 'transactionalGroupId', 'transactional group'),
};
