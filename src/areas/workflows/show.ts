/** `workflow show` and `workflow node get`: a workflow drawn (text, Mermaid, DOT), or one node. */
import type { ApiClient } from '../../api/client.js';
import { checkId } from '../../api/ids.js';
import { NotFoundError, UsageError } from '../../base/errors.js';
import { openWeb } from '../../core/browser.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { describeEngagement, fetchEach } from '../../core/email-metrics.js';
import { type Explanation, explainError } from '../../core/explain.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import * as api from './client.js';
import { conditionNotes, noteUnread, withConditions } from './conditions.js';
import { renderWorkflowDot } from './dot.js';
import type { GRAPH_FORMATS } from './graph-formats.js';
import { renderWorkflowMermaid } from './mermaid.js';
import { nodeMetricsRun, sendEmailNodes } from './metrics.js';
import { renderWorkflow, renderWorkflowNode } from './render.js';

type ShowOptions = { file?: string; node?: string; format: (typeof GRAPH_FORMATS)[number]; metrics?: boolean; details?: boolean; web?: boolean };

export const show: Handler<[string | undefined], ShowOptions> = handler(['out', 'client', 'files', 'globals', 'programs'], async (context, [id], options) => {
  if ((id === undefined) === (options.file === undefined))
    throw new UsageError(id === undefined ? 'name a workflow: its id, or --file' : 'give a workflow id or --file, not both');
  // Loaded only for a local file: drawing the account's workflow reads no YAML.
  if (options.file !== undefined) return showLocal(context, (await import('./local.js')).readLocalWorkflow(options.file), options);
  const workflowId = checkId(id, 'workflow id');
  if (options.node !== undefined) checkId(options.node, 'node id');
  const { out } = context;
  if (options.node !== undefined) return showNode(context, workflowId, options.node);
  const client = await context.client();
  const workflow = await api.getWorkflow(client, workflowId);
  if (options.web) return openWeb(context, workflow.url, `workflow ${workflowId}`);
  if (out.json) return out.writeJson(workflow);
  const [conditions, annotations] = await Promise.all([
    withConditions(context, client, workflow, options.details === true),
    options.metrics ? engagementByNode(context, client, workflow) : undefined,
  ]);
  const notes = conditionNotes(conditions.unread, annotations?.notes);
  const drawn = conditions.workflow;
  if (options.format === 'mermaid') await out.write(renderWorkflowMermaid(drawn, notes));
  else if (options.format === 'dot') await out.write(renderWorkflowDot(drawn, notes));
  else await out.write(renderWorkflow(out, drawn, notes));
  noteUnread(context, conditions.unread, 'Add --details to read them all, or --node <id> for one.');
  return annotations?.code;
});

/** A workflow file drawn as the account's are: its conditions are in the file, and nothing is requested. */
async function showLocal(context: Uses<'out'>, workflow: Workflow, options: ShowOptions): Promise<void> {
  const { out } = context;
  if (options.node !== undefined || options.metrics || options.web)
    throw new UsageError('--node, --metrics and --web need a workflow of the account', { hint: 'name its id rather than its file' });
  if (out.json) return out.writeJson(workflow);
  const notes = conditionNotes([]);
  if (options.format === 'mermaid') await out.write(renderWorkflowMermaid(workflow, notes));
  else if (options.format === 'dot') await out.write(renderWorkflowDot(workflow, notes));
  else await out.write(renderWorkflow(out, workflow, notes));
}

/** Each send-email node's sends, open and click rates, in words by node id, and the exit code of the nodes that failed. */
async function engagementByNode(
  context: Uses<'out' | 'client' | 'globals'>,
  client: ApiClient,
  workflow: Workflow,
): Promise<{ notes: Map<string, string>; code: number }> {
  const { found, code } = await fetchEach(context, nodeMetricsRun(client, workflow, sendEmailNodes(workflow)), {});
  return { notes: new Map(found.map(({ item, value }) => [item, describeEngagement(value)])), code };
}

const NODE_HINT = (workflowId: string): Explanation => ({
  statuses: { 404: { message: (said) => said, hint: `see the workflow's nodes with \`loopsctl workflow show ${workflowId}\`` } },
});

async function showNode(context: Uses<'out' | 'client'>, id: string, nodeId: string): Promise<void> {
  const node = await api.getWorkflowNode(await context.client(), id, nodeId).catch((error: unknown) => {
    // A node that is not there: its workflow's tree names the ones that are (a missing workflow keeps the usual hint).
    throw error instanceof NotFoundError && /node/i.test(error.message) ? explainError(error, NODE_HINT(id)) : error;
  });
  await context.out.present(node, renderWorkflowNode);
}

export const nodeGet: Handler<[string, string]> = handler(['out', 'client'], async (context, [id, nodeId]) => {
  checkId(id, 'workflow id');
  checkId(nodeId, 'node id');
  await showNode(context, id, nodeId);
});
