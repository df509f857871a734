/**
 * Which answers of the API give a record's state as the record's own read (its GET) answers it:
 * what the write gate (src/core/gate.ts) may take in place of reading the record again, within its
 * freshness rules, and what a run's kept reads (src/api/read-cache.ts) answer a record's read from.
 *
 * - A record's read itself.
 * - A page of a list whose items are each the record as its read answers it (LISTED_AS_READ).
 * - A write of a workflow answered with the workflow as it left it: `POST /v1/workflows/{workflowId}`
 *   answers `SimplifiedWorkflow`, the schema `GET /v1/workflows/{workflowId}` answers; a node's
 *   create, branch, update and reroute answer it as their `workflow` ("The updated workflow node,
 *   plus the latest simplified workflow", the API's reference of `UpdateWorkflowNodeResponse`;
 *   `addWorkflowBranch` "Returns the created child node plus the latest workflow";
 *   `RerouteNodeConnectionResponse`: "The updated source node, plus the latest workflow";
 *   `CreateWorkflowNodeResponse` requires `workflow`), whose `status` is required: the platform's
 *   own word on the workflow at the moment of the write.
 */
import { type ConfigurationOperation, configurationWrite } from './configuration-writes.js';
import { at } from './operation-row.js';
import { TRANSACTIONAL_EMAIL } from './transactional/resource.js';
import { WORKFLOW } from './workflows/resource.js';

/**
 * The lists whose items are each the record at `<list>/<id>` as its read answers it. The API's
 * reference gives both one schema: `GET /v1/transactional-emails` lists `TransactionalResource`s,
 * which `GET /v1/transactional-emails/{transactionalId}` answers.
 */
export const LISTED_AS_READ: readonly string[] = [at(TRANSACTIONAL_EMAIL.operations.listTransactionalEmails)];

/** The workflow writes whose answer holds the workflow as `GET /v1/workflows/{workflowId}` answers it: the answer itself, or its `workflow`. */
export const WORKFLOW_ANSWERED: Partial<Record<ConfigurationOperation, 'answer' | 'workflow'>> = {
  updateWorkflowProperties: 'answer',
  createWorkflowNode: 'workflow',
  addWorkflowBranch: 'workflow',
  updateWorkflowNode: 'workflow',
  rerouteNodeConnection: 'workflow',
};

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** A request as far as its answer's meaning goes: its method, path (percent-encoded, as sent), whether it has a query, and its body. */
export interface AnsweredRequest {
  method: string;
  path: string;
  query: boolean;
  body?: unknown;
}

/**
 * The records whose state an answer gives, by the path of each record's read, with the record as
 * that read answers it. A read with a query (other than a list's page) may be answered otherwise,
 * and gives none.
 */
export function statesAnswered(request: AnsweredRequest, answer: unknown): [string, unknown][] {
  const path = request.path.split('?')[0]!;
  if (request.method === 'GET') {
    if (LISTED_AS_READ.includes(path)) {
      const items = fieldsOf(answer)?.data;
      return (Array.isArray(items) ? items : []).flatMap((item): [string, unknown][] => {
        const id = fieldsOf(item)?.id;
        return typeof id === 'string' ? [[`${path}/${encodeURIComponent(id)}`, item]] : [];
      });
    }
    return request.query || path !== request.path || fieldsOf(answer) === undefined ? [] : [[path, answer]];
  }
  const write = configurationWrite(request.method, path, request.body);
  const held = write === undefined ? undefined : WORKFLOW_ANSWERED[write.operation];
  if (held === undefined) return [];
  const workflow = fieldsOf(held === 'answer' ? answer : fieldsOf(answer)?.workflow);
  const id = write!.ids.workflowId;
  // The workflow the write named, and no other: an answer that names another tells nothing of it.
  if (workflow === undefined || id === undefined || workflow.id !== id) return [];
  return [[at(WORKFLOW.operations.getWorkflow, id), workflow]];
}
