/**
 * A workflow as a file (`workflows/<slug>--<id>/workflow.yaml` in a content tree): its shape, and
 * the rules of the platform's graph that can be checked with no key and no request. Shared
 * knowledge, as the node types are: the CLI reads and checks these files, and the emulator could
 * take them as fixtures.
 *
 * Nodes are named by local keys (`wait-1h`, `branch`, `pro-users`) rather than the platform's ids,
 * which differ in each account and are unknown before a node exists; the content tree's state
 * file maps each key to the node's id per account. A node holds its `type` (the API's
 * `typeName`), `next` (keys) and the fields of its type that can be set, under the API's names;
 * what names an account's record (a segment, the mailing list) is written by name, and a
 * send-email node names its email by a path in the workflow's directory.
 */
import { z } from '../../base/shapes.js';
import { eventProperty } from './node-types.js';

export const WORKFLOW_FILE = 'workflow.yaml';

/** A workflow may hold at most this many nodes, counting the paths a branch brings (the description's limit). */
export const MAX_WORKFLOW_NODES = 400;

/** A node's key: lower case letters, digits and dashes, as a pull makes them; at most 60 characters. */
export const NODE_KEY = /^[a-z0-9][a-z0-9-]{0,59}$/;

/** Where a send-email node's email lives, from the workflow's directory: `emails/<slug>/email.json`, with `email.lmx` beside it. */
export const EMAIL_PATH = /^emails\/([a-z0-9][a-z0-9-]{0,59})\/email\.json$/;

export function emailPathOf(slug: string): string {
  return `emails/${slug}/email.json`;
}

/** A timer waits in minutes, hours or days, as the published description says (the reference adds seconds). */
export const FILE_TIMER_UNITS = ['m', 'h', 'd'] as const;

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
  AudienceFilter: { segment: z.string().optional(), audienceFilter: audienceFilter.optional(), appliesDownstream: z.boolean().optional() },
  TimerAction: { amount: z.number(), unit: z.enum(['m', 'h', 'd', 's']) },
  SendEmailAction: { email: z.string() },
  BranchNode: {},
  ExperimentBranchNode: { samplingRate: z.number(), experimentType: z.enum(['webhook', 'autosplit']).optional(), url: z.string().optional() },
  VariantNode: { isControl: z.boolean() },
  ExitAction: {},
} satisfies Record<string, Record<string, z.ZodType>>;

export type FileNodeType = keyof typeof FILE_FIELDS;

