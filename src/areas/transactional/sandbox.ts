/** The sandbox's transactional emails: list, create, ensure a draft, and metrics. */
import { z } from '../../api/schemas.js';
import { answer, badRequest, listAnswer, noSendingDomain, notFound, objectBody, seedId, seedTime, slice, stringField, type RouteContext, type SandboxModule } from '../../sandbox/module.js';
import { defaultTransactionalGroupId, transactionalGroups } from '../groups/sandbox.js';
import * as s from './schemas.js';
import { sendRoute } from './send-sandbox.js';

const storedTransactional = z.object({
  record: s.transactionalDraftRecord.extend({ transactionalGroupId: z.string().nullable() }),
  metrics: s.transactionalMetrics,
});
export type StoredTransactional = z.infer<typeof storedTransactional>;

const groupId = (name: string) => seedId(`transactional-group/${name}`);

function transactional(
  name: string,
  hours: [created: number, updated: number],
  parts: { group: string; published: boolean; draft: boolean; dataVariables: string[]; metrics: s.TransactionalMetrics },
): StoredTransactional {
  const label = `transactional/${name}`;
  return {
    record: {
      id: seedId(label),
      name,
      draftEmailMessageId: parts.draft ? seedId(`${label}/draft`) : null,
      draftEmailMessageContentRevisionId: parts.draft ? seedId(`${label}/draft/revision`) : null,
      publishedEmailMessageId: parts.published ? seedId(`${label}/published`) : null,
      transactionalGroupId: groupId(parts.group),
      createdAt: seedTime(hours[0]),
      updatedAt: seedTime(hours[1]),
      dataVariables: parts.dataVariables,
    },
    metrics: parts.metrics,
  };
}

const seedEmails: StoredTransactional[] = [
  transactional('Welcome', [60, 700], {
    group: 'Onboarding',
    published: true,
    draft: false,
    dataVariables: ['firstName', 'loginUrl'],
    metrics: { sends: 18_432, deliveries: 18_211, spamReports: 9, hardBounces: 143, softBounces: 78 },
  }),
  transactional('Password reset', [65, 1_210], {
    group: 'Security',
    published: true,
    draft: true,
    dataVariables: ['firstName', 'resetUrl', 'expiresInMinutes'],
    metrics: { sends: 52_907, deliveries: 52_518, spamReports: 4, hardBounces: 231, softBounces: 158 },
  }),
  transactional('Order receipt', [240, 980], {
    group: 'Billing',
    published: true,
    draft: false,
    dataVariables: ['orderNumber', 'total', 'items', 'invoiceUrl'],
    metrics: { sends: 7_315, deliveries: 7_271, spamReports: 2, hardBounces: 29, softBounces: 15 },
  }),
  transactional('Magic sign-in link', [520, 1_330], {
    group: 'Security',
    published: true,
    draft: true,
    dataVariables: ['signInUrl'],
    metrics: { sends: 126_044, deliveries: 125_102, spamReports: 31, hardBounces: 604, softBounces: 338 },
  }),
  transactional('Payment failed', [1_300, 1_342], {
    group: 'Billing',
    published: false,
    draft: true,
    dataVariables: [],
    metrics: { sends: 0, deliveries: 0, spamReports: 0, hardBounces: 0, softBounces: 0 },
  }),
];

export const transactionalEmails = slice('transactionalEmails', z.array(storedTransactional), () => seedEmails);

function stored({ state }: RouteContext, id: string): StoredTransactional {
  const found = transactionalEmails.of(state).find((email) => email.record.id === id);
  if (found === undefined) throw notFound(`transactional email ${id} not found`);
  return found;
}

/** The list shows the record without the draft's content revision, which only create and draft name. */
function listed({ record }: StoredTransactional): s.TransactionalEmail & { id: string } {
  const { draftEmailMessageContentRevisionId: _revision, ...shown } = record;
  return shown;
}

function create(context: RouteContext) {
  const { body, features, state } = context;
  const fields = objectBody(body, ['name', 'transactionalGroupId'], ['name']);
  const name = stringField(fields, 'name');
  if (name.trim() === '') throw badRequest('name must not be empty');
  const group = fields.transactionalGroupId === undefined ? defaultTransactionalGroupId.of(state) : stringField(fields, 'transactionalGroupId');
  if (!transactionalGroups.of(state).some((candidate) => candidate.id === group)) throw badRequest(`transactional group ${group} does not exist`);
  if (!features.sendingDomain) throw noSendingDomain();
  const stamp = context.now().toISOString();
  const created: StoredTransactional = {
    record: {
      id: context.newId(),
      name,
      draftEmailMessageId: context.newId(),
      draftEmailMessageContentRevisionId: context.newId(),
      publishedEmailMessageId: null,
      transactionalGroupId: group,
      createdAt: stamp,
      updatedAt: stamp,
      dataVariables: [],
    },
    metrics: { sends: 0, deliveries: 0, spamReports: 0, hardBounces: 0, softBounces: 0 },
  };
  transactionalEmails.of(state).push(created);
  context.changed();
  return answer(s.transactionalDraftRecord, created.record, 201);
}

/** Returns the record unchanged when it has a draft; else makes one from the published version. */
function ensureDraft(context: RouteContext) {
  objectBody(context.body ?? {}, [], []);
  const email = stored(context, context.params.transactionalId!);
  if (email.record.draftEmailMessageId === null) {
    if (!context.features.sendingDomain) throw noSendingDomain();
    email.record.draftEmailMessageId = context.newId();
    email.record.draftEmailMessageContentRevisionId = context.newId();
    email.record.updatedAt = context.now().toISOString();
    context.changed();
  }
  return answer(s.transactionalDraftRecord, email.record);
}

export const sandbox: SandboxModule = {
  slices: [transactionalEmails],
  routes: [
    {
      method: 'GET',
      path: '/v1/transactional-emails',
      needs: 'content',
      run: ({ query, state }) => listAnswer(s.transactionalEmail, transactionalEmails.of(state).map(listed), query),
    },
    { method: 'POST', path: '/v1/transactional-emails', needs: 'content', run: create },
    { method: 'POST', path: '/v1/transactional-emails/:transactionalId/draft', needs: 'content', run: ensureDraft },
    {
      method: 'GET',
      path: '/v1/transactional-emails/:transactionalId/metrics',
      run: (context) => answer(s.transactionalMetrics, stored(context, context.params.transactionalId!).metrics),
    },
    sendRoute,
  ],
};
