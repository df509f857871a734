/**
 * Resource shapes of the Loops API, as its reference documents them. These schemas are the single
 * source of truth: types are inferred from them, the client checks every answer with them, and the
 * sandbox builds its answers with them. Objects are loose: fields the API adds later pass through.
 */
import * as z from 'zod';

/** zod itself, for modules that build schemas of their own: one copy of zod in the bundle. */
export { z };

const timestamp = z.string();

export const errorBody = z.looseObject({ message: z.string() });

export const pagination = z.looseObject({
  totalResults: z.number().int(),
  returnedResults: z.number().int(),
  perPage: z.number().int(),
  totalPages: z.number().int(),
  nextCursor: z.string().nullable(),
  nextPage: z.string().nullable(),
});
export type Pagination = z.infer<typeof pagination>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({ pagination, data: z.array(item) });
}
export interface Page<T> {
  pagination: Pagination;
  data: T[];
}

export const apiKeyInfo = z.looseObject({ success: z.boolean(), teamName: z.string() });

export const transactionalMetrics = z.looseObject({
  sends: z.number().int(),
  deliveries: z.number().int(),
  spamReports: z.number().int(),
  hardBounces: z.number().int(),
  softBounces: z.number().int(),
});
export type TransactionalMetrics = z.infer<typeof transactionalMetrics>;

/** A transactional email as the list operation returns it. */
export const transactionalEmail = z.looseObject({
  id: z.string(),
  name: z.string(),
  draftEmailMessageId: z.string().nullable(),
  publishedEmailMessageId: z.string().nullable(),
  transactionalGroupId: z.string().nullable().optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
  dataVariables: z.array(z.string()),
});
export type TransactionalEmail = z.infer<typeof transactionalEmail>;

/** The record create and ensure-draft answer with: it also names the draft's content revision. */
export const transactionalDraftRecord = transactionalEmail.extend({
  draftEmailMessageContentRevisionId: z.string().nullable(),
});
export type TransactionalDraftRecord = z.infer<typeof transactionalDraftRecord>;

/** Transactional groups and campaign groups share one shape. */
export const group = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Group = z.infer<typeof group>;

/** The name no group may take, and the group that cannot be edited. */
export const RESERVED_GROUP_NAME = 'Unsorted';

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

const color = z.string();
const size = z.number();

/** Theme styles, in the reference's groups; the grouping is what `themes show` prints. */
export const themeStyleGroups = {
  'Page background': { backgroundColor: color, backgroundXPadding: size, backgroundYPadding: size },
  Body: { bodyColor: color, bodyXPadding: size, bodyYPadding: size, bodyFontFamily: z.string(), bodyFontCategory: z.string() },
  Border: { borderColor: color, borderWidth: size, borderRadius: size },
  Button: {
    buttonBodyColor: color,
    buttonBodyXPadding: size,
    buttonBodyYPadding: size,
    buttonBorderColor: color,
    buttonBorderWidth: size,
    buttonBorderRadius: size,
    buttonTextColor: color,
    buttonTextFormat: size,
    buttonTextFontSize: size,
  },
  Divider: { dividerColor: color, dividerBorderWidth: size },
  'Base text': { textBaseColor: color, textBaseFontSize: size, textBaseLineHeight: size, textBaseLetterSpacing: size, textLinkColor: color },
  'Heading 1': { heading1Color: color, heading1FontSize: size, heading1LineHeight: size, heading1LetterSpacing: size },
  'Heading 2': { heading2Color: color, heading2FontSize: size, heading2LineHeight: size, heading2LetterSpacing: size },
  'Heading 3': { heading3Color: color, heading3FontSize: size, heading3LineHeight: size, heading3LetterSpacing: size },
} as const;

const g = themeStyleGroups;
export const themeStyles = z.looseObject({
  ...g['Page background'],
  ...g.Body,
  ...g.Border,
  ...g.Button,
  ...g.Divider,
  ...g['Base text'],
  ...g['Heading 1'],
  ...g['Heading 2'],
  ...g['Heading 3'],
});
export type ThemeStyles = z.infer<typeof themeStyles>;

