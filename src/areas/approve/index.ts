/** `loopsctl approve`: a person's yes to a change an agent proposed through `loopsctl mcp`. */
import { command, type Spec } from '../../core/declare.js';

export const spec: Spec = command({
  name: 'approve',
  summary: 'Approve a change an agent proposed through `loopsctl mcp`, as a person at a terminal',
  help: `A change above the write tier (a send, a publish, a schedule, a delete, an edit of a
live workflow, contacts discarded) that an agent asks for through \`loopsctl mcp\` needs a
person's yes. A client that can ask its person (MCP elicitation) asks there; from one that
cannot, the tool answers "pending approval" with the change's id, and a person runs this
command with it: it shows what the change does, on which account, and asks. The approval is
for that change only (its digest), and expires with it (an hour after it was proposed); the
agent then applies it with approved_apply (or workflow_apply), once.

It asks on the terminal and nowhere else: there is no --yes, so that the agent, which can run
commands, cannot approve its own change. Run elsewhere (a pipe, a script), it refuses (exit 2)
and approves nothing. See docs/agents.md.`,
  args: [{ name: 'id', description: 'the id of the change, as the tool answered it (p-…)' }],
  examples: ['loopsctl approve p-4k2m9x0q7c1z'],
  remote: false,
  load: async () => (await import('./commands.js')).approve,
});
