/** The engagement metrics the API reports for a campaign and for a workflow's email. */
import { madeOnUse, z } from '../base/shapes.js';

/**
 * Engagement counters of a campaign's or a workflow email's sends, all time. Made on first use:
 * the workflows' client and the sandbox's workflows load this module, and a listing checks none.
 */
export const emailMetrics = madeOnUse(() =>
  z.looseObject({
    sends: z.int(),
    opens: z.int(),
    clicks: z.int(),
    unsubscribes: z.int(),
    spamReports: z.int(),
    hardBounces: z.int(),
    softBounces: z.int(),
  }),
);
export type EmailMetrics = z.infer<typeof emailMetrics>;
