/** The audience segment operations of the API. */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import type { AudienceFilterRequest } from '../../platform/segments/filter.js';
import { audienceSegment, type AudienceSegment } from '../../platform/segments/schemas.js';

export const segments: ListResource<AudienceSegment> = { path: '/v1/audience-segments', item: audienceSegment };

export function getSegment(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/audience-segments/${id}` }, audienceSegment);
}

export interface CreateSegmentBody {
  name: string;
  description?: string;
  filter: AudienceFilterRequest;
}

export function createSegment(api: ApiClient, body: CreateSegmentBody) {
  // Each create makes a new segment (a second one is refused for its name): never sent twice.
  return api.call({ method: 'POST', path: '/v1/audience-segments', body, idempotent: false }, audienceSegment);
}
