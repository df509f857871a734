/** The sandbox's workflows: their graphs in full, and the simplified view the API answers with. */
import {
  answer,
  ApiFailure,
  appUrl,
  badRequest,
  conflict,
  find,
  later,
  listAnswer,
  notFound,
  objectBody,
  stringField,
  type ApiAnswer,
  type RouteContext,
  type SandboxModule,
} from '../module.js';
import { strictFormOf } from '../strict.js';
import { NOTHING_SENT, workflows, type StoredWorkflow } from './workflow-records.js';
import { discardJourneys, waitingAt } from '../journey-records.js';
import { emailMetrics } from '../../platform/email-metrics.js';
import {
  addedPathNext,
  addedPathOf,
  defaultPathsOf,
  controlsReplacedBy,
  insertionPointOf,
  newNodeSettings,
  newTriggerSettings,
  nodeCapProblem,
  nodesAddedBy,
} from '../../platform/workflows/creation.js';
import { deleteProblem, rerouteProblem } from '../../platform/workflows/edits.js';
import { danglingOf, graphOfNodes, removedWith } from '../../platform/workflows/graph.js';
import { CREATABLE_NODE_TYPES, type CreatableNodeType } from '../../platform/workflows/node-type-names.js';
import { nodeType, updatableFields, updatePayloadProblems } from '../../platform/workflows/node-types.js';
import * as s from '../../platform/workflows/schemas.js';
import { triggerQueryFault } from '../../platform/workflows/trigger-query.js';
import { withArticle } from '../../platform/words.js';

type StoredNode = StoredWorkflow['nodes'][number];

// What the edits check references against, and the message a new send-email node gets: loaded for
// the operations that change a workflow (see EDITS), so a read loads none of those areas.
const lists = later(() => import('./lists.js'));
const segmentRoutes = later(() => import('./segments.js'));
const messages = later(() => import('./email-message-records.js'));
const eventPatterns = later(() => import('./event-patterns.js'));
const contactProperties = later(() => import('./contact-properties.js'));
// Whose list a queued contact is on, when a workflow's mailing list changes.
const contactRecords = later(() => import('./contact-records.js'));
// The rules of audience filters live with the segments' area (a bundle of its own in the CLI).
const filterRules = later(() => import('../../platform/segments/filter.js'));
const EDITS = [lists, segmentRoutes, messages, eventPatterns, contactProperties, contactRecords, filterRules];

function summary(workflow: StoredWorkflow): s.WorkflowSummary {
  return { id: workflow.id, url: appUrl('workflows', workflow.id), name: workflow.name, createdAt: workflow.createdAt, updatedAt: workflow.updatedAt };
}

/** The simplified view the API answers with: each node with the fields its type shows. */
function simplified(workflow: StoredWorkflow): s.Workflow {
  const nodes: Record<string, Record<string, unknown>> = {};
  for (const node of workflow.nodes) {
    const { id, workflowId: _workflow, workflowRevisionId: _revision, ...fields } = node;
    const declared = nodeType(node.typeName);
    // A node of a type the sandbox does not know shows all it carries, as an alpha API might.
    if (declared === undefined) {
      nodes[id] = fields;
      continue;
    }
    const view: Record<string, unknown> = { typeName: node.typeName, nextNodeIds: node.nextNodeIds };
    for (const key of declared.simplified) if (node[key] !== undefined) view[key] = node[key];
    nodes[id] = view;
  }
  const { id, createdAt: _created, updatedAt: _updated, nodes: _full, emailMetrics: _metrics, ...fields } = workflow;
  return { id, url: appUrl('workflows', id), ...fields, nodes } as s.Workflow;
}

/** A node as the editing operations return it: without workflowId, with the revision after the change. */
function changedNode(workflow: StoredWorkflow, node: StoredNode) {
  const { workflowId: _workflow, ...fields } = node;
  return { ...fields, workflowRevisionId: workflow.workflowRevisionId };
}

function nodeIn(workflow: StoredWorkflow, nodeId: string): StoredNode {
  const node = workflow.nodes.find((candidate) => candidate.id === nodeId);
  if (node === undefined) throw notFound(`node ${nodeId} not found in workflow ${workflow.id}`);
  return node;
}

function workflowNode(all: StoredWorkflow[], workflowId: string, nodeId: string): s.WorkflowNode {
  const workflow = find(all, workflowId, 'workflow');
  return { ...nodeIn(workflow, nodeId), workflowRevisionId: workflow.workflowRevisionId };
}

