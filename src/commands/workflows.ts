/** `loopsctl workflow` (alias `workflows`): list workflows and draw their graphs. */
import { type Command, Option } from 'commander';
import { UsageError } from '../api/errors.js';
import { checkId } from '../api/ids.js';
import { renderWorkflowDot } from '../render/workflow-dot.js';
import { renderWorkflowMermaid } from '../render/workflow-mermaid.js';
import { renderWorkflow, renderWorkflowNode, workflowListView } from '../render/workflows.js';
import { clientFor, outputFor } from './context.js';
import { addListCommand } from './list.js';
import { examples } from './options.js';

const ALPHA_NOTE = '\nThe workflow API is in alpha and may change: node types and fields loopsctl does not know are shown as they come.\n';

const GRAPH_FORMATS = ['tree', 'mermaid', 'dot'] as const;
type GraphFormat = (typeof GRAPH_FORMATS)[number];

export function register(group: Command): void {
  group.addHelpText('after', ALPHA_NOTE);

  // `loopsctl workflows` alone lists them.
  addListCommand(
    group,
    { resource: 'workflows', description: 'List workflows (the default subcommand)', example: 'loopsctl workflow list', view: workflowListView },
    { isDefault: true },
  ).addHelpText('after', ALPHA_NOTE);

  examples(
    group
      .command('show')
      .description("Draw a workflow's graph as a tree from its trigger, a Mermaid flowchart or a DOT digraph, or show one node in full with --node")
      .argument('<id>', 'workflow id')
      .option('--node <nodeId>', 'show every field of this node')
      .addOption(new Option('--format <format>', 'how to draw the graph').choices(GRAPH_FORMATS).default('tree')),
    [
      'loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1',
      'loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1 --format mermaid > workflow.mmd',
      'loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1 --format dot | dot -Tsvg > workflow.svg',
      'loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1 --node cln8p0q2r4s6t8u0v2w4x6z8',
      'loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1 --json',
    ],
  )
    .addHelpText('after', ALPHA_NOTE)
    .action(async (id: string, options: { node?: string; format: GraphFormat }, self: Command) => {
      checkId(id, 'workflow id');
      if (options.node !== undefined) checkId(options.node, 'node id');
      const out = outputFor(self);
      // A diagram and the API's JSON are two different answers; asking for both is a mistake.
      if (options.format !== 'tree' && (out.json || options.node !== undefined)) {
        throw new UsageError(`--format ${options.format} draws a whole workflow and cannot be combined with ${out.json ? '--json' : '--node'}`);
      }
      const client = await clientFor(self);
      if (options.node !== undefined) return out.present(await client.getWorkflowNode(id, options.node), renderWorkflowNode);
      const workflow = await client.getWorkflow(id);
      if (options.format === 'mermaid') return out.write(renderWorkflowMermaid(workflow));
      if (options.format === 'dot') return out.write(renderWorkflowDot(workflow));
      return out.present(workflow, renderWorkflow);
    });
}