export const theme = z.looseObject({
  id: z.string(),
  name: z.string(),
  styles: themeStyles,
  isDefault: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Theme = z.infer<typeof theme>;

/** Companion list of workflows (not in the reference; its shape follows the published description). */
export const workflowSummary = z.looseObject({
  id: z.string(),
  name: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type WorkflowSummary = z.infer<typeof workflowSummary>;

export const timerUnits = ['m', 'h', 'd', 's'] as const;

/**
 * The type-specific fields of each node type the reference names. The workflow API is in alpha:
 * a node whose typeName is not listed here is still accepted, checked only for the common fields.
 */
const comparison = z.looseObject({
  value: z.union([z.string(), z.number(), z.boolean()]),
  operator: z.string(),
});
export type Comparison = z.infer<typeof comparison>;

export const eventProperty = z.looseObject({
  name: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'date']),
});

export const nodeFieldsByType = {
  SignupTrigger: {},
  BlankTrigger: {},
  ExitAction: {},
  EventTrigger: {
    eventName: z.string().nullable().optional(),
    eventProperties: z.array(eventProperty).optional(),
    reEligible: z.boolean(),
  },
  ContactPropertyTrigger: {
    contactPropertyQuery: z.looseObject({ key: z.string(), is: comparison, was: comparison }).nullable(),
    reEligible: z.boolean(),
  },
  AddToListTrigger: { mailingListId: z.string().nullable().optional(), reEligible: z.boolean() },
  AudienceFilter: {
    audienceFilter: z.looseObject({ match: z.enum(['all', 'any']), conditions: z.array(z.unknown()) }).optional(),
    audienceSegmentId: z.string().optional(),
    appliesDownstream: z.boolean().optional(),
  },
  TimerAction: { amount: z.number(), unit: z.enum(timerUnits) },
  SendEmailAction: { emailMessageId: z.string().optional(), subject: z.string().optional() },
  BranchNode: { evalStrategy: z.string().optional() },
  ExperimentBranchNode: {
    samplingRate: z.number(),
    url: z.string().optional(),
    experimentId: z.string().optional(),
    experimentType: z.enum(['webhook', 'autosplit']),
  },
  VariantNode: { variantId: z.string().optional(), isControl: z.boolean().optional() },
} as const;
export type KnownNodeType = keyof typeof nodeFieldsByType;

export function isKnownNodeType(typeName: string): typeName is KnownNodeType {
  return Object.hasOwn(nodeFieldsByType, typeName);
}

const nodeBase = { typeName: z.string(), nextNodeIds: z.array(z.string()) };
/** The revision of the workflow graph an answer was read from (the published description names it). */
const workflowRevisionId = z.string().nullable().optional();
const fullNodeBase = { id: z.string(), workflowId: z.string(), ...nodeBase, workflowRevisionId };

/** Every field a node of a known type may carry in the simplified view: its type's, all optional. */
export function simplifiedNodeShape(type: KnownNodeType): Record<string, z.ZodType> {
  const fields = Object.entries(nodeFieldsByType[type]).map(([key, schema]) => [key, (schema as z.ZodType).optional()]);
  return { ...nodeBase, ...Object.fromEntries(fields) };
}

/** Every field a node of a known type may carry in the full view. */
export function workflowNodeShape(type: KnownNodeType): Record<string, z.ZodType> {
  return { ...fullNodeBase, ...nodeFieldsByType[type] };
}

/** Checks a node against its type's fields when the type is known; unknown types pass as they are. */
function byTypeName<T extends z.ZodType<{ typeName: string }>>(base: T, fieldsFor: (type: KnownNodeType) => Record<string, z.ZodType>) {
  return base.superRefine((node, ctx) => {
    if (!isKnownNodeType(node.typeName)) return;
    const result = z.looseObject(fieldsFor(node.typeName)).safeParse(node);
    if (result.success) return;
    for (const issue of result.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: issue.path, message: issue.message });
  });
}

export const simplifiedNode = byTypeName(z.looseObject(nodeBase), simplifiedNodeShape);

export const workflowNode = byTypeName(z.looseObject(fullNodeBase), workflowNodeShape);
export type WorkflowNode = z.infer<typeof workflowNode> & Record<string, unknown>;

export const workflow = z.looseObject({
  id: z.string(),
  workflowRevisionId,
  /** Draft, Sending, Paused or PausedAndQueueing; kept open, as the workflow API is in alpha. */
  status: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  emoji: z.string().optional(),
  mailingListId: z.string().nullable().optional(),
  rootNodeId: z.string().nullable(),
  nodes: z.record(z.string(), simplifiedNode),
});
export type Workflow = z.infer<typeof workflow>;

export const dedicatedSendingIps = z.array(z.string());