/**
 * What every graph of the sandbox satisfies, before and after any change: every id an edge names
 * is a node, the root is one, ids are unique, and each node's fields fit its type. A change that
 * broke one would be a sandbox bug, so it is refused before it is stored.
 */
export function graphProblems(workflow: StoredWorkflow): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const node of workflow.nodes) {
    if (ids.has(node.id)) problems.push(`node ${node.id} appears twice`);
    ids.add(node.id);
    const result = strictFormOf(s.workflowNode).safeParse(node);
    if (!result.success) problems.push(`node ${node.id}: ${result.error.issues[0]!.message}`);
  }
  for (const { from, to } of danglingOf(graphOfNodes(workflow.nodes), workflow.rootNodeId))
    problems.push(from === undefined ? `the root ${to} is not a node` : `${from} leads to ${to}, which is not a node`);
  return problems;
}

/** The body of a change: its own fields, and the revision it was meant for, which must be current. */
function changeBody(context: RouteContext, workflow: StoredWorkflow, allowed: string[], required: string[]): Record<string, unknown> {
  const fields = objectBody(context.body, ['expectedRevisionId', ...allowed], ['expectedRevisionId', ...required]);
  const expected = fields.expectedRevisionId;
  if (typeof expected !== 'string' && expected !== null) throw badRequest('expectedRevisionId must be a string, or null for a workflow without a revision');
  if (expected !== workflow.workflowRevisionId) throw conflict('expectedRevisionId is stale: the workflow has changed since that revision; read it again');
  return fields;
}

function booleanField(fields: Record<string, unknown>, key: string): boolean | undefined {
  const value = fields[key];
  if (value !== undefined && typeof value !== 'boolean') throw badRequest(`${key} must be a boolean`);
  return value;
}

function policyField(fields: Record<string, unknown>): 'fail' | 'discard' {
  const value = fields.queuedContactPolicy ?? 'fail';
  if (value !== 'fail' && value !== 'discard') throw badRequest('queuedContactPolicy must be "fail" or "discard"');
  return value;
}

