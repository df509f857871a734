/**
 * The sandbox's transactional emails: list, get, create, update, ensure a draft, publish, and
 * metrics. Their draft and published content are email messages (./email-messages.ts);
 * the draft's content revision is that message's.
 */
import { z } from '../../base/shapes.js';
import { dataVariablesIn } from '../../lmx/index.js';
import { rules as transactionalGroupRules } from '../../platform/groups/records.js';
import { TRANSACTIONAL_GROUP } from '../../platform/groups/resource.js';
import * as s from '../../platform/transactional/schemas.js';
import { recordRow } from '../../platform/whole-rows.js';
import {
  ApiFailure,
  answer,
  appUrl,
  badRequest,
  conflict,
  lazily,
  listAnswer,
  noSendingDomain,
  notFound,
  objectBody,
  type RouteContext,
  type SandboxModule,
  seedId,
  seedTime,
  slice,
  stringField,
} from '../module.js';
import { addMessage, findMessage, removeMessage, replaceContent } from './email-message-records.js';
import { guardianOf } from './email-messages.js';
import { nameField } from './kept.js';
import { recordSetting, recordSlice } from './records.js';

const storedTransactional = z.object({
  record: z.extend(s.transactionalEmail, { transactionalGroupId: z.nullable(z.string()) }),
  metrics: s.transactionalMetrics,
  /**
   * The data variables a send may leave out (or send as ""), as the editor marks them optional,
   * which the API does not show; every other one the published email uses is required.
   */
  optionalDataVariables: z.optional(z.array(z.string())),
});
export type StoredTransactional = z.infer<typeof storedTransactional>;

/** The groups an email is sorted into, and the one it goes to when created without one: slices of the groups' own module (routes/records.ts). */
const transactionalGroups = recordSlice(recordRow(TRANSACTIONAL_GROUP), transactionalGroupRules);
const defaultTransactionalGroupId = recordSetting<string>(transactionalGroupRules, 'defaultTransactionalGroupId');

const groupId = (name: string) => seedId(`transactional-group/${name}`);

function transactional(
  name: string,
  hours: [created: number, updated: number],
  parts: { group: string; published: boolean; draft: boolean; dataVariables: string[]; optionalDataVariables?: string[]; metrics: s.TransactionalMetrics },
): StoredTransactional {
  const label = `transactional/${name}`;
  return {
    record: {
      id: seedId(label),
      name,
      draftEmailMessageId: parts.draft ? seedId(`${label}/draft`) : null,
      publishedEmailMessageId: parts.published ? seedId(`${label}/published`) : null,
      transactionalGroupId: groupId(parts.group),
      createdAt: seedTime(hours[0]),
      updatedAt: seedTime(hours[1]),
      dataVariables: parts.dataVariables,
    },
    metrics: parts.metrics,
    ...(parts.optionalDataVariables === undefined ? {} : { optionalDataVariables: parts.optionalDataVariables }),
  };
}

const seedEmails = lazily((): StoredTransactional[] => [
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
    // A send may leave the expiry out: the sentence reads well without the number.
    optionalDataVariables: ['expiresInMinutes'],
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
]);

export const transactionalEmails = slice('transactionalEmails', z.array(storedTransactional), seedEmails);

function stored({ state }: RouteContext, id: string): StoredTransactional {
  const found = transactionalEmails.of(state).find((email) => email.record.id === id);
  if (found === undefined) throw notFound(`transactional email ${id} not found`);
  return found;
}

/** The record as get, update, publish and the list show it (a state file of an older loopsctl may hold more). */
function shown({ record }: StoredTransactional): s.TransactionalEmail & { id: string } {
  const { id, name, draftEmailMessageId, publishedEmailMessageId, transactionalGroupId, createdAt, updatedAt, dataVariables } = record;
  return {
    id,
    url: appUrl('transactional', id),
    name,
    draftEmailMessageId,
    publishedEmailMessageId,
    transactionalGroupId,
    createdAt,
    updatedAt,
    dataVariables,
  };
}

/** Create and ensure-draft also name the draft's content revision, for its first update. */
function draftAnswer(context: RouteContext, email: StoredTransactional, status = 200) {
  const draftId = email.record.draftEmailMessageId;
  const revision = draftId === null ? null : (findMessage(context.state, draftId)?.message.contentRevisionId ?? null);
  return answer(s.transactionalDraftRecord, { ...shown(email), draftEmailMessageContentRevisionId: revision }, status);
}

const draftParent = (id: string) => ({ kind: 'transactional' as const, id, published: false });

