/** `loopsctl segments`: audience segments and their filters. */
import { group } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import type { Area } from '../area.js';

export const area: Area = {
  spec: group({
    name: 'segments',
    summary: 'Audience segments: list',
    examples: ['loopsctl segments list', 'loopsctl segments list --json'],
    commands: [
      listCommand({
        summary: 'List audience segments with their filters in words, most recently created first',
        example: 'loopsctl segments list',
        load: async () => (await import('./commands.js')).list,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
