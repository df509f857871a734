/** Transactional emails, their drafts and their metrics. */
import { z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';

export const transactionalMetrics = z.looseObject({
  sends: z.int(),
  deliveries: z.int(),
  spamReports: z.int(),
  hardBounces: z.int(),
  softBounces: z.int(),
});
export type TransactionalMetrics = z.infer<typeof transactionalMetrics>;

/** A transactional email as the list operation returns it. */
export const transactionalEmail = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** The record's page in the Loops app. */
  url: z.optional(z.string()),
  draftEmailMessageId: z.nullable(z.string()),
  publishedEmailMessageId: z.nullable(z.string()),
  transactionalGroupId: z.optional(z.nullable(z.string())),
  createdAt: timestamp,
  updatedAt: timestamp,
  dataVariables: z.array(z.string()),
});
export type TransactionalEmail = z.infer<typeof transactionalEmail>;

/** A published email as the legacy list (GET /v1/transactional) shows it. */
export const publishedTransactional = z.looseObject({
  id: z.string(),
  name: z.string(),
  lastUpdated: timestamp,
  dataVariables: z.array(z.string()),
});

/** The record create and ensure-draft answer with: it also names the draft's content revision. */
export const transactionalDraftRecord = z.extend(transactionalEmail, {
  draftEmailMessageContentRevisionId: z.nullable(z.string()),
});
export type TransactionalDraftRecord = z.infer<typeof transactionalDraftRecord>;

/** The answer to a transactional send. */
export const transactionalSent = z.looseObject({ success: z.boolean() });
