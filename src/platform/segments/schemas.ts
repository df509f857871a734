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
  key: z.optional(z.string()),
  operator: z.optional(z.string()),
  value: z.optional(z.unknown()),
  status: z.optional(z.nullable(z.string())),
  action: z.optional(z.string()),
  negate: z.optional(z.boolean()),
  target: z.optional(z.string()),
  id: z.optional(z.string()),
});
export type SegmentCondition = z.infer<typeof segmentCondition>;

export const audienceFilter = z.looseObject({ match: z.optional(z.string()), conditions: z.array(segmentCondition) });
export type AudienceFilter = z.infer<typeof audienceFilter>;

export const audienceSegment = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
  filter: z.nullable(audienceFilter),
});
export type AudienceSegment = z.infer<typeof audienceSegment>;
