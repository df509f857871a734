/**
 * The rule book of workflow graphs, for a graph written as a file (nodes by key, each with `type`,
 * `next` and its fields): which graphs the API accepts (an error each it would refuse) and which
 * the platform can start (a warning each: a draft may hold it, and the platform refuses only to
 * start it). `content check` and `content push` read these; the sandbox plays the same rules
 * through graph.ts and creation.ts. Each rule cites the sentence it comes from.
 */
import { z } from '../../base/shapes.js';
import type { PropertyType } from '../contact-properties/schemas.js';
import { MAX_WORKFLOW_NODES } from './creation.js';
import { EMAIL_PATH, emailPathOf, type FileNode, NODE_KEY, type WorkflowFile } from './file.js';
import { danglingOf, type Graph, graphOfKeyed, loopsFrom, ownNodesOf, reachableFrom } from './graph.js';
import { fileFieldsOf, isBranch, isTrigger, NODE_TYPE_NAMES, type NodeTypeName } from './node-facets.js';
import { NODE_TYPES } from './node-types.js';
import { triggerQueryFault } from './trigger-query.js';

export type ProblemSeverity = 'error' | 'warning';

/** One problem of a workflow file: where (the node's key, when it is a node's), which rule, and what to write instead. */
export interface WorkflowProblem {
  severity: ProblemSeverity;
  key?: string;
  rule: string;
  message: string;
  fix: string;
}

/** What a start rule's message ends with: the workflow may be saved so, and only a start is refused. */
export const ONLY_AT_START = 'the platform refuses to start the workflow so (a draft may hold it)';

/**
 * How grave a broken start rule is: a draft or a paused workflow may hold it until it is started
 * (a warning), a sending one is broken by it (an error). `content check` and `loopsctl check` both
 * read it, so one workflow gets one severity whichever reads it.
 */
export function startRuleSeverity(status: string | undefined): ProblemSeverity {
  return (status ?? '').toLowerCase() === 'sending' ? 'error' : 'warning';
}

/** The start rule of an event trigger: it names the event that starts a contact, or it starts none. */
export const namesEvent = (eventName: unknown): eventName is string => typeof eventName === 'string' && eventName !== '';

/** What the rules know of the team: a contact property's type, or 'unknown' when the check cannot read the team's properties. */
export type PropertyTypes = (key: string) => PropertyType | 'unknown' | undefined;

const UNKNOWN_TYPES: PropertyTypes = () => 'unknown';

/** The problems of a parsed file's graph, by the platform's rules; the file's shape is checked by `workflowFile` first. */
export function workflowProblems(file: WorkflowFile, propertyTypes: PropertyTypes = UNKNOWN_TYPES): WorkflowProblem[] {
  const problems: WorkflowProblem[] = [];
  const error = (key: string | undefined, rule: string, message: string, fix: string) => problems.push({ severity: 'error', key, rule, message, fix });
  const nodes = file.nodes;
  const keys = Object.keys(nodes);
  // The description: "Public workflows can have up to 400 nodes."
  if (keys.length > MAX_WORKFLOW_NODES) {
    error(undefined, 'node-count', `the workflow has ${keys.length} nodes; a workflow holds at most ${MAX_WORKFLOW_NODES}`, 'split it into several workflows');
  }
  for (const key of keys) {
    if (!NODE_KEY.test(key)) error(key, 'node-key', `"${key}" is not a node key`, 'use lower-case letters, digits and dashes, at most 60 characters');
  }
  // The simplified workflow: "rootNodeId: The ID of the root node in the workflow graph", its trigger.
  const root = nodes[file.root];
  const graph = graphOfKeyed(nodes);
  for (const { from, to } of danglingOf(graph, file.root)) {
    if (from === undefined)
      error(undefined, 'root', `root names "${to}", which is not a node`, `name the trigger's key (one of ${keys.slice(0, 5).join(', ')})`);
    else error(from, 'next-exists', `next names "${to}", which is not a node`, `name a key of this file, or add a node "${to}"`);
  }
  if (root !== undefined && !isTrigger(root.type))
    error(file.root, 'root-trigger', `the root is ${root.type}, not a trigger`, 'make root the key of the trigger node');
  for (const [key, node] of Object.entries(nodes)) {
    if (isTrigger(node.type) && key !== file.root)
      error(key, 'one-trigger', 'a workflow has one trigger, its root', 'remove this trigger, or make it the root');
    if (new Set(node.next).size !== node.next.length) error(key, 'next-once', 'next names a node twice', 'name each node once');
    problems.push(...nodeProblems(key, node, nodes, graph, propertyTypes, file.status));
  }
  if (root !== undefined) {
    const reached = reachableFrom(graph, file.root);
    for (const key of keys) if (!reached.has(key)) error(key, 'reachable', 'no path from the root leads here', `add "${key}" to a node's next, or remove it`);
    for (const key of loopsFrom(graph, file.root))
      error(key, 'no-cycle', 'following next from here comes back here', "point one of the loop's next at a node further on (an exit)");
  }
  return problems;
}

