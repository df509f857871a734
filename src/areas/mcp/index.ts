/** `loopsctl mcp`: loopsctl's commands as the tools of a Model Context Protocol server, for agents. */
import { command } from '../../core/declare.js';
import type { Area } from '../area.js';

const HELP = `Serves over stdin and stdout until the client closes stdin: add it to an
agent's MCP servers (see docs/agents.md). Each command that calls the API is a
tool of the same name (themes_list), its inputs the command's arguments and
options; a call runs the command with --json, so its pacing, retries,
idempotency keys and exit codes are those of the command. Lists answer at most
"limit" items (default 100) and a nextCursor to continue.

What the tools may change is yours to choose: by default only commands that
read; --allow-writes adds creates and updates, --allow-destructive deletes,
publishing and sends. --tools narrows to the tools named (or a group's:
themes); "meta" adds search_commands, describe_command and run_command, which
alone reach every command of the tier.

--sandbox serves the built-in sandbox (rehearse, then read \`loopsctl sandbox
outbox\`); --profile picks the stored key. The resource loopsctl://context
tells the team, profile and tier.`;

export const area: Area = {
  spec: command({
    name: 'mcp',
    summary: 'Serve the commands as tools of a local MCP server for agents, read-only unless allowed more',
    help: HELP,
    options: [
      { flags: '--allow-writes', description: 'also offer commands that create and update' },
      { flags: '--allow-destructive', description: 'also offer commands that delete, publish and send (implies --allow-writes)' },
      {
        flags: '--tools <names>',
        description: 'only these tools, comma-separated: tool names (themes_list), groups (themes), meta',
        parse: (value: string) => value.split(',').map((name) => name.trim()).filter((name) => name !== ''),
      },
    ],
    examples: ['loopsctl mcp --sandbox', 'loopsctl mcp --profile staging --allow-writes', 'loopsctl mcp --sandbox --allow-destructive --tools meta', 'loopsctl mcp --tools themes,campaigns_list'],
    remote: true,
    // Itself it reads the account's context; what its tools may do is the tier it is started with.
    tier: 'read',
    interactive: true,
    load: async () => (await import('./server.js')).serve,
  }),
};