/** Stores a change: a new revision, the time, and a check that the graph still holds. */
function commit(context: RouteContext, workflow: StoredWorkflow): void {
  const problems = graphProblems(workflow);
  if (problems.length > 0) throw new Error(`the sandbox made a broken workflow graph: ${problems.join('; ')}`);
  workflow.workflowRevisionId = context.newId();
  workflow.updatedAt = context.now().toISOString();
  context.changed();
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

function createNode(context: RouteContext) {
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

function addBranch(context: RouteContext) {
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

function rerouteNode(context: RouteContext) {
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
 * A mailing list or segment a workflow or node names must exist: the API answers 400 otherwise; and
 * a node's audience filter must be one the description allows (its kinds of condition, operators,
 * activity actions and targets), else 400 naming the place at fault.
 */
function checkReferences(context: RouteContext, fields: Record<string, unknown>): void {
  const { mailingListId, audienceSegmentId, audienceFilter } = fields;
  if (audienceFilter !== undefined && audienceFilter !== null) {
    const fault = filterRules.get().filterFaultUnder('payload.audienceFilter', audienceFilter);
    if (fault !== undefined) throw badRequest(fault);
  }
  if (typeof mailingListId === 'string') {
    const known = lists.get().mailingLists.of(context.state);
    if (!known.some((list) => list.id === mailingListId)) throw badRequest(`Mailing list ${mailingListId} not found.`);
  }
  if (typeof audienceSegmentId === 'string') {
    const known = segmentRoutes.get().segments.of(context.state);
    if (!known.some((segment) => segment.id === audienceSegmentId)) throw badRequest(`Audience segment ${audienceSegmentId} not found.`);
  }
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

function updateNode(context: RouteContext) {
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
  for (const key of ['audienceSegmentId', 'audienceFilter']) if (next[key] === null) delete next[key];
  if (values.isControl === true) {
    const replaced = new Set(controlsReplacedBy(node.id, new Map(workflow.nodes.map((each) => [each.id, each]))));
    for (const sibling of workflow.nodes) if (replaced.has(sibling.id)) sibling.isControl = false;
  }
  workflow.nodes[index] = next;
  commit(context, workflow);
  return answer(s.changedNodeAnswer, { ...changedNode(workflow, next), workflow: simplified(workflow) });
}

/** The contacts queued in a workflow: its journeys waiting (on a timer, or held by a pause) at these nodes, or at any of its nodes. */
const queuedAt = (context: RouteContext, workflow: StoredWorkflow, nodeIds?: Iterable<string>) => waitingAt(context.state, workflow.id, nodeIds);

/** The nodes a delete removes: the node alone, or with `recursive` everything only it leads to. */
function nodesToDelete(workflow: StoredWorkflow, node: StoredNode, recursive: boolean): string[] {
  const refused = deleteProblem(node.id, node.typeName, workflow.rootNodeId, node.nextNodeIds.length, recursive);
  if (refused !== undefined) throw badRequest(refused);
  if (!recursive) return [node.id];
  return removedWith(graphOfNodes(workflow.nodes), workflow.rootNodeId, node.id);
}

function deleteNode(recursive: boolean) {
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

function changeMailingList(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const fields = changeBody(context, workflow, ['mailingListId', 'dryRun', 'queuedContactPolicy'], ['mailingListId']);
  const mailingListId = fields.mailingListId === null ? null : stringField(fields, 'mailingListId');
  checkReferences(context, fields);
  const dryRun = booleanField(fields, 'dryRun') === true;
  const policy = policyField(fields);
  // The queued contacts the new list excludes: "clearing does not discard queued contacts"
  // (ChangeWorkflowMailingListRequest), nor does keeping the same list.
  const excluded = mailingListId === null || mailingListId === workflow.mailingListId ? [] : notOnList(context, queuedAt(context, workflow), mailingListId);
  const queuedContactCount = excluded.length;
  if (dryRun) return answer(s.mailingListAnswer, { status: 'dryRun', mailingListId, queuedContactCount });
  if (queuedContactCount > 0 && policy === 'fail') return answer(s.mailingListAnswer, { status: 'queuedContactsFound', mailingListId, queuedContactCount });
  workflow.mailingListId = mailingListId;
  discardJourneys(
    context.state,
    excluded,
    context.now().toISOString(),
    `discarded: the workflow's mailing list changed to ${mailingListId}, which the contact is not on`,
  );
  commit(context, workflow);
  return answer(s.mailingListAnswer, {
    status: 'updated',
    mailingListId,
    workflowRevisionId: workflow.workflowRevisionId,
    queuedContactCount,
    workflow: simplified(workflow),
  });
}

/** The journeys whose contact is not on a mailing list (a contact deleted since is on none). */
function notOnList(context: RouteContext, queued: ReturnType<typeof queuedAt>, mailingListId: string): ReturnType<typeof queuedAt> {
  if (queued.length === 0) return queued;
  const onList = new Set(
    contactRecords
      .get()
      .contacts.of(context.state)
      .flatMap((contact) => (contact.mailingLists[mailingListId] === true ? [contact.id] : [])),
  );
  return queued.filter((journey) => !onList.has(journey.contactId));
}

function nonEmptyName(fields: Record<string, unknown>): string {
  const name = stringField(fields, 'name');
  if (name.trim() === '') throw badRequest('name must not be empty');
  return name;
}

function createWorkflow(context: RouteContext) {
  const fields = objectBody(context.body, ['name', 'description', 'mailingListId'], ['name']);
  const name = nonEmptyName(fields);
  const description = fields.description === undefined ? '' : stringField(fields, 'description');
  const mailingListId = fields.mailingListId === undefined || fields.mailingListId === null ? null : stringField(fields, 'mailingListId');
  checkReferences(context, fields);
  const id = context.newId();
  const trigger = context.newId();
  const exit = context.newId();
  const now = context.now().toISOString();
  const created: StoredWorkflow = {
    id,
    workflowRevisionId: context.newId(),
    status: 'Draft',
    name,
    description,
    emoji: '',
    mailingListId,
    rootNodeId: trigger,
    createdAt: now,
    updatedAt: now,
    nodes: [
      { id: trigger, workflowId: id, typeName: 'BlankTrigger', nextNodeIds: [exit] },
      { id: exit, workflowId: id, typeName: 'ExitAction', nextNodeIds: [] },
    ],
  };
  workflows.of(context.state).push(created);
  context.changed();
  return answer(s.workflow, simplified(created));
}

function updateWorkflow(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const fields = changeBody(context, workflow, ['name', 'description'], []);
  if (fields.name === undefined && fields.description === undefined) throw badRequest('give at least one of name and description');
  if (fields.name !== undefined) workflow.name = nonEmptyName(fields);
  if (fields.description !== undefined) workflow.description = stringField(fields, 'description');
  commit(context, workflow);
  return answer(s.workflow, simplified(workflow));
}

/**
 * Deleting a workflow that is sending, or has contacts queued, needs a second request with
 * confirmDelete: the 409 says what would stop, in the API's words.
 */
function deleteWorkflow(context: RouteContext): ApiAnswer {
  const all = workflows.of(context.state);
  const workflow = find(all, context.params.workflowId!, 'workflow');
  const fields = objectBody(context.body, ['expectedRevisionId', 'confirmDelete'], ['expectedRevisionId']);
  const expected = fields.expectedRevisionId;
  if (typeof expected !== 'string' && expected !== null) throw badRequest('expectedRevisionId must be a string, or null for a workflow without a revision');
  if (expected !== workflow.workflowRevisionId)
    throw conflict(`workflowRevisionId mismatch. Latest workflowRevisionId is ${workflow.workflowRevisionId}. Refetch and retry.`);
  const confirmed = booleanField(fields, 'confirmDelete') === true;
  const sending = workflow.status === 'Sending';
  const queued = queuedAt(context, workflow);
  if (!confirmed && (sending || queued.length > 0)) throw conflict(confirmationMessage(sending, queued.length));
  discardJourneys(context.state, queued, context.now().toISOString(), 'cancelled: the workflow was deleted');
  all.splice(all.indexOf(workflow), 1);
  context.changed();
  return { status: 204, body: undefined };
}

/** The API's 409 for a delete that needs confirming, as its description words each case. */
function confirmationMessage(sending: boolean, queued: number): string {
  const contacts = `${queued} queued contact${queued === 1 ? '' : 's'}`;
  const confirm = 'Confirm deletion by sending a second request with confirmDelete: true.';
  if (sending && queued > 0)
    return `This workflow is currently sending and has ${contacts}. Deleting it will stop sending it and cancel those queued contacts. ${confirm}`;
  if (sending) return `This workflow is currently sending. Deleting it will stop sending it. ${confirm}`;
  return `This workflow has ${contacts}. Deleting it will cancel those queued contacts. ${confirm}`;
}

/** Only send-email nodes with an email message have metrics; one that has sent nothing has zeros. */
function nodeMetrics(context: RouteContext): ApiAnswer {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const node = nodeIn(workflow, context.params.nodeId!);
  if (node.typeName !== 'SendEmailAction') throw badRequest(`Node ${node.id} is ${withArticle(node.typeName)} node; only SendEmailAction nodes have metrics.`);
  if (typeof node.emailMessageId !== 'string' || node.emailMessageId === '') throw badRequest(`Node ${node.id} has no email message.`);
  return answer(emailMetrics, workflow.emailMetrics?.[node.id] ?? NOTHING_SENT);
}

const WORKFLOW = '/v1/workflows/:workflowId';
const NODE = `${WORKFLOW}/nodes/:nodeId`;

export const sandbox: SandboxModule = {
  slices: [workflows],
  routes: [
    {
      method: 'GET',
      path: '/v1/workflows',
      needs: 'workflows',
      run: (context) => listAnswer(s.workflowSummary, workflows.of(context.state).map(summary), context),
    },
    { method: 'POST', path: '/v1/workflows', needs: 'workflows', uses: EDITS, run: createWorkflow },
    {
      method: 'GET',
      path: WORKFLOW,
      needs: 'workflows',
      run: ({ params, state }) => answer(s.workflow, simplified(find(workflows.of(state), params.workflowId!, 'workflow'))),
    },
    { method: 'POST', path: WORKFLOW, needs: 'workflows', uses: EDITS, run: updateWorkflow },
    { method: 'DELETE', path: WORKFLOW, needs: 'workflows', uses: EDITS, run: deleteWorkflow },
    { method: 'POST', path: `${WORKFLOW}/mailing-list`, needs: 'workflows', uses: EDITS, run: changeMailingList },
    { method: 'POST', path: `${WORKFLOW}/nodes`, needs: 'workflows', uses: EDITS, run: createNode },
    {
      method: 'GET',
      path: NODE,
      needs: 'workflows',
      run: ({ params, state }) => answer(s.workflowNode, workflowNode(workflows.of(state), params.workflowId!, params.nodeId!)),
    },
    { method: 'POST', path: NODE, needs: 'workflows', uses: EDITS, run: updateNode },
    { method: 'DELETE', path: NODE, needs: 'workflows', uses: EDITS, run: deleteNode(false) },
    { method: 'DELETE', path: `${NODE}/recursive`, needs: 'workflows', uses: EDITS, run: deleteNode(true) },
    { method: 'POST', path: `${NODE}/reroute`, needs: 'workflows', uses: EDITS, run: rerouteNode },
    { method: 'POST', path: `${NODE}/add-branch`, needs: 'workflows', uses: EDITS, run: addBranch },
    { method: 'GET', path: `${NODE}/metrics`, needs: 'metrics', run: nodeMetrics },
  ],
};
