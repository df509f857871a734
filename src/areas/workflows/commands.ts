/** What the `workflow` commands do. */
import { UsageError } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { getWorkflow, getWorkflowNode, workflows } from './client.js';
import { renderWorkflowDot } from './dot.js';
import type { GRAPH_FORMATS } from './index.js';
import { renderWorkflowMermaid } from './mermaid.js';
import { renderWorkflow, renderWorkflowNode, workflowListView } from './render.js';

export const list = listHandler(workflows, workflowListView);

export const show: Handler<[string], { node?: string; format: (typeof GRAPH_FORMATS)[number] }> = async (context, [id], options) => {
  checkId(id, 'workflow id');
  if (options.node !== undefined) checkId(options.node, 'node id');
  const { out } = context;
  // A diagram and the API's JSON are two different answers; asking for both is a mistake.
  if (options.format !== 'tree' && (out.json || options.node !== undefined)) {
    throw new UsageError(`--format ${options.format} draws a whole workflow and cannot be combined with ${out.json ? '--json' : '--node'}`);
  }
  const client = await context.client();
  if (options.node !== undefined) return out.present(await getWorkflowNode(client, id, options.node), renderWorkflowNode);
  const workflow = await getWorkflow(client, id);
  if (options.format === 'mermaid') return out.write(renderWorkflowMermaid(workflow));
  if (options.format === 'dot') return out.write(renderWorkflowDot(workflow));
  return out.present(workflow, renderWorkflow);
};
