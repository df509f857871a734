/** The workflow operations of the API (alpha). */
import type { ApiClient, ListResource } from '../../api/client.js';
import { path } from '../../api/ids.js';
import * as s from './schemas.js';

export const workflows: ListResource<s.WorkflowSummary> = { path: '/v1/workflows', item: s.workflowSummary };

export function getWorkflow(api: ApiClient, id: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/workflows/${id}` }, s.workflow);
}

export function getWorkflowNode(api: ApiClient, workflowId: string, nodeId: string) {
  return api.call({ method: 'GET', idempotent: true, path: path`/v1/workflows/${workflowId}/nodes/${nodeId}` }, s.workflowNode);
}
