/** Mailing lists. */
import { z } from '../../base/shapes.js';

export const mailingList = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  isPublic: z.boolean(),
});
export type MailingList = z.infer<typeof mailingList>;

export const mailingLists = z.array(mailingList);
