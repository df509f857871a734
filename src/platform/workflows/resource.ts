/** A workflow, with its nodes, as a resource of the API (operation-row.ts): a write of a node changes its workflow. */
import type { ResourceRow } from '../operation-row.js';

export const WORKFLOW = {
  noun: 'workflow',
  kind: { directory: 'workflows', half: 'workflows', word: 'workflow', lmx: 'email' },
  list: { operation: 'listWorkflows', ids: 'workflows', command: ['workflow', 'list'] },
  get: 'getWorkflow',
  operations: {
    listWorkflows: { method: 'GET', path: '/v1/workflows' },
    getWorkflow: { method: 'GET', path: '/v1/workflows/{workflowId}' },
    createWorkflow: { method: 'POST', path: '/v1/workflows', writes: 'workflow', bodyIds: { mailingListId: 'mailing list' } },
    updateWorkflowProperties: { method: 'POST', path: '/v1/workflows/{workflowId}', writes: 'workflow' },
    deleteWorkflow: { method: 'DELETE', path: '/v1/workflows/{workflowId}', writes: 'workflow' },
    changeWorkflowMailingList: {
      method: 'POST',
      path: '/v1/workflows/{workflowId}/mailing-list',
      writes: 'workflow',
      bodyIds: { mailingListId: 'mailing list' },
    },
    // Where the node goes: after, before or between the nodes it names.
    createWorkflowNode: {
      method: 'POST',
      path: '/v1/workflows/{workflowId}/nodes',
      writes: 'workflow node',
      bodyIds: { fromNodeId: 'workflow node', toNodeId: 'workflow node', beforeNodeId: 'workflow node' },
    },
    getWorkflowNode: { method: 'GET', path: '/v1/workflows/{workflowId}/nodes/{nodeId}' },
    addWorkflowBranch: { method: 'POST', path: '/v1/workflows/{workflowId}/nodes/{nodeId}/add-branch', writes: 'workflow node' },
    // A trigger's event, a filter's segment.
    updateWorkflowNode: {
      method: 'POST',
      path: '/v1/workflows/{workflowId}/nodes/{nodeId}',
      writes: 'workflow node',
      bodyIds: { 'payload.eventPatternId': 'event', 'payload.audienceSegmentId': 'segment' },
    },
    deleteWorkflowNode: { method: 'DELETE', path: '/v1/workflows/{workflowId}/nodes/{nodeId}', writes: 'workflow node' },
    rerouteNodeConnection: {
      method: 'POST',
      path: '/v1/workflows/{workflowId}/nodes/{nodeId}/reroute',
      writes: 'workflow node',
      bodyIds: { newTargetNodeId: 'workflow node' },
    },
    deleteWorkflowNodeRecursively: { method: 'DELETE', path: '/v1/workflows/{workflowId}/nodes/{nodeId}/recursive', writes: 'workflow node' },
    getWorkflowNodeMetrics: { method: 'GET', path: '/v1/workflows/{workflowId}/nodes/{nodeId}/metrics' },
  },
} as const satisfies ResourceRow;
