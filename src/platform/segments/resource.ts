/** A segment as a resource of the API (operation-row.ts). */
import type { ResourceRow } from '../operation-row.js';

export const SEGMENT = {
  noun: 'segment',
  kind: { directory: 'segments', half: 'audience', word: 'segment' },
  list: { operation: 'listAudienceSegments', ids: 'segments', command: ['segments', 'list'] },
  get: 'getAudienceSegment',
  operations: {
    listAudienceSegments: { method: 'GET', path: '/v1/audience-segments' },
    getAudienceSegment: { method: 'GET', path: '/v1/audience-segments/{audienceSegmentId}' },
    createAudienceSegment: { method: 'POST', path: '/v1/audience-segments', writes: 'segment' },
  },
} as const satisfies ResourceRow;
