/** The sandbox's operations on a workflow's nodes: create, add a branch, reroute, update, delete, and their metrics. */

import { emailMetrics } from '../../platform/email-metrics.js';
import { withArticle } from '../../platform/words.js';
import {
  addedPathNext,
  addedPathOf,
  controlsReplacedBy,
  defaultPathsOf,
  insertionPointOf,
  newNodeSettings,
  newTriggerSettings,
  nodeCapProblem,
  nodesAddedBy,
} from '../../platform/workflows/creation.js';
import { deleteProblem, rerouteProblem } from '../../platform/workflows/edits.js';
import { graphOfNodes, removedWith } from '../../platform/workflows/graph.js';
import { CREATABLE_NODE_TYPES, type CreatableNodeType } from '../../platform/workflows/node-facets.js';
import { absentWhenCleared, updatableFields, updatePayloadProblems } from '../../platform/workflows/node-types.js';
import * as s from '../../platform/workflows/schemas.js';
import { triggerQueryFault } from '../../platform/workflows/trigger-query.js';
import { discardJourneys } from '../journey-records.js';
import { type ApiAnswer, ApiFailure, answer, badRequest, find, notFound, type RouteContext, stringField } from '../module.js';
import {
  booleanField,
  changeBody,
  changedNode,
  checkReferences,
  commit,
  contactProperties,
  eventPatterns,
  messages,
  nodeIn,
  policyField,
  queuedAt,
  type StoredNode,
  simplified,
} from './workflow-edits.js';
import { NOTHING_SENT, type StoredWorkflow, workflows } from './workflow-records.js';

export function workflowNode(all: StoredWorkflow[], workflowId: string, nodeId: string): s.WorkflowNode {
  const workflow = find(all, workflowId, 'workflow');
  return { ...nodeIn(workflow, nodeId), workflowRevisionId: workflow.workflowRevisionId };
}

function checkCap(workflow: StoredWorkflow, adding: number): void {
  const problem = nodeCapProblem(workflow.nodes.length, adding);
  if (problem !== undefined) throw badRequest(problem);
}

/** A node of a creatable type with the API's default settings, and the ids the platform makes for it. */
function defaultNode(context: RouteContext, workflow: StoredWorkflow, typeName: CreatableNodeType, isControl = false): StoredNode {
  const node: StoredNode = { id: context.newId(), workflowId: workflow.id, typeName, nextNodeIds: [], ...newNodeSettings(typeName, isControl) };
  // A send-email node's email is a real, empty message of the workflow's, to be read and edited like
  // any other; the node shows that message's subject (workflow-messages.ts).
  if (typeName === 'SendEmailAction') {
    const { message } = messages.get().addMessage(context, { kind: 'workflow', id: workflow.id, published: false });
    Object.assign(node, { emailMessageId: message.id, subject: message.subject });
  }
  if (typeName === 'ExperimentBranchNode') node.experimentId = context.newId();
  if (typeName === 'VariantNode') node.variantId = context.newId();
  return node;
}

/** Where a new node goes, by the rule book; a node the request names that the workflow lacks is a 404, a refusal a 400. */
function insertionPoint(workflow: StoredWorkflow, fields: Record<string, unknown>, typeName: string): { parents: StoredNode[]; to: StoredNode } {
  const point = insertionPointOf(fields, new Map(workflow.nodes.map((node) => [node.id, node])), workflow.rootNodeId, typeName);
  if ('missing' in point) throw notFound(`node ${point.missing} not found in workflow ${workflow.id}`);
  if ('refused' in point) throw badRequest(point.refused);
  return point as { parents: StoredNode[]; to: StoredNode };
}

export function createNode(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const fields = changeBody(context, workflow, ['insertMode', 'nodeTypeName', 'fromNodeId', 'toNodeId', 'beforeNodeId'], ['insertMode', 'nodeTypeName']);
  const typeName = fields.nodeTypeName;
  if (!(CREATABLE_NODE_TYPES as readonly unknown[]).includes(typeName)) throw badRequest(`nodeTypeName must be one of ${CREATABLE_NODE_TYPES.join(', ')}`);
  const creatable = typeName as CreatableNodeType;
  const { parents, to } = insertionPoint(workflow, fields, creatable);
  checkCap(workflow, nodesAddedBy(creatable));
  const children = defaultPathsOf(creatable).map((path) => defaultNode(context, workflow, path.type, path.isControl));
  const node = defaultNode(context, workflow, creatable);
  // A new branch's default paths all lead on to where the connection went.
  for (const child of children) child.nextNodeIds = [to.id];
  node.nextNodeIds = children.length > 0 ? children.map((child) => child.id) : [to.id];
  for (const parent of parents) parent.nextNodeIds = parent.nextNodeIds.map((next) => (next === to.id ? node.id : next));
  workflow.nodes.push(node, ...children);
  commit(context, workflow);
  const created =
    children.length > 0
      ? { ...changedNode(workflow, node), createdChildNodes: children.map(({ workflowId: _workflow, ...child }) => child) }
      : changedNode(workflow, node);
  return answer(s.createdNodeAnswer, { node: created, workflow: simplified(workflow) });
}

