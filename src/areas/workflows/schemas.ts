/** Workflows, their graphs and the fields of each node type. */
import { timestamp, withStrictForm, z } from '../../api/schemas.js';

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

/** A node checked against exactly its type's fields, in the simplified or the full view. */
function strictNode(shapeOf: (type: KnownNodeType) => Record<string, z.ZodType>, strictly: (schema: z.ZodType) => z.ZodType): z.ZodType {
  const types = Object.keys(nodeFieldsByType) as KnownNodeType[];
  const variants = types.map((type) => strictly(z.object({ ...shapeOf(type), typeName: z.literal(type) })));
  const known = z.discriminatedUnion('typeName', variants as [z.ZodObject, ...z.ZodObject[]]);
  // The API is in alpha: a node of a type loopsctl does not know passes with whatever it carries.
  const unknown = z.looseObject({ typeName: z.string().refine((typeName) => !isKnownNodeType(typeName)), nextNodeIds: z.array(z.string()) });
  return z.union([known, unknown]);
}

export const simplifiedNode = withStrictForm(byTypeName(z.looseObject(nodeBase), simplifiedNodeShape), (strictly) => strictNode(simplifiedNodeShape, strictly));

export const workflowNode = withStrictForm(byTypeName(z.looseObject(fullNodeBase), workflowNodeShape), (strictly) => strictNode(workflowNodeShape, strictly));
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
