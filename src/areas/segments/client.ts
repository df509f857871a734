/** The audience segment operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { at } from '../../platform/operation-row.js';
import type { AudienceFilterRequest } from '../../platform/segments/filter.js';
import { SEGMENT } from '../../platform/segments/resource.js';
import { type AudienceSegment, audienceSegment } from '../../platform/segments/schemas.js';

export const segments: ListResource<AudienceSegment> = { path: SEGMENT.operations.listAudienceSegments.path, item: audienceSegment };

export function getSegment(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(SEGMENT.operations.getAudienceSegment, id) }, audienceSegment);
}

export interface CreateSegmentBody {
  name: string;
  description?: string;
  filter: AudienceFilterRequest;
}

export function createSegment(api: ApiClient, body: CreateSegmentBody) {
  // Each create makes a new segment (a second one is refused for its name): never sent twice.
  return api.call({ method: 'POST', path: SEGMENT.operations.createAudienceSegment.path, body, idempotent: false }, audienceSegment);
}
