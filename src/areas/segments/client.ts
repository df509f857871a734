/** The audience segment operations of the API. */
import type { ListResource } from '../../api/client.js';
import { audienceSegment, type AudienceSegment } from './schemas.js';

export const segments: ListResource<AudienceSegment> = { path: '/v1/audience-segments', item: audienceSegment };
