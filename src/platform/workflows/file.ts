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
import { facetsOf } from './node-facets.js';

export const WORKFLOW_FILE = 'workflow.yaml';

/** A node's key: lower case letters, digits and dashes, as a pull makes them; at most 60 characters. */
export const NODE_KEY = /^[a-z0-9][a-z0-9-]{0,59}$/;

/** Where a send-email node's email lives, from the workflow's directory: `emails/<slug>/email.json`, with `email.lmx` beside it. */
export const EMAIL_PATH = /^emails\/([a-z0-9][a-z0-9-]{0,59})\/email\.json$/;

export function emailPathOf(slug: string): string {
  return `emails/${slug}/email.json`;
}

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

export const fileNode = z.looseObject({ type: z.string().check(z.minLength(1)), next: z._default(z.array(z.string()), []) });
export type FileNode = z.infer<typeof fileNode> & Record<string, unknown>;

export const workflowFile = z.strictObject({
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  emoji: z.optional(z.string()),
  /** As pulled: Draft, Sending, Paused. Read-only: a push never starts, pauses or publishes a workflow. */
  status: z.optional(z.string()),
  /** The workflow's mailing list by name; null or absent for none. */
  mailingList: z.optional(z.nullable(z.string())),
  /** The key of the trigger. */
  root: z.string().check(z.minLength(1)),
  nodes: z.record(z.string(), fileNode),
});
export type WorkflowFile = z.infer<typeof workflowFile>;
