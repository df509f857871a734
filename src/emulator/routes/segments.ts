/** The sandbox's audience segments: read them, and create new ones from a checked filter. */
import { z } from '../../base/shapes.js';
import { checkAudienceFilter, FilterFault } from '../../platform/segments/filter.js';
import { type AudienceSegment, audienceSegment } from '../../platform/segments/schemas.js';
import {
  answer,
  badRequest,
  find,
  later,
  lazily,
  listAnswer,
  notFound,
  objectBody,
  type RouteContext,
  type SandboxModule,
  seedId,
  seedTime,
  slice,
  stringField,
} from '../module.js';

const seedSegments = lazily((): AudienceSegment[] => [
  {
    id: seedId('segment/Paying customers'),
    name: 'Paying customers',
    description: 'Everyone on a paid plan',
    createdAt: seedTime(90),
    updatedAt: seedTime(640),
    filter: {
      match: 'any',
      conditions: [
        { type: 'property', key: 'plan', operator: 'equals', value: 'pro' },
        { type: 'property', key: 'plan', operator: 'equals', value: 'business' },
      ],
    },
  },
  {
    id: seedId('segment/Trials in Europe'),
    name: 'Trials in Europe',
    description: 'Trial accounts with a European billing country',
    createdAt: seedTime(310),
    updatedAt: seedTime(310),
    filter: {
      match: 'all',
      conditions: [
        { type: 'property', key: 'plan', operator: 'equals', value: 'trial' },
        { type: 'property', key: 'region', operator: 'equals', value: 'EU' },
      ],
    },
  },
  {
    id: seedId('segment/Dormant'),
    name: 'Dormant',
    description: 'No sign-in for the last 90 days',
    createdAt: seedTime(880),
    updatedAt: seedTime(905),
    filter: { match: 'all', conditions: [{ type: 'property', key: 'lastSignInAt', operator: 'before', value: '2024-11-01T00:00:00.000Z' }] },
  },
  {
    id: seedId('segment/Engaged newsletter readers'),
    name: 'Engaged newsletter readers',
    description: 'Opted in, signed up last autumn, and opened the newsletter',
    createdAt: seedTime(1_020),
    updatedAt: seedTime(1_020),
    filter: {
      match: 'all',
      conditions: [
        { type: 'optIn', status: 'accepted' },
        { type: 'property', key: 'signedUpAt', operator: 'between', value: { from: '2024-09-01T00:00:00.000Z', to: '2024-11-30T23:59:59.000Z' } },
        { type: 'activity', action: 'opened', negate: false, target: 'campaign', id: seedId('campaign/October newsletter') },
      ],
    },
  },
]);

// What a new segment's activity conditions name, loaded for the create alone (see `later`).
const campaignRecords = later(() => import('./campaign-records.js'));
const workflowRecords = later(() => import('./workflow-records.js'));

export const segments = slice('segments', z.array(audienceSegment), seedSegments);

/** A filter as the API would take it, or a 400 that says what is wrong with it. */
export function requestFilter(value: unknown): AudienceSegment['filter'] {
  try {
    return checkAudienceFilter(value);
  } catch (error) {
    if (error instanceof FilterFault) throw badRequest(`invalid filter: ${error.at}: ${error.message}`);
    throw error;
  }
}

/**
 * 404 when an activity condition names a campaign, workflow or workflow email the team does not
 * have, as the description documents for a create. A workflow email is named by its send-email
 * node's id or by that node's email message's id.
 */
function checkReferences(filter: AudienceSegment['filter'], state: RouteContext['state']): void {
  filter?.conditions.forEach((condition, index) => {
    if (condition.type !== 'activity') return;
    const { target, id } = condition;
    const found =
      target === 'campaign'
        ? campaignRecords
            .get()
            .campaigns.of(state)
            .some((campaign) => campaign.id === id)
        : target === 'workflow'
          ? workflowRecords
              .get()
              .workflows.of(state)
              .some((workflow) => workflow.id === id)
          : workflowRecords
              .get()
              .workflows.of(state)
              .some((workflow) => workflow.nodes.some((node) => node.typeName === 'SendEmailAction' && (node.id === id || node.emailMessageId === id)));
    const noun = target === 'workflowEmail' ? 'workflow email' : target;
    if (!found) throw notFound(`the filter references a ${noun} that does not exist: conditions[${index}].id ${id}`);
  });
}

function createSegment({ body, state, now, newId, changed }: RouteContext) {
  const fields = objectBody(body, ['name', 'description', 'filter'], ['name', 'filter']);
  const name = stringField(fields, 'name');
  if (name.trim() === '' || name.length > 255) throw badRequest('name must be 1 to 255 characters');
  const description = fields.description === undefined ? null : stringField(fields, 'description');
  if (description !== null && description.length > 1000) throw badRequest('description must be at most 1000 characters');
  const all = segments.of(state);
  if (all.some((segment) => segment.name === name)) throw badRequest(`a segment named "${name}" already exists`);
  const filter = requestFilter(fields.filter);
  checkReferences(filter, state);
  const time = now().toISOString();
  const segment: AudienceSegment = { id: newId(), name, description, createdAt: time, updatedAt: time, filter };
  all.push(segment);
  changed();
  return answer(audienceSegment, segment);
}

export const sandbox: SandboxModule = {
  slices: [segments],
  routes: [
    { operation: 'listAudienceSegments', run: (context) => listAnswer(audienceSegment, segments.of(context.state), context) },
    { operation: 'createAudienceSegment', needs: 'content', uses: [campaignRecords, workflowRecords], run: createSegment },
    {
      operation: 'getAudienceSegment',
      needs: 'content',
      run: ({ params, state }) => answer(audienceSegment, find(segments.of(state), params.audienceSegmentId!, 'audience segment')),
    },
  ],
};
