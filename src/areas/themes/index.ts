/** `loopsctl themes`: the account's email themes. */
import { command, group } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import type { Area } from '../area.js';

const EXAMPLE_ID = 'cltm5y6g0tpd5kz8nbp117x0v';

export const area: Area = {
  spec: group({
    name: 'themes',
    summary: 'Email themes: list, get',
    examples: ['loopsctl themes list', `loopsctl themes get ${EXAMPLE_ID}`],
    commands: [
      listCommand({
        summary: 'List email themes with their main colours, most recently created first',
        example: 'loopsctl themes list',
        load: async () => (await import('./commands.js')).list,
      }),
      command({
        name: 'get',
        aliases: ['show', 'view'],
        summary: 'Show every style of a theme, grouped as in the theme editor',
        args: [{ name: 'id', description: 'theme id (from `loopsctl themes list`)', completes: 'themes' }],
        examples: [`loopsctl themes get ${EXAMPLE_ID}`, `loopsctl themes get ${EXAMPLE_ID} --json`],
        remote: true,
        load: async () => (await import('./commands.js')).get,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