/** The fields of a node type in a file, in order; undefined for a type loopsctl does not know. */
export function fileFieldsOf(type: string): string[] | undefined {
  return Object.hasOwn(FILE_FIELDS, type) ? Object.keys(FILE_FIELDS[type as FileNodeType]) : undefined;
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

export type ProblemSeverity = 'error' | 'warning';

/** One problem of a workflow file: where (the node's key, when it is a node's), which rule, and what to write instead. */
export interface WorkflowProblem {
  severity: ProblemSeverity;
  key?: string;
  rule: string;
  message: string;
  fix: string;
}

const TRIGGERS = new Set(['SignupTrigger', 'BlankTrigger', 'EventTrigger', 'ContactPropertyTrigger', 'AddToListTrigger']);
const BRANCHES = new Set(['BranchNode', 'ExperimentBranchNode']);

export function isFileTrigger(type: string): boolean {
  return TRIGGERS.has(type);
}

/** The problems of a parsed file's graph, by the platform's rules; the file's shape is checked by `workflowFile` first. */
export function workflowProblems(file: WorkflowFile): WorkflowProblem[] {
  const problems: WorkflowProblem[] = [];
  const error = (key: string | undefined, rule: string, message: string, fix: string) => problems.push({ severity: 'error', key, rule, message, fix });
  const nodes = file.nodes;
  const keys = Object.keys(nodes);
  if (keys.length > MAX_WORKFLOW_NODES) {
    error(undefined, 'node-count', `the workflow has ${keys.length} nodes; a workflow holds at most ${MAX_WORKFLOW_NODES}`, 'split it into several workflows');
  }
  for (const key of keys) {
    if (!NODE_KEY.test(key)) error(key, 'node-key', `"${key}" is not a node key`, 'use lower-case letters, digits and dashes, at most 60 characters');
  }
  const root = nodes[file.root];
  if (root === undefined)
    error(undefined, 'root', `root names "${file.root}", which is not a node`, `name the trigger's key (one of ${keys.slice(0, 5).join(', ')})`);
  else if (!TRIGGERS.has(root.type)) error(file.root, 'root-trigger', `the root is ${root.type}, not a trigger`, 'make root the key of the trigger node');
  for (const [key, node] of Object.entries(nodes)) {
    if (TRIGGERS.has(node.type) && key !== file.root)
      error(key, 'one-trigger', 'a workflow has one trigger, its root', 'remove this trigger, or make it the root');
    for (const next of node.next) {
      if (!Object.hasOwn(nodes, next))
        error(key, 'next-exists', `next names "${next}", which is not a node`, `name a key of this file, or add a node "${next}"`);
    }
    if (new Set(node.next).size !== node.next.length) error(key, 'next-once', 'next names a node twice', 'name each node once');
    problems.push(...nodeProblems(key, node, nodes));
  }
  if (root !== undefined) {
    const reached = reachableFrom(file.root, nodes);
    for (const key of keys) if (!reached.has(key)) error(key, 'reachable', 'no path from the root leads here', `add "${key}" to a node's next, or remove it`);
    for (const key of cycleAt(file.root, nodes))
      error(key, 'no-cycle', 'following next from here comes back here', "point one of the loop's next at a node further on (an exit)");
  }
  return problems;
}

/** The rules of one node's own type and of its place under a branch. */
function nodeProblems(key: string, node: FileNode, nodes: Record<string, FileNode>): WorkflowProblem[] {
  const problems: WorkflowProblem[] = [];
  const add = (severity: ProblemSeverity, rule: string, message: string, fix: string) => problems.push({ severity, key, rule, message, fix });
  const fields = fileFieldsOf(node.type);
  if (fields === undefined) {
    add('error', 'node-type', `${node.type} is not a node type the API knows`, `use one of ${Object.keys(FILE_FIELDS).join(', ')}`);
    return problems;
  }
  const shape = z.strictObject({ type: z.string(), next: z.array(z.string()), ...FILE_FIELDS[node.type as FileNodeType] }).safeParse(node);
  if (!shape.success) {
    for (const issue of shape.error.issues) {
      const field = issue.path.map(String).join('.');
      const message = issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: not a field of ${node.type}` : `${field}: ${issue.message}`;
      add('error', 'node-fields', message, `${node.type} takes: ${['type', 'next', ...fields].join(', ')}`);
    }
  }
  const children = node.next.map((next) => nodes[next]).filter((child) => child !== undefined);
  const isExit = node.type === 'ExitAction';
  if (isExit && node.next.length > 0) add('error', 'exit-last', 'an exit leads nowhere', 'remove its next');
  if (!isExit && !BRANCHES.has(node.type) && node.next.length !== 1)
    add('error', 'one-next', `${node.type} leads to exactly one node, not ${node.next.length}`, 'name one key in next (an exit to end there)');
  if (node.type === 'BranchNode') {
    if (node.next.length < 2) add('error', 'branch-paths', `a branch has at least two paths, not ${node.next.length}`, 'add an AudienceFilter path');
    if (children.some((child) => child.type !== 'AudienceFilter'))
      add('error', 'branch-children', "a branch's paths each start with an AudienceFilter", 'put an AudienceFilter node first on each path');
  }
  if (node.type === 'ExperimentBranchNode') {
    if (node.next.length < 2) add('error', 'experiment-paths', `an experiment has at least two variants, not ${node.next.length}`, 'add a VariantNode path');
    if (children.some((child) => child.type !== 'VariantNode'))
      add('error', 'experiment-children', "an experiment's paths each start with a VariantNode", 'put a VariantNode first on each path');
    const controls = children.filter((child) => child.type === 'VariantNode' && child.isControl === true).length;
    if (controls !== 1)
      add(
        'error',
        'experiment-control',
        `an experiment has exactly one control variant, not ${controls}`,
        'set isControl: true on one variant, false on the others',
      );
    const rate = node.samplingRate;
    if (typeof rate === 'number' && (rate <= 0 || rate > 100))
      add('error', 'sampling-rate', `samplingRate is ${rate}; it is the percentage of contacts in the experiment`, 'write a number above 0, at most 100');
  }
  if (
    node.type === 'VariantNode' &&
    !Object.values(nodes).some((parent) => parent.type === 'ExperimentBranchNode' && parent.next.some((next) => nodes[next] === node))
  )
    add('error', 'variant-place', 'a VariantNode stands only right after an experiment', "move it under an ExperimentBranchNode's next");
  if (node.type === 'TimerAction') {
    if (typeof node.amount === 'number' && !(node.amount > 0)) add('error', 'timer-amount', `a wait of ${node.amount}`, 'write a positive amount');
    if (node.unit === 's') add('warning', 'timer-unit', 'a wait in seconds is not in the published description', 'write it in minutes (unit: m)');
  }
  if (node.type === 'EventTrigger' && (node.eventName === null || node.eventName === ''))
    add('warning', 'trigger-event', 'the trigger names no event, so the workflow cannot start', 'write eventName: the event that starts it');
  if (node.type === 'ContactPropertyTrigger' && node.contactPropertyQuery === null)
    add('warning', 'trigger-property', 'the trigger names no contact property, so the workflow cannot start', 'write contactPropertyQuery: {key, was, is}');
  if (node.type === 'SendEmailAction' && typeof node.email === 'string' && !EMAIL_PATH.test(node.email))
    add('error', 'email-path', `email is "${node.email}"`, `name the email as ${emailPathOf(key)}`);
  if (node.type === 'AudienceFilter' && node.segment !== undefined && node.audienceFilter !== undefined)
    add('error', 'filter-or-segment', 'an audience filter takes a segment or a filter, not both', 'keep one of segment and audienceFilter');
  return problems;
}

function reachableFrom(start: string, nodes: Record<string, FileNode>): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (seen.has(key) || !Object.hasOwn(nodes, key)) continue;
    seen.add(key);
    pending.push(...nodes[key]!.next);
  }
  return seen;
}

/** The keys at which a walk from the root comes back to a node it is still on (one per loop), without recursion. */
function cycleAt(start: string, nodes: Record<string, FileNode>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const stack: { key: string; index: number }[] = [{ key: start, index: 0 }];
  state.set(start, 'open');
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    const next = nodes[top.key]?.next ?? [];
    if (top.index >= next.length) {
      state.set(top.key, 'done');
      stack.pop();
      continue;
    }
    const child = next[top.index++]!;
    if (!Object.hasOwn(nodes, child)) continue;
    const seen = state.get(child);
    if (seen === 'open') found.push(child);
    else if (seen === undefined) {
      state.set(child, 'open');
      stack.push({ key: child, index: 0 });
    }
  }
  return [...new Set(found)];
}