/**
 * The rules the platform applies only when a workflow is started, over its nodes (a file's by key,
 * or the account's by id, each with its type, where it leads and its fields): each broken one a
 * problem of the severity the workflow's status gives. `content check` finds them among the rest of
 * a file's; `loopsctl check` asks them of the account's workflows, so that both give one verdict.
 */
export function startProblems(nodes: Record<string, FileNode>, status: string | undefined): (WorkflowProblem & { rule: StartRule })[] {
  const problems: (WorkflowProblem & { rule: StartRule })[] = [];
  const graph = graphOfKeyed(nodes);
  for (const [key, node] of Object.entries(nodes)) {
    const add: Add = (severity: ProblemSeverity | 'start', rule: string, message: string, fix: string) => {
      // Add's first signature: a start rule is one of START_RULES.
      if (severity === 'start') problems.push({ severity: startRuleSeverity(status), key, rule: rule as StartRule, message, fix });
    };
    const children = node.next.map((next) => nodes[next]).filter((child) => child !== undefined);
    if (node.type === 'BranchNode') branchProblems(node, children, add);
    if (node.type === 'ExperimentBranchNode') experimentProblems(node, children, nodes, graph, add);
    triggerProblems(node, UNKNOWN_TYPES, add);
  }
  return problems;
}

/** The rules the platform applies only when a workflow is started: each is reported as a start rule, by `content check` and `loopsctl check` alike. */
export const START_RULES = ['trigger-event', 'trigger-property', 'branch-children', 'experiment-paths', 'experiment-email'] as const;
export type StartRule = (typeof START_RULES)[number];

/** A problem's severity, or `start` for a start rule's (one of START_RULES), which the workflow's status decides. */
interface Add {
  (severity: 'start', rule: StartRule, message: string, fix: string): void;
  (severity: ProblemSeverity, rule: string, message: string, fix: string): void;
}

