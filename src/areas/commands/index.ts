/** `loopsctl commands`: every command and option, as data for scripts and completion engines. */
import { command, type Spec } from '../../core/declare.js';

export const spec: Spec = command({
  name: 'commands',
  summary: 'List every command with its arguments and options (--json: all details, for scripts)',
  help: `With --json: {version, globalOptions, groups, commands}, where each command has its path (the
words that run it), aliases, summary, arguments, options (type boolean or value, default, required,
choices, repeatable, the tier giving it raises the command to), whether it calls the API (remote),
its tier (read, write or destructive: what it may do to the account), its constraints (exclusive:
flags of which at most one may be given; oneRequired: sets of which one must be; an argument is
written <name>), and examples.`,
  examples: ['loopsctl commands', 'loopsctl commands --json', 'loopsctl commands --jq \'.commands[] | select(.tier == "read") | .path | join(" ")\''],
  remote: false,
  load: async (tree) => (await import('./commands.js')).commandsOf(await tree()),
});