export function addBranch(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  changeBody(context, workflow, [], []);
  const branch = nodeIn(workflow, context.params.nodeId!);
  const added = addedPathOf(branch.typeName);
  if (added === undefined)
    throw badRequest(`${branch.id} is ${withArticle(branch.typeName)}; only a BranchNode or an ExperimentBranchNode takes another branch`);
  checkCap(workflow, 1);
  const child = defaultNode(context, workflow, added);
  child.nextNodeIds = addedPathNext(workflow.nodes.find((node) => node.typeName === 'ExitAction')?.id);
  branch.nextNodeIds = [...branch.nextNodeIds, child.id];
  workflow.nodes.push(child);
  commit(context, workflow);
  return answer(s.addedBranchAnswer, { node: changedNode(workflow, child), workflow: simplified(workflow) });
}

export function rerouteNode(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const fields = changeBody(context, workflow, ['newTargetNodeId'], ['newTargetNodeId']);
  const source = nodeIn(workflow, context.params.nodeId!);
  const target = nodeIn(workflow, stringField(fields, 'newTargetNodeId'));
  // The description names this rule for reroutes only: other edits of a sending workflow go ahead.
  if (workflow.status === 'Sending') throw badRequest('a node cannot be rerouted while the workflow is sending; pause the workflow first');
  const typeOf = (id: string) => workflow.nodes.find((node) => node.id === id)?.typeName;
  const refused = rerouteProblem(graphOfNodes(workflow.nodes), typeOf, workflow.rootNodeId, source.id, target.id);
  if (refused !== undefined) throw badRequest(refused);
  source.nextNodeIds = [target.id];
  commit(context, workflow);
  return answer(s.changedNodeAnswer, { ...changedNode(workflow, source), workflow: simplified(workflow) });
}

/**
 * The event pattern an event trigger's update assigns, by its id or its event name: the trigger
 * then waits for that pattern's event, with its properties. An id no pattern has is a 404; a name
 * no pattern has yet makes a new one, with no properties.
 */
function triggerPattern(context: RouteContext, update: Record<string, unknown>): { eventName: string; eventProperties: unknown[] } | undefined {
  const { eventPatternId, eventName } = update;
  if (typeof eventPatternId === 'string') return find(eventPatterns.get().patterns(context.state), eventPatternId, 'event pattern');
  if (typeof eventName !== 'string') return undefined;
  const known = eventPatterns.get().patterns(context.state);
  return known.find((pattern) => pattern.eventName === eventName) ?? { eventName, eventProperties: [] };
}

/**
 * A contact-property trigger's query, checked against the team's properties as the description
 * says the API checks it ("`key` must resolve to an existing contact property that is available
 * for Contact Updated triggers", each operator valid "for the selected contact property's type
 * and for the `is` or `was` side"): 400 with the fault otherwise.
 */
function checkTriggerQuery(context: RouteContext, query: unknown): void {
  if (typeof query !== 'object' || query === null) return;
  const { propertyTypeOf } = contactProperties.get();
  const fault = triggerQueryFault(query as Parameters<typeof triggerQueryFault>[0], (key) => propertyTypeOf(context.state, key));
  if (fault !== undefined) throw badRequest(fault.message);
}