function create(context: RouteContext) {
  const { body, features, state } = context;
  const fields = objectBody(body, ['name', 'transactionalGroupId'], ['name']);
  const name = nameField(fields);
  const group = fields.transactionalGroupId === undefined ? defaultTransactionalGroupId.of(state) : stringField(fields, 'transactionalGroupId');
  checkGroup(context, group);
  if (!features.sendingDomain) throw noSendingDomain();
  const stamp = context.now().toISOString();
  const id = context.newId();
  const created: StoredTransactional = {
    record: {
      id,
      name,
      draftEmailMessageId: addMessage(context, draftParent(id)).message.id,
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
  return draftAnswer(context, created, 201);
}

function checkGroup({ state }: RouteContext, group: string): void {
  if (!transactionalGroups.of(state).some((candidate) => candidate.id === group)) throw badRequest(`transactional group ${group} does not exist`);
}

/** Returns the record unchanged when it has a draft; else makes one from the published version. */
function ensureDraft(context: RouteContext) {
  objectBody(context.body ?? {}, [], []);
  const email = stored(context, context.params.transactionalId!);
  const { record } = email;
  if (record.draftEmailMessageId === null || findMessage(context.state, record.draftEmailMessageId) === undefined) {
    if (!context.features.sendingDomain) throw noSendingDomain();
    const published = record.publishedEmailMessageId === null ? undefined : findMessage(context.state, record.publishedEmailMessageId)?.message;
    record.draftEmailMessageId = addMessage(context, draftParent(record.id), published).message.id;
    record.updatedAt = context.now().toISOString();
    context.changed();
  }
  return draftAnswer(context, email);
}

function update(context: RouteContext) {
  const email = stored(context, context.params.transactionalId!);
  const fields = objectBody(context.body, ['name', 'transactionalGroupId'], []);
  if (Object.keys(fields).length === 0) throw badRequest('at least one of name and transactionalGroupId must be given');
  if (fields.name !== undefined && stringField(fields, 'name').trim() === '') throw badRequest('name must not be empty');
  if (fields.transactionalGroupId !== undefined) checkGroup(context, stringField(fields, 'transactionalGroupId'));
  Object.assign(email.record, fields, { updatedAt: context.now().toISOString() });
  context.changed();
  return answer(s.transactionalEmail, shown(email));
}

/** The draft's content becomes the published version, the draft is cleared, and its data variables are listed. */
function publish(context: RouteContext) {
  const email = stored(context, context.params.transactionalId!);
  const { record } = email;
  const draft = record.draftEmailMessageId === null ? undefined : findMessage(context.state, record.draftEmailMessageId);
  if (draft === undefined) throw conflict('No draft to publish');
  if (!context.features.sendingDomain) throw new ApiFailure(422, 'The sending domain is not verified');
  const { errors } = guardianOf(draft);
  if (errors.length > 0) throw new ApiFailure(422, `Draft failed validation: ${errors.map((error) => error.rule).join(', ')}`);
  const published = record.publishedEmailMessageId === null ? undefined : findMessage(context.state, record.publishedEmailMessageId);
  if (published === undefined) record.publishedEmailMessageId = addMessage(context, { ...draftParent(record.id), published: true }, draft.message).message.id;
  else replaceContent(context, published, draft.message);
  removeMessage(context.state, draft.message.id);
  record.draftEmailMessageId = null;
  record.dataVariables = dataVariablesIn(draft.message.lmx);
  record.updatedAt = context.now().toISOString();
  context.changed();
  return answer(s.transactionalEmail, shown(email));
}

export const sandbox: SandboxModule = {
  slices: [transactionalEmails],
  routes: [
    {
      operation: 'listTransactionalEmails',
      needs: 'content',
      run: (context) => listAnswer(s.transactionalEmail, transactionalEmails.of(context.state).map(shown), context),
    },
    {
      operation: 'getTransactionalEmail',
      needs: 'content',
      run: (context) => answer(s.transactionalEmail, shown(stored(context, context.params.transactionalId!))),
    },
    { operation: 'updateTransactionalEmail', needs: 'content', run: update },
    { operation: 'publishTransactionalEmail', needs: 'content', run: publish },
    { operation: 'createTransactionalEmail', needs: 'content', run: create },
    { operation: 'ensureTransactionalDraft', needs: 'content', run: ensureDraft },
    {
      operation: 'getTransactionalEmailMetrics',
      needs: 'metrics',
      run: (context) => answer(s.transactionalMetrics, stored(context, context.params.transactionalId!).metrics),
    },
    {
      // The legacy list, deprecated but still answered: published emails only, in their older shape.
      operation: 'listPublishedTransactionalEmails',
      run: (context) => {
        const published = transactionalEmails.of(context.state).filter(({ record }) => record.publishedEmailMessageId !== null);
        const shape = ({ record }: StoredTransactional) => ({
          id: record.id,
          name: record.name,
          lastUpdated: record.updatedAt,
          dataVariables: record.dataVariables,
        });
        return listAnswer(s.publishedTransactional, published.map(shape), context);
      },
    },
  ],
};
