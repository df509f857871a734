/** Audience segments and their filter conditions. */
import { timestamp, z } from '../../api/schemas.js';

export const segmentCondition = z.looseObject({
  type: z.string(),
  key: z.string().optional(),
  operator: z.string(),
  value: z.unknown().optional(),
});
export type SegmentCondition = z.infer<typeof segmentCondition>;

export const audienceSegment = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  filter: z.looseObject({ match: z.string().optional(), conditions: z.array(segmentCondition) }).nullable(),
});
export type AudienceSegment = z.infer<typeof audienceSegment>;
