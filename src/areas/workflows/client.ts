/**
 * The workflow operations of the API (alpha). Every change names the revision it was meant for
 * (expectedRevisionId); the API refuses a stale one with 409, so no change is ever retried.
 */
import type { ApiClient, ListResource } from '../../api/client.js';
import { z } from '../../base/shapes.js';
import { emailMetrics } from '../../platform/email-metrics.js';
import { at } from '../../platform/operation-row.js';
import { WORKFLOW } from '../../platform/workflows/resource.js';
import * as s from '../../platform/workflows/schemas.js';

export const workflows: ListResource<s.WorkflowSummary> = { path: WORKFLOW.operations.listWorkflows.path, item: s.workflowSummary };

export function getWorkflow(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(WORKFLOW.operations.getWorkflow, id) }, s.workflow);
}

export function getWorkflowNode(api: ApiClient, workflowId: string, nodeId: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(WORKFLOW.operations.getWorkflowNode, workflowId, nodeId) }, s.workflowNode);
}

export function createWorkflow(api: ApiClient, body: { name: string; description?: string; mailingListId?: string }) {
  return api.call({ method: 'POST', idempotent: false, path: WORKFLOW.operations.createWorkflow.path, body }, s.workflow);
}

export function updateWorkflow(api: ApiClient, id: string, expectedRevisionId: s.ExpectedRevision, fields: { name?: string; description?: string }) {
  return api.call(
    { method: 'POST', idempotent: false, path: at(WORKFLOW.operations.updateWorkflowProperties, id), body: { expectedRevisionId, ...fields } },
    s.workflow,
  );
}

export function changeMailingList(
  api: ApiClient,
  id: string,
  expectedRevisionId: s.ExpectedRevision,
  mailingListId: string | null,
  options: s.DestructiveOptions,
) {
  const body = { expectedRevisionId, mailingListId, ...options };
  return api.call({ method: 'POST', idempotent: false, path: at(WORKFLOW.operations.changeWorkflowMailingList, id), body }, s.mailingListAnswer);
}

export function createNode(api: ApiClient, workflowId: string, expectedRevisionId: s.ExpectedRevision, nodeTypeName: string, position: s.InsertPosition) {
  const body = { expectedRevisionId, nodeTypeName, ...position };
  return api.call({ method: 'POST', idempotent: false, path: at(WORKFLOW.operations.createWorkflowNode, workflowId), body }, s.createdNodeAnswer);
}

export function updateNode(api: ApiClient, workflowId: string, nodeId: string, expectedRevisionId: s.ExpectedRevision, payload: Record<string, unknown>) {
  const body = { expectedRevisionId, payload };
  return api.call({ method: 'POST', idempotent: false, path: at(WORKFLOW.operations.updateWorkflowNode, workflowId, nodeId), body }, s.changedNodeAnswer);
}

export function rerouteNode(api: ApiClient, workflowId: string, nodeId: string, expectedRevisionId: s.ExpectedRevision, newTargetNodeId: string) {
  const body = { expectedRevisionId, newTargetNodeId };
  return api.call({ method: 'POST', idempotent: false, path: at(WORKFLOW.operations.rerouteNodeConnection, workflowId, nodeId), body }, s.changedNodeAnswer);
}

export function addBranch(api: ApiClient, workflowId: string, nodeId: string, expectedRevisionId: s.ExpectedRevision) {
  const body = { expectedRevisionId };
  return api.call({ method: 'POST', idempotent: false, path: at(WORKFLOW.operations.addWorkflowBranch, workflowId, nodeId), body }, s.addedBranchAnswer);
}

/** Deletes one node, or with `recursive` the node and what only it leads to. */
export function deleteNode(
  api: ApiClient,
  workflowId: string,
  nodeId: string,
  expectedRevisionId: s.ExpectedRevision,
  options: s.DestructiveOptions & { recursive?: boolean },
) {
  const { recursive, ...rest } = options;
  const target = at(recursive ? WORKFLOW.operations.deleteWorkflowNodeRecursively : WORKFLOW.operations.deleteWorkflowNode, workflowId, nodeId);
  return api.call({ method: 'DELETE', idempotent: false, path: target, body: { expectedRevisionId, ...rest } }, s.deleteNodeAnswer);
}

/**
 * Deletes a workflow (204, no body). A workflow that is sending or has queued contacts is refused
 * with 409 until the call is repeated with confirmDelete; a stale revision is a 409 too.
 */
export function deleteWorkflow(api: ApiClient, id: string, expectedRevisionId: s.ExpectedRevision, confirmDelete: boolean) {
  const body = { expectedRevisionId, ...(confirmDelete ? { confirmDelete: true } : {}) };
  return api.call({ method: 'DELETE', idempotent: false, path: at(WORKFLOW.operations.deleteWorkflow, id), body }, z.undefined());
}

/** The engagement metrics of a send-email node; any other node is refused with 400. */
export function nodeMetrics(api: ApiClient, workflowId: string, nodeId: string) {
  return api.call({ method: 'GET', idempotent: true, path: at(WORKFLOW.operations.getWorkflowNodeMetrics, workflowId, nodeId) }, emailMetrics);
}
