/** Email messages: their content (subject, sender, LMX body, fallbacks), previews and Guardian checks. */
import { z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';

import { FALLBACK_FIELDS, type FallbackField } from './fallbacks.js';

export { FALLBACK_FIELD_NAMES, FALLBACK_FIELDS, type FallbackKind } from './fallbacks.js';

/** Fallback values of one kind of variable, keyed by its name. */
const fallbacks = z.record(z.string(), z.string());

/** The fallback fields as a message, or a file beside its LMX, holds them: each optional. */
export const FALLBACKS_SHAPE = {
  [FALLBACK_FIELDS.contact]: z.optional(fallbacks),
  [FALLBACK_FIELDS.event]: z.optional(fallbacks),
  [FALLBACK_FIELDS.data]: z.optional(fallbacks),
};

/** A non-fatal issue found while compiling submitted LMX. */
const lmxWarning = z.looseObject({
  rule: z.string(),
  severity: z.string(),
  message: z.string(),
  path: z.optional(z.string()),
});
export type LmxWarning = z.infer<typeof lmxWarning>;

export const emailMessage = z.looseObject({
  id: z.string(),
  campaignId: z.optional(z.string()),
  transactionalId: z.optional(z.string()),
  subject: z.string(),
  previewText: z.string(),
  fromName: z.string(),
  fromEmail: z.string(),
  replyToEmail: z.string(),
  ccEmail: z.optional(z.string()),
  bccEmail: z.optional(z.string()),
  languageCode: z.optional(z.string()),
  emailFormat: z.string(),
  lmx: z.string(),
  contentRevisionId: z.nullable(z.string()),
  updatedAt: timestamp,
  ...FALLBACKS_SHAPE,
  /** Only on update answers, when the LMX compiled with warnings. */
  warnings: z.optional(z.array(lmxWarning)),
});
export type EmailMessage = z.infer<typeof emailMessage>;

export const EMAIL_FORMATS = ['styled', 'plain'] as const;

/** The API refuses larger LMX bodies with 413. */
export const MAX_LMX_BYTES = 100 * 1024;

/** The fields an update may set; fallbacks merge per key, and null removes one. */
export interface EmailMessageUpdate extends Partial<Record<FallbackField, Record<string, string | null>>> {
  expectedRevisionId?: string;
  subject?: string;
  previewText?: string;
  fromName?: string;
  fromEmail?: string;
  replyToEmail?: string;
  ccEmail?: string;
  bccEmail?: string;
  languageCode?: string;
  emailFormat?: (typeof EMAIL_FORMATS)[number];
  lmx?: string;
}

/** The values a preview renders with; which kinds are accepted depends on the message's parent. */
export const previewVariables = z.strictObject({
  contactProperties: z.optional(z.record(z.string(), z.string())),
  eventProperties: z.optional(z.record(z.string(), z.string())),
  dataVariables: z.optional(z.record(z.string(), z.string())),
});
export type PreviewVariables = z.infer<typeof previewVariables>;

export const previewAnswer = z.looseObject({ id: z.string() });

const guardianRule = z.looseObject({
  rule: z.string(),
  title: z.string(),
  description: z.string(),
  items: z.array(z.looseObject({ label: z.string(), codeName: z.optional(z.string()) })),
});
export type GuardianRule = z.infer<typeof guardianRule>;

export const guardianReport = z.looseObject({
  errors: z.array(guardianRule),
  warnings: z.array(guardianRule),
});
export type GuardianReport = z.infer<typeof guardianReport>;
