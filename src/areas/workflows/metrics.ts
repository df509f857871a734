/** `workflow node metrics`: each send-email node's sends, opens and clicks. */
import type { ApiClient } from '../../api/client.js';
import { checkId } from '../../api/ids.js';
import { RejectedError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { type EachItem, fetchEach, renderEmailMetrics, writeMetricsJson } from '../../core/email-metrics.js';
import { type Explanation, explained } from '../../core/explain.js';
import type { EmailMetrics } from '../../platform/email-metrics.js';
import { withArticle } from '../../platform/words.js';
import { depthFirstFrom, graphOf } from '../../platform/workflows/graph.js';
import { describeNode } from '../../platform/workflows/node-types.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import * as api from './client.js';

/** The send-email nodes of a workflow in the order the tree draws them: from the trigger, then those it does not reach. */
export function sendEmailNodes(workflow: Pick<Workflow, 'rootNodeId' | 'nodes'>): string[] {
  const graph = graphOf(
    Object.entries(workflow.nodes),
    ([id]) => id,
    ([, node]) => node.nextNodeIds,
  );
  const starts = workflow.rootNodeId === null ? Object.keys(workflow.nodes) : [workflow.rootNodeId, ...Object.keys(workflow.nodes)];
  return depthFirstFrom(graph, ...starts).filter((id) => workflow.nodes[id]!.typeName === 'SendEmailAction');
}

/** Fetching the metrics of a workflow's nodes; a node that sends no email is said in words, not failed. */
export function nodeMetricsRun(client: ApiClient, workflow: Workflow, nodeIds: string[]): EachItem<EmailMetrics> {
  const hints: Explanation = { metricsApi: true, statuses: { 404: `see the workflow's nodes with \`loopsctl workflow show ${workflow.id}\`` } };
  return {
    items: nodeIds,
    noun: 'send-email nodes',
    fetch: (nodeId) => explained(api.nodeMetrics(client, workflow.id, nodeId), hints),
    noMetrics: async (nodeId, error) => (error instanceof RejectedError && error.status === 400 ? whyNoMetrics(workflow, nodeId) : undefined),
    about: (nodeId) => ({ workflowId: workflow.id, nodeId }),
  };
}

/** Why the API has no metrics for a node, read from the graph; undefined when it should have some. */
function whyNoMetrics(workflow: Workflow, nodeId: string): string | undefined {
  if (!Object.hasOwn(workflow.nodes, nodeId)) return undefined;
  const node = workflow.nodes[nodeId]!;
  if (node.typeName !== 'SendEmailAction') {
    const description = describeNode(node);
    return `${withArticle(node.typeName)} node${description ? ` (${description})` : ''} sends no email, so it has no metrics; only send-email nodes do`;
  }
  if (typeof node.emailMessageId !== 'string' || node.emailMessageId === '') return 'this send-email node has no email message yet, so it has no metrics';
  return undefined;
}

export const nodeMetrics: Handler<[string, string[]], { jsonl?: boolean }> = handler(['out', 'client', 'globals'], async (context, [id, given], options) => {
  checkId(id, 'workflow id');
  given.forEach((nodeId) => checkId(nodeId, 'node id'));
  const { out } = context;
  const client = await context.client();
  const workflow = await api.getWorkflow(client, id);
  const nodeIds = given.length > 0 ? given : sendEmailNodes(workflow);
  const jsonl = options.jsonl === true;
  if (nodeIds.length === 0) {
    context.runtime.stderr.write(`workflow ${id} has no send-email nodes, so it has no email metrics\n`);
    if (out.json || jsonl) await writeMetricsJson(out, [], jsonl);
    return;
  }
  const { found, code } = await fetchEach(context, nodeMetricsRun(client, workflow, nodeIds), options);
  if (out.json || jsonl) {
    if (found.length > 0 || code === 0)
      await writeMetricsJson(
        out,
        found.map(({ item, value }) => ({ workflowId: id, nodeId: item, ...value })),
        jsonl,
      );
  } else if (found.length > 0) {
    const subject = (nodeId: string) => {
      const value = Object.hasOwn(workflow.nodes, nodeId) ? workflow.nodes[nodeId]!.subject : undefined;
      return typeof value === 'string' && value !== '' ? value : '-';
    };
    await out.write(
      renderEmailMetrics(
        out,
        found.map(({ item, value }) => ({ id: item, name: subject(item), metrics: value })),
        { id: 'NODE', name: 'SUBJECT' },
      ),
    );
  }
  return code;
});
