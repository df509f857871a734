/** The engagement metrics the API reports for a campaign and for a workflow's email. */
import { madeOnUse, z } from '../base/shapes.js';

/**
 * Engagement counters of a campaign's or a workflow email's sends, all time. Made on first use:
 * the workflows' client and the sandbox's workflows load this module, and a listing checks none.
 */
export const emailMetrics = madeOnUse(() =>
  z.looseObject({
    sends: z.number().int(),
    opens: z.number().int(),
    clicks: z.number().int(),
    unsubscribes: z.number().int(),
    spamReports: z.number().int(),
    hardBounces: z.number().int(),
    softBounces: z.number().int(),
  }),
);
export type EmailMetrics = z.infer<typeof emailMetrics>;
