/** Groups: transactional groups and campaign groups share one shape. */
import { z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';

/** Transactional groups and campaign groups share one shape. */
export const group = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Group = z.infer<typeof group>;

export { RESERVED_GROUP_NAME } from './names.js';
