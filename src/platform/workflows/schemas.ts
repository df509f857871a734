/**
 * Workflows, their graphs, their nodes in each view, and the answers of the editing operations.
 * The fields of each node type come from node-types.ts (the types, from node-facets.ts); a node of a type loopsctl does not know is
 * checked only for the common fields (the workflow API is in alpha). But for the listing's, each
 * schema is made on its first use (madeOnUse): a listing, and the sandbox's check of its stored
 * nodes, load this module and build none of the rest.
 */
import { lazily } from '../../base/lazily.js';
import { issuesAt, madeOnUse, recordCheckedInPlace, withStrictForm, z } from '../../base/shapes.js';
import { timestamp } from '../schemas.js';
import { NODE_TYPE_NAMES, type NodeTypeName } from './node-facets.js';
import { NODE_TYPES } from './node-types.js';

/** Companion list of workflows (not in the reference; its shape follows the published description). */
export const workflowSummary = z.looseObject({
  id: z.string(),
  /** The record's page in the Loops app. */
  url: z.optional(z.string()),
  name: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type WorkflowSummary = z.infer<typeof workflowSummary>;

const KNOWN_TYPES = NODE_TYPE_NAMES;

/**
 * A node schema for one view: the view's common fields, then the fields of the node's type, with
 * one schema per type built once here (never one per node), so checking a graph is one lookup and
 * one parse per node. Its strict form, for the sandbox, names exactly the fields of each type.
 */
function nodeSchema<Common extends z.$ZodShape>(common: Common, typeFields: (type: NodeTypeName) => Record<string, z.ZodMiniType>) {
  // Each made on the first check of a node of its type, for this view alone: a command that checks
  // no node of it (a listing, the many answers that carry no nodes) never pays for them. Only their
  // issues are used, so each is a plain object, which names its fields alone rather than copying the
  // node's every field as a loose one would (the node itself passes through the loose schema above them).
  const byType = new Map<NodeTypeName, z.ZodMiniType>();
  const schema = z.looseObject({ typeName: z.string(), nextNodeIds: z.array(z.string()), ...common }).check(
    z.superRefine((node, ctx) => {
      const type = node.typeName as NodeTypeName;
      if (!KNOWN_TYPES.includes(type)) return;
      let typed = byType.get(type);
      if (typed === undefined) {
        typed = z.object(typeFields(type));
        byType.set(type, typed);
      }
      const result = typed.safeParse(node);
      if (!result.success) for (const issue of issuesAt([], result.error.issues)) ctx.addIssue(issue);
    }),
  );
  return withStrictForm(schema, (strictly) => {
    const variants = KNOWN_TYPES.map((type) =>
      strictly(z.object({ nextNodeIds: z.array(z.string()), ...common, ...typeFields(type), typeName: z.literal(type) })),
    );
    const known = z.discriminatedUnion('typeName', variants as [z.ZodMiniObject, ...z.ZodMiniObject[]]);
    // The API is in alpha: a node of a type loopsctl does not know passes with whatever it carries.
    const unknown = z.looseObject({
      typeName: z.string().check(z.refine((typeName) => !(KNOWN_TYPES as string[]).includes(typeName))),
      nextNodeIds: z.array(z.string()),
    });
    return z.union([known, unknown]);
  });
}

const fullFields = (type: NodeTypeName): Record<string, z.ZodMiniType> => NODE_TYPES[type].fields;

/** The simplified view shows some of a type's fields, each when present. */
function simplifiedFields(type: NodeTypeName): Record<string, z.ZodMiniType> {
  const declared = NODE_TYPES[type];
  const fields = declared.fields as Record<string, z.ZodMiniType>;
  return Object.fromEntries(declared.simplified.map((key) => [key, z.optional(fields[key]!)]));
}

/** The revision of the workflow graph an answer was read from (the published description names it). */
const workflowRevisionId = () => z.optional(z.nullable(z.string()));

const simplifiedNode = lazily(() => nodeSchema({}, simplifiedFields));

/** A node in full, as GET .../nodes/{nodeId} answers. */
export const workflowNode = madeOnUse(() => nodeSchema({ id: z.string(), workflowId: z.string(), workflowRevisionId: workflowRevisionId() }, fullFields));
export type WorkflowNode = z.infer<typeof workflowNode> & Record<string, unknown>;

export const workflow = madeOnUse(() =>
  z.looseObject({
    id: z.string(),
    /** The record's page in the Loops app. */
    url: z.optional(z.string()),
    workflowRevisionId: workflowRevisionId(),
    /** Draft, Sending, Paused or PausedAndQueueing; kept open, as the workflow API is in alpha. */
    status: z.optional(z.string()),
    name: z.optional(z.string()),
    description: z.optional(z.string()),
    emoji: z.optional(z.string()),
    mailingListId: z.optional(z.nullable(z.string())),
    rootNodeId: z.nullable(z.string()),
    // Checked in place: a workflow's nodes can number tens of thousands.
    nodes: recordCheckedInPlace(simplifiedNode()),
  }),
);
export type Workflow = z.infer<typeof workflow>;

/** A node as the editing operations return it: its own fields without workflowId. */
const mutationNode = () => nodeSchema({ id: z.string() }, fullFields);
/** The same with the workflow's revision after the change. */
const afterChange = () => ({ id: z.string(), workflowRevisionId: z.string() });

export const createdNodeAnswer = madeOnUse(() =>
  z.looseObject({
    node: nodeSchema({ ...afterChange(), createdChildNodes: z.optional(z.array(mutationNode())) }, fullFields),
    workflow,
  }),
);
export type CreatedNodeAnswer = z.infer<typeof createdNodeAnswer>;

export const addedBranchAnswer = madeOnUse(() => z.looseObject({ node: nodeSchema(afterChange(), fullFields), workflow }));
export type AddedBranchAnswer = z.infer<typeof addedBranchAnswer>;

/** Update and reroute: the changed node, with the workflow after the change beside its fields. */
export const changedNodeAnswer = madeOnUse(() => nodeSchema({ ...afterChange(), workflow }, fullFields));
export type ChangedNodeAnswer = z.infer<typeof changedNodeAnswer>;

/** A dry run, or a change held back because contacts are queued where it would remove them. */
const preview = () => ({ status: z.enum(['dryRun', 'queuedContactsFound']), queuedContactCount: z.number() });
const applied = () => ({ workflowRevisionId: z.string(), queuedContactCount: z.number(), workflow });

export const deleteNodeAnswer = madeOnUse(() =>
  z.union([
    z.looseObject({ ...preview(), nodeIds: z.array(z.string()) }),
    z.looseObject({ status: z.literal('deleted'), nodeIds: z.array(z.string()), ...applied() }),
  ]),
);
export type DeleteNodeAnswer = z.infer<typeof deleteNodeAnswer>;

export const mailingListAnswer = madeOnUse(() =>
  z.union([
    z.looseObject({ ...preview(), mailingListId: z.nullable(z.string()) }),
    z.looseObject({ status: z.literal('updated'), mailingListId: z.nullable(z.string()), ...applied() }),
  ]),
);
export type MailingListAnswer = z.infer<typeof mailingListAnswer>;

/** The revision to change, as every editing operation takes it: null for a workflow that has none yet. */
export type ExpectedRevision = string | null;

export type InsertPosition =
  | { insertMode: 'after'; fromNodeId: string }
  | { insertMode: 'before'; toNodeId: string }
  | { insertMode: 'between'; fromNodeId: string; toNodeId: string };

export interface DestructiveOptions {
  dryRun?: boolean;
  queuedContactPolicy?: 'fail' | 'discard';
}
