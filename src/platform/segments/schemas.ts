/** Audience segments and their filters: property, opt-in and activity conditions. */
import { z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';

/**
 * One condition of a filter. Which fields it has depends on its type (property: key, operator,
 * value; optIn: status; activity: action, negate, target, id), so all but the type are optional
 * here: a kind loopsctl does not know still lists.
 */
export const segmentCondition = z.looseObject({
  type: z.string(),
  key: z.string().optional(),
  operator: z.string().optional(),
  value: z.unknown().optional(),
  status: z.string().nullable().optional(),
  action: z.string().optional(),
  negate: z.boolean().optional(),
  target: z.string().optional(),
  id: z.string().optional(),
});
export type SegmentCondition = z.infer<typeof segmentCondition>;

export const audienceFilter = z.looseObject({ match: z.string().optional(), conditions: z.array(segmentCondition) });
export type AudienceFilter = z.infer<typeof audienceFilter>;

export const audienceSegment = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  filter: audienceFilter.nullable(),
});
export type AudienceSegment = z.infer<typeof audienceSegment>;
