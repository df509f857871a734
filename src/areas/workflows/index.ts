/** `loopsctl workflow` (alias `workflows`): workflows and their graphs. */
import { command, group } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import type { Area } from '../area.js';

const ALPHA_NOTE = 'The workflow API is in alpha and may change: node types and fields loopsctl does not know are shown as they come.';
const EXAMPLE_ID = 'cnm1gv0otq1z57mnend2pws3y';
const EXAMPLE_NODE = 'cvxrxvoz3umcxj5nj73mfj9vi';

export const GRAPH_FORMATS = ['tree', 'mermaid', 'dot'] as const;

export const area: Area = {
  spec: group({
    name: 'workflow',
    aliases: ['workflows'],
    summary: 'Workflows and their graphs (alpha API)',
    help: ALPHA_NOTE,
    examples: ['loopsctl workflow list', `loopsctl workflow show ${EXAMPLE_ID}`],
    commands: [
      listCommand({ summary: 'List workflows', example: 'loopsctl workflow list', help: ALPHA_NOTE, load: async () => (await import('./commands.js')).list }),
      command({
        name: 'show',
        aliases: ['get', 'view'],
        summary: "Draw a workflow's graph as a tree from its trigger, a Mermaid flowchart or a DOT digraph, or show one node in full with --node",
        help: ALPHA_NOTE,
        args: [{ name: 'id', description: 'workflow id', completes: 'workflows' }],
        options: [
          { flags: '--node <nodeId>', description: 'show every field of this node' },
          { flags: '--format <format>', description: 'how to draw the graph', choices: GRAPH_FORMATS, default: 'tree' },
        ],
        examples: [
          `loopsctl workflow show ${EXAMPLE_ID}`,
          `loopsctl workflow show ${EXAMPLE_ID} --format mermaid > workflow.mmd`,
          `loopsctl workflow show ${EXAMPLE_ID} --format dot > workflow.dot`,
          `loopsctl workflow show ${EXAMPLE_ID} --node ${EXAMPLE_NODE}`,
          `loopsctl workflow show ${EXAMPLE_ID} --json`,
        ],
        remote: true,
        load: async () => (await import('./commands.js')).show,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
