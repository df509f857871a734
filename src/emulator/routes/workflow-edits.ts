/**
 * What every change to a sandbox workflow shares, its nodes' and its own alike: the checks a graph
 * must pass before it is stored, the body of a change and its revision, the references a change
 * may name, the contacts queued in a workflow, and the simplified view the API answers with.
 */

import { danglingOf, graphOfNodes } from '../../platform/workflows/graph.js';
import { nodeType } from '../../platform/workflows/node-types.js';
import * as s from '../../platform/workflows/schemas.js';
import { waitingAt } from '../journey-records.js';
import { appUrl, badRequest, conflict, later, notFound, objectBody, type RouteContext } from '../module.js';
import { strictFormOf } from '../strict.js';
import type { StoredWorkflow } from './workflow-records.js';

export type StoredNode = StoredWorkflow['nodes'][number];

// What the edits check references against, and the message a new send-email node gets: loaded for
// the operations that change a workflow (see EDITS), so a read loads none of those areas.
const lists = later(() => import('./lists.js'));
const segmentRoutes = later(() => import('./segments.js'));
export const messages = later(() => import('./email-message-records.js'));
export const eventPatterns = later(() => import('./event-patterns.js'));
export const contactProperties = later(() => import('./contact-properties.js'));
// Whose list a queued contact is on, when a workflow's mailing list changes.
export const contactRecords = later(() => import('./contact-records.js'));
// The rules of audience filters live with the segments' area (a bundle of its own in the CLI).
const filterRules = later(() => import('../../platform/segments/filter.js'));
export const EDITS = [lists, segmentRoutes, messages, eventPatterns, contactProperties, contactRecords, filterRules];

/** The simplified view the API answers with: each node with the fields its type shows. */
export function simplified(workflow: StoredWorkflow): s.Workflow {
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
export function changedNode(workflow: StoredWorkflow, node: StoredNode) {
  const { workflowId: _workflow, ...fields } = node;
  return { ...fields, workflowRevisionId: workflow.workflowRevisionId };
}

export function nodeIn(workflow: StoredWorkflow, nodeId: string): StoredNode {
  const node = workflow.nodes.find((candidate) => candidate.id === nodeId);
  if (node === undefined) throw notFound(`node ${nodeId} not found in workflow ${workflow.id}`);
  return node;
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
export function changeBody(context: RouteContext, workflow: StoredWorkflow, allowed: string[], required: string[]): Record<string, unknown> {
  const fields = objectBody(context.body, ['expectedRevisionId', ...allowed], ['expectedRevisionId', ...required]);
  const expected = fields.expectedRevisionId;
  if (typeof expected !== 'string' && expected !== null) throw badRequest('expectedRevisionId must be a string, or null for a workflow without a revision');
  if (expected !== workflow.workflowRevisionId) throw conflict('expectedRevisionId is stale: the workflow has changed since that revision; read it again');
  return fields;
}

export function booleanField(fields: Record<string, unknown>, key: string): boolean | undefined {
  const value = fields[key];
  if (value !== undefined && typeof value !== 'boolean') throw badRequest(`${key} must be a boolean`);
  return value;
}

export function policyField(fields: Record<string, unknown>): 'fail' | 'discard' {
  const value = fields.queuedContactPolicy ?? 'fail';
  if (value !== 'fail' && value !== 'discard') throw badRequest('queuedContactPolicy must be "fail" or "discard"');
  return value;
}

/** Stores a change: a new revision, the time, and a check that the graph still holds. */
export function commit(context: RouteContext, workflow: StoredWorkflow): void {
  const problems = graphProblems(workflow);
  if (problems.length > 0) throw new Error(`the sandbox made a broken workflow graph: ${problems.join('; ')}`);
  workflow.workflowRevisionId = context.newId();
  workflow.updatedAt = context.now().toISOString();
  context.changed();
}

/**
 * A mailing list or segment a workflow or node names must exist: the API answers 400 otherwise; and
 * a node's audience filter must be one the description allows (its kinds of condition, operators,
 * activity actions and targets), else 400 naming the place at fault.
 */
export function checkReferences(context: RouteContext, fields: Record<string, unknown>): void {
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

/** The contacts queued in a workflow: its journeys waiting (on a timer, or held by a pause) at these nodes, or at any of its nodes. */
export const queuedAt = (context: RouteContext, workflow: StoredWorkflow, nodeIds?: Iterable<string>) => waitingAt(context.state, workflow.id, nodeIds);
