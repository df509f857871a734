/** The sandbox's audience segments. */
import { z } from '../../api/schemas.js';
import { listAnswer, seedTime, seedId, slice, type SandboxModule } from '../../sandbox/module.js';
import { audienceSegment, type AudienceSegment } from './schemas.js';

const seedSegments: AudienceSegment[] = [
  {
    id: seedId('segment/Paying customers'),
    name: 'Paying customers',
    description: 'Everyone on a paid plan',
    createdAt: seedTime(90),
    updatedAt: seedTime(640),
    filter: { match: 'any', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }, { type: 'property', key: 'plan', operator: 'equals', value: 'business' }] },
  },
  {
    id: seedId('segment/Trials in Europe'),
    name: 'Trials in Europe',
    description: 'Trial accounts with a European billing country',
    createdAt: seedTime(310),
    updatedAt: seedTime(310),
    filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'trial' }, { type: 'property', key: 'region', operator: 'equals', value: 'EU' }] },
  },
  {
    id: seedId('segment/Dormant'),
    name: 'Dormant',
    description: 'No sign-in for the last 90 days',
    createdAt: seedTime(880),
    updatedAt: seedTime(905),
    filter: { match: 'all', conditions: [{ type: 'property', key: 'lastSignInAt', operator: 'before', value: '2024-11-01T00:00:00.000Z' }] },
  },
];

export const segments = slice('segments', z.array(audienceSegment), () => seedSegments);

export const sandbox: SandboxModule = {
  slices: [segments],
  routes: [{ method: 'GET', path: '/v1/audience-segments', run: ({ query, state }) => listAnswer(audienceSegment, segments.of(state), query) }],
};
