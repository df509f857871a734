/**
 * A workflow as a file (`workflows/<slug>--<id>/workflow.yaml` in a content tree): its shape. The
 * rules of the platform's graph, checked with no key and no request, are rules.ts's.
 *
 * Nodes are named by local keys (`wait-1h`, `branch`, `pro-users`) rather than the platform's ids,
 * which differ in each account and are unknown before a node exists; the content tree's state
 * file maps each key to the node's id per account. A node holds its `type` (the API's
 * `typeName`), `next` (keys) and the fields of its type that can be set, under the API's names;
 * what names an account's record (a segment, the mailing list) is written by name, and a
 * send-email node names its email by a path in the workflow's directory.
 */
import { z } from '../../base/shapes.js';
import { facetsOf, type NODE_FACETS, type NodeTypeName } from './node-facets.js';
import { eventProperty, timerUnit } from './node-types.js';

export const WORKFLOW_FILE = 'workflow.yaml';

/** A node's key: lower case letters, digits and dashes, as a pull makes them; at most 60 characters. */
export const NODE_KEY = /^[a-z0-9][a-z0-9-]{0,59}$/;

/** Where a send-email node's email lives, from the workflow's directory: `emails/<slug>/email.json`, with `email.lmx` beside it. */
export const EMAIL_PATH = /^emails\/([a-z0-9][a-z0-9-]{0,59})\/email\.json$/;

export function emailPathOf(slug: string): string {
  return `emails/${slug}/email.json`;
}

const comparison = z.strictObject({ value: z.union([z.string(), z.number(), z.boolean()]), operator: z.string() });
const audienceFilter = z.looseObject({ match: z.enum(['all', 'any']), conditions: z.array(z.unknown()) });

/**
 * The fields a file holds for each node type, in the order they are written: those an update can
 * set, a segment by its name (`segment`) instead of its id, a send-email node's `email` path, and
 * an experiment's settings the API cannot set (`experimentType`, `url`), kept so that a plan can
 * name them. A type not listed keeps every field it was pulled with.
 */
export const FILE_FIELDS = {
  SignupTrigger: {},
  BlankTrigger: {},
  EventTrigger: { eventName: z.string().nullable(), eventProperties: z.array(eventProperty).optional(), reEligible: z.boolean() },
  ContactPropertyTrigger: {
    contactPropertyQuery: z.strictObject({ key: z.string(), was: comparison, is: comparison }).nullable(),
    reEligible: z.boolean(),
  },
  AddToListTrigger: { reEligible: z.boolean() },
  // The description types the node's audienceFilter "object or null": null is no filter, as absent is.
  AudienceFilter: { segment: z.string().optional(), audienceFilter: audienceFilter.nullable().optional(), appliesDownstream: z.boolean().optional() },
  TimerAction: { amount: z.number(), unit: timerUnit },
  SendEmailAction: { email: z.string() },
  BranchNode: {},
  ExperimentBranchNode: { samplingRate: z.number(), experimentType: z.enum(['webhook', 'autosplit']).optional(), url: z.string().optional() },
  VariantNode: { isControl: z.boolean() },
  ExitAction: {},
} satisfies { [T in NodeTypeName]: Record<keyof (typeof NODE_FACETS)[T]['file'], z.ZodType> };

/**
 * Whether `a` and `b` are the same paths out of a node of `type`: in any order for a type whose
 * paths' order means nothing (an experiment's, node-facets.ts; which path is the control is a
 * field of its VariantNode, compared as any field is), else in the same order.
 */
export function samePaths(type: string, a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (facetsOf(type)?.paths?.anyOrder !== true) return a.every((key, index) => key === b[index]);
  const others = new Set(b);
  return others.size === b.length && a.every((key) => others.has(key));
}

/** An experiment's paths in the order `like` gives them when they are the same paths (samePaths); otherwise as they are. */
export function pathsOrderedLike(type: string, next: string[], like: readonly string[] | undefined): string[] {
  return facetsOf(type)?.paths?.anyOrder === true && like !== undefined && samePaths(type, next, like) ? [...like] : next;
}

/** Fields the API takes no update of: a plan names them as left to set in the app. */
export const READ_ONLY_FIELDS = new Set(['eventProperties', 'experimentType', 'url']);

export const fileNode = z.looseObject({ type: z.string().min(1), next: z.array(z.string()).default([]) });
export type FileNode = z.infer<typeof fileNode> & Record<string, unknown>;

export const workflowFile = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  emoji: z.string().optional(),
  /** As pulled: Draft, Sending, Paused. Read-only: a push never starts, pauses or publishes a workflow. */
  status: z.string().optional(),
  /** The workflow's mailing list by name; null or absent for none. */
  mailingList: z.string().nullable().optional(),
  /** The key of the trigger. */
  root: z.string().min(1),
  nodes: z.record(z.string(), fileNode),
});
export type WorkflowFile = z.infer<typeof workflowFile>;
