/** `loopsctl commands`: every command and option, as data for scripts and completion engines. */
import { command } from '../../core/declare.js';
import type { Area } from '../area.js';

export const area: Area = {
  spec: command({
    name: 'commands',
    summary: 'List every command with its arguments and options (--json: all details, for scripts)',
    help: `With --json: {globalOptions, commands}, where each command has its path (the words that run it),
aliases, summary, arguments, options (type boolean or value, default, required, choices,
repeatable), whether it calls the API (remote), and examples.`,
    examples: ['loopsctl commands', 'loopsctl commands --json', "loopsctl commands --jq '.commands[] | select(.remote) | .path | join(\" \")'"],
    remote: false,
    load: async () => (await import('./commands.js')).commands,
  }),
};