export function updateNode(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const fields = changeBody(context, workflow, ['payload'], ['payload']);
  const index = workflow.nodes.indexOf(nodeIn(workflow, context.params.nodeId!));
  const node = workflow.nodes[index]!;
  const payload = fields.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw badRequest('payload must be an object');
  const update = payload as Record<string, unknown>;
  const target = typeof update.typeName === 'string' ? update.typeName : node.typeName;
  if (updatableFields(target) === undefined) throw new ApiFailure(501, `Updating ${withArticle(node.typeName)} node is not implemented`);
  const problems = updatePayloadProblems(node.typeName, update);
  if (problems.length > 0) throw badRequest(problems[0]!);
  checkTriggerQuery(context, update.contactPropertyQuery);
  const pattern = triggerPattern(context, update);
  checkReferences(context, update);
  const { typeName: _type, eventPatternId, ...values } = update;
  let next: StoredNode =
    target === node.typeName
      ? { ...node }
      : { id: node.id, workflowId: node.workflowId, typeName: target, nextNodeIds: node.nextNodeIds, ...newTriggerSettings(target, workflow.mailingListId) };
  if (eventPatternId === null) next.eventName = null;
  if (pattern !== undefined) [next.eventName, next.eventProperties] = [pattern.eventName, pattern.eventProperties];
  // Setting a segment without a filter clears the filter, and the other way round; null clears a field.
  if (values.audienceSegmentId !== undefined && values.audienceFilter === undefined) delete next.audienceFilter;
  if (values.audienceFilter !== undefined && values.audienceSegmentId === undefined) delete next.audienceSegmentId;
  next = { ...next, ...values };
  for (const key of absentWhenCleared()) if (next[key] === null) delete next[key];
  if (values.isControl === true) {
    const replaced = new Set(controlsReplacedBy(node.id, new Map(workflow.nodes.map((each) => [each.id, each]))));
    for (const sibling of workflow.nodes) if (replaced.has(sibling.id)) sibling.isControl = false;
  }
  workflow.nodes[index] = next;
  commit(context, workflow);
  return answer(s.changedNodeAnswer, { ...changedNode(workflow, next), workflow: simplified(workflow) });
}

/** The nodes a delete removes: the node alone, or with `recursive` everything only it leads to. */
function nodesToDelete(workflow: StoredWorkflow, node: StoredNode, recursive: boolean): string[] {
  const refused = deleteProblem(node.id, node.typeName, workflow.rootNodeId, node.nextNodeIds.length, recursive);
  if (refused !== undefined) throw badRequest(refused);
  if (!recursive) return [node.id];
  return removedWith(graphOfNodes(workflow.nodes), workflow.rootNodeId, node.id);
}

export function deleteNode(recursive: boolean) {
  return (context: RouteContext) => {
    const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
    const fields = changeBody(context, workflow, ['dryRun', 'queuedContactPolicy'], []);
    const dryRun = booleanField(fields, 'dryRun') === true;
    const policy = policyField(fields);
    const node = nodeIn(workflow, context.params.nodeId!);
    const nodeIds = nodesToDelete(workflow, node, recursive);
    const queued = queuedAt(context, workflow, nodeIds);
    const queuedContactCount = queued.length;
    if (dryRun) return answer(s.deleteNodeAnswer, { status: 'dryRun', nodeIds, queuedContactCount });
    if (queuedContactCount > 0 && policy === 'fail') return answer(s.deleteNodeAnswer, { status: 'queuedContactsFound', nodeIds, queuedContactCount });
    discardJourneys(context.state, queued, context.now().toISOString(), 'discarded: its node was deleted');
    const removed = new Set(nodeIds);
    // A single node's parents are reconnected to its one child; a subtree's edges into it are dropped.
    const child = recursive ? undefined : node.nextNodeIds[0];
    for (const parent of workflow.nodes) {
      const next = parent.nextNodeIds.flatMap((id) => (!removed.has(id) ? [id] : child === undefined ? [] : [child]));
      parent.nextNodeIds = next.filter((id, position) => next.indexOf(id) === position);
    }
    workflow.nodes = workflow.nodes.filter((candidate) => !removed.has(candidate.id));
    commit(context, workflow);
    return answer(s.deleteNodeAnswer, {
      status: 'deleted',
      nodeIds,
      workflowRevisionId: workflow.workflowRevisionId,
      queuedContactCount,
      workflow: simplified(workflow),
    });
  };
}

/** Only send-email nodes with an email message have metrics; one that has sent nothing has zeros. */
export function nodeMetrics(context: RouteContext): ApiAnswer {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const node = nodeIn(workflow, context.params.nodeId!);
  if (node.typeName !== 'SendEmailAction') throw badRequest(`Node ${node.id} is ${withArticle(node.typeName)} node; only SendEmailAction nodes have metrics.`);
  if (typeof node.emailMessageId !== 'string' || node.emailMessageId === '') throw badRequest(`Node ${node.id} has no email message.`);
  return answer(emailMetrics, workflow.emailMetrics?.[node.id] ?? NOTHING_SENT);
}
