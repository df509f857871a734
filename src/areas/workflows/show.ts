/** `workflow show` and `workflow node get`: a workflow drawn (text, Mermaid, DOT), or one node. */
import type { ApiClient } from '../../api/client.js';
import { NotFoundError } from '../../base/errors.js';
import { checkId } from '../../api/ids.js';
import { openWeb } from '../../core/browser.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { describeEngagement, fetchEach } from '../email-metrics.js';
import { explainError, type Explanation } from '../explain.js';
import * as api from './client.js';
import { renderWorkflowDot } from './dot.js';
import type { GRAPH_FORMATS } from './graph-formats.js';
import { renderWorkflowMermaid } from './mermaid.js';
import { renderWorkflow, renderWorkflowNode } from './render.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import { conditionNotes, noteUnread, withConditions } from './conditions.js';
import { nodeMetricsRun, sendEmailNodes } from './metrics.js';

type ShowOptions = { node?: string; format: (typeof GRAPH_FORMATS)[number]; metrics?: boolean; details?: boolean; web?: boolean };

export const show: Handler<[string], ShowOptions> = async (context, [id], options) => {
  checkId(id, 'workflow id');
  if (options.node !== undefined) checkId(options.node, 'node id');
  const { out } = context;
  if (options.node !== undefined) return showNode(context, id, options.node);
  const client = await context.client();
  const workflow = await api.getWorkflow(client, id);
  if (options.web) return openWeb(context, workflow.url, `workflow ${id}`);
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
};

/** Each send-email node's sends, open and click rates, in words by node id, and the exit code of the nodes that failed. */
async function engagementByNode(context: CommandContext, client: ApiClient, workflow: Workflow): Promise<{ notes: Map<string, string>; code: number }> {
  const { found, code } = await fetchEach(context, nodeMetricsRun(client, workflow, sendEmailNodes(workflow)), {});
  return { notes: new Map(found.map(({ item, value }) => [item, describeEngagement(value)])), code };
}

const NODE_HINT = (workflowId: string): Explanation => ({
  statuses: { 404: { message: (said) => said, hint: `see the workflow's nodes with \`loopsctl workflow show ${workflowId}\`` } },
});

async function showNode(context: CommandContext, id: string, nodeId: string): Promise<void> {
  const node = await api.getWorkflowNode(await context.client(), id, nodeId).catch((error: unknown) => {
    // A node that is not there: its workflow's tree names the ones that are (a missing workflow keeps the usual hint).
    throw error instanceof NotFoundError && /node/i.test(error.message) ? explainError(error, NODE_HINT(id)) : error;
  });
  await context.out.present(node, renderWorkflowNode);
}

export const nodeGet: Handler<[string, string]> = async (context, [id, nodeId]) => {
  checkId(id, 'workflow id');
  checkId(nodeId, 'node id');
  await showNode(context, id, nodeId);
};
