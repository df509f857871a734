/** `loopsctl workflow` (alias `workflows`): list workflows and draw their graphs. */
import type { Command } from 'commander';
import { checkId } from '../api/ids.js';
import { renderWorkflow, renderWorkflowNode, workflowListView } from '../render/workflows.js';
import { clientFor, outputFor } from './context.js';
import { addListCommand } from './list.js';
import { examples } from './options.js';

const ALPHA_NOTE = '\nThe workflow API is in alpha and may change: node types and fields loopsctl does not know are shown as they come.\n';

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
      .description("Draw a workflow's graph as a tree from its trigger, or show one node in full with --node")
      .argument('<id>', 'workflow id')
      .option('--node <nodeId>', 'show every field of this node'),
    ['loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1', 'loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1 --node cln8p0q2r4s6t8u0v2w4x6z8', 'loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1 --json'],
  )
    .addHelpText('after', ALPHA_NOTE)
    .action(async (id: string, options: { node?: string }, self: Command) => {
      checkId(id, 'workflow id');
      if (options.node !== undefined) checkId(options.node, 'node id');
      const client = await clientFor(self);
      const out = outputFor(self);
      if (options.node !== undefined) return out.present(await client.getWorkflowNode(id, options.node), renderWorkflowNode);
      return out.present(await client.getWorkflow(id), renderWorkflow);
    });
}