/** The rules of one node's own type and of its place in the graph. */
function nodeProblems(
  key: string,
  node: FileNode,
  nodes: Record<string, FileNode>,
  graph: Graph,
  propertyTypes: PropertyTypes,
  status: string | undefined,
): WorkflowProblem[] {
  const problems: WorkflowProblem[] = [];
  const add: Add = (severity, rule, message, fix) =>
    problems.push({ severity: severity === 'start' ? startRuleSeverity(status) : severity, key, rule, message, fix });
  const fields = fileFieldsOf(node.type);
  if (fields === undefined) {
    // The description lists the node types (CreateWorkflowNodeTypeName, and the triggers and exit of WorkflowNode).
    add('error', 'node-type', `${node.type} is not a node type the API knows`, `use one of ${NODE_TYPE_NAMES.join(', ')}`);
    return problems;
  }
  const shape = z.strictObject({ type: z.string(), next: z.array(z.string()), ...NODE_TYPES[node.type as NodeTypeName].file }).safeParse(node);
  if (!shape.success) {
    for (const issue of shape.error.issues) {
      const field = issue.path.map(String).join('.');
      const message = issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: not a field of ${node.type}` : `${field}: ${issue.message}`;
      add('error', 'node-fields', message, `${node.type} takes: ${['type', 'next', ...fields].join(', ')}`);
    }
  }
  connectionProblems(node, add);
  const children = node.next.map((next) => nodes[next]).filter((child) => child !== undefined);
  if (node.type === 'BranchNode') branchProblems(node, children, add);
  if (node.type === 'ExperimentBranchNode') experimentProblems(node, children, nodes, graph, add);
  if (
    node.type === 'VariantNode' &&
    !Object.values(nodes).some((parent) => parent.type === 'ExperimentBranchNode' && parent.next.some((next) => nodes[next] === node))
  )
    // CreateWorkflowNodeBetweenRequest: only "When `fromNodeId` is an `ExperimentBranchNode`" may the node be a VariantNode.
    add('error', 'variant-place', 'a VariantNode stands only right after an experiment', "move it under an ExperimentBranchNode's next");
  if (node.type === 'TimerAction') timerProblems(node, add);
  triggerProblems(node, propertyTypes, add);
  if (node.type === 'SendEmailAction' && typeof node.email === 'string' && !EMAIL_PATH.test(node.email))
    add('error', 'email-path', `email is "${node.email}"`, `name the email as ${emailPathOf(key)}`);
  return problems;
}

/**
 * Where a node leads: an exit nowhere; a node that is no branch to one node at most. The path may
 * end at any node: the description's own SimplifiedWorkflow example ends at a SendEmailAction with
 * `nextNodeIds: []`.
 */
function connectionProblems(node: FileNode, add: Add): void {
  if (node.type === 'ExitAction') {
    if (node.next.length > 0) add('error', 'exit-last', 'an exit leads nowhere', 'remove its next');
  } else if (!isBranch(node.type) && node.next.length > 1)
    add('error', 'one-next', `${node.type} leads to one node at most, not ${node.next.length}`, 'name one key in next, or use a BranchNode to split the path');
}

function branchProblems(node: FileNode, children: FileNode[], add: Add): void {
  if (node.next.length < 2) add('error', 'branch-paths', `a branch has at least two paths, not ${node.next.length}`, 'add an AudienceFilter path');
  // The description: "a workflow cannot be started unless each direct `BranchNode` child is an `AudienceFilter`".
  if (children.some((child) => child.type !== 'AudienceFilter'))
    add('start', 'branch-children', `a branch's paths each start with an AudienceFilter: ${ONLY_AT_START}`, 'put an AudienceFilter node first on each path');
}

function experimentProblems(node: FileNode, children: FileNode[], nodes: Record<string, FileNode>, graph: Graph, add: Add): void {
  // The docs (workflows/experiments): "An experiment node must be followed by at least one variant or control branch, otherwise you cannot start the loop."
  if (node.next.length === 0)
    add('start', 'experiment-paths', `an experiment has no variant or control path: ${ONLY_AT_START}`, 'add a VariantNode path after it');
  // The description: "When `fromNodeId` is an `ExperimentBranchNode`, `nodeTypeName` must be `VariantNode`".
  if (children.some((child) => child.type !== 'VariantNode'))
    add('error', 'experiment-children', "an experiment's paths each start with a VariantNode", 'put a VariantNode first on each path');
  // "A control is optional; you can create an experiment without a control branch" (the docs), but
  // one at most: setting a control "will set `false` on the existing control, if one exists" (the description).
  const controls = children.filter((child) => child.type === 'VariantNode' && child.isControl === true).length;
  if (controls > 1)
    add(
      'error',
      'experiment-control',
      `an experiment has one control at most, not ${controls}`,
      'set isControl: true on one variant at most, false on the others',
    );
  // The description: samplingRate is "the percentage of contacts that will be sent to variant branches, between `0` and `100`".
  const rate = node.samplingRate;
  if (typeof rate === 'number' && !(rate >= 0 && rate <= 100))
    add('error', 'sampling-rate', `samplingRate is ${rate}; it is the percentage of contacts sent to the variants`, 'write a number from 0 to 100');
  // The docs (workflows/experiments): "you must add at least one email within each control or variant branch before starting the loop".
  for (const path of node.next) {
    if (nodes[path]?.type !== 'VariantNode') continue;
    const own = ownNodesOf(graph, path, node.next);
    if (![...own].some((key) => nodes[key]?.type === 'SendEmailAction'))
      add(
        'start',
        'experiment-email',
        `the ${nodes[path]!.isControl === true ? 'control' : 'variant'} path "${path}" holds no email of its own: ${ONLY_AT_START}`,
        `add a SendEmailAction on the path after "${path}", before it meets the other paths`,
      );
  }
}

function timerProblems(node: FileNode, add: Add): void {
  // The description (WorkflowTimerAmount): "Set to `0` to move to the next node immediately"; a wait is never negative.
  if (typeof node.amount === 'number' && !(node.amount >= 0 && Number.isFinite(node.amount)))
    add('error', 'timer-amount', `a wait of ${node.amount}`, 'write 0 (move on at once) or a positive amount');
  // The description (WorkflowTimerUnit): "m = minutes, h = hours, d = days"; the reference adds s.
  if (node.unit === 's') add('warning', 'timer-unit', 'a wait in seconds is not in the published description', 'write it in minutes (unit: m)');
}

function triggerProblems(node: FileNode, propertyTypes: PropertyTypes, add: Add): void {
  // A trigger that names nothing to wait for starts no contact: the platform will not start it.
  if (node.type === 'EventTrigger' && !namesEvent(node.eventName))
    add('start', 'trigger-event', `the trigger names no event: ${ONLY_AT_START}`, 'write eventName: the event that starts it');
  if (node.type !== 'ContactPropertyTrigger') return;
  const query = node.contactPropertyQuery as Parameters<typeof triggerQueryFault>[0] | null | undefined;
  if (query === null || query === undefined) {
    add('start', 'trigger-property', `the trigger names no contact property: ${ONLY_AT_START}`, 'write contactPropertyQuery: {key, was, is}');
    return;
  }
  const fault = triggerQueryFault(query, propertyTypes);
  if (fault !== undefined) add('error', 'trigger-query', fault.message, fault.fix);
}
