/** `loopsctl mcp`: loopsctl's commands as the tools of a Model Context Protocol server, for agents. */
import { command, type Spec } from '../../core/declare.js';

const HELP = `Serves over stdin and stdout until the client closes stdin: add it to an
agent's MCP servers (see docs/agents.md). Each command that calls the API is a
tool of the same name (themes_list), its inputs the command's arguments and
options, typed; each call runs the command inside the server, which keeps one
key, one client and, with --sandbox, one sandbox for its life. Lists take any
"limit" and answer a nextCursor to continue; no answer holds more than 1 MiB.

What the tools may change is yours to choose: by default only commands that
read; --allow-writes adds creates and updates, --allow-destructive deletes,
publishing, sends and whatever can start a send (contacts, a campaign's
schedule). --tools narrows to the tools named (or a group's: themes); "meta"
adds search_commands, describe_command and run_command, which alone reach
every command of the tier.

No tool touches a local file unless --root names a directory: content (LMX,
filters, styles, variables, attachments) is given inline, and with --root the
content and import commands read and write paths under it only.

--sandbox serves the built-in sandbox (rehearse, then read \`loopsctl sandbox
outbox\`); --profile picks the stored key, and without a key the server does
not start. The resource loopsctl://context tells the team, profile and tier.`;

export const spec: Spec = command({
  name: 'mcp',
  summary: 'Serve the commands as tools of a local MCP server for agents, read-only unless allowed more',
  help: HELP,
  options: [
    { flags: '--allow-writes', description: 'also offer commands that create and update' },
    { flags: '--allow-destructive', description: 'also offer commands that delete, publish and send (implies --allow-writes)' },
    { flags: '--root <dir>', description: 'the directory whose files the tools may read and write (default: none, so no tool touches a file)' },
    {
      flags: '--log <file>',
      description: 'append one JSON line per call to this file: the tool, its arguments (secrets and content masked), the outcome, the time',
    },
    {
      flags: '--tools <names>',
      description: 'only these tools, comma-separated: tool names (themes_list), groups (themes), meta',
      parse: (value: string) =>
        value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
    },
  ],
  examples: [
    'loopsctl mcp --sandbox',
    'loopsctl mcp --profile staging --allow-writes',
    'loopsctl mcp --sandbox --allow-destructive --tools meta',
    'loopsctl mcp --tools themes,campaigns_list',
    'loopsctl mcp --sandbox --root . --log mcp-calls.jsonl',
  ],
  remote: true,
  // Itself it reads the account's context; what its tools may do is the tier it is started with.
  tier: 'read',
  interactive: true,
  load: async (tree) => (await import('./server.js')).serverOf(await tree()),
});
