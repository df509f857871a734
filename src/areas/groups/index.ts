/** `loopsctl groups` (alias `transactional-groups`): transactional groups. */
import { command, group } from '../../core/declare.js';
import { listCommand } from '../../core/list.js';
import type { Area } from '../area.js';

const EXAMPLE_ID = 'c670t9v12lnoky3oebk56hswc';

export const area: Area = {
  spec: group({
    name: 'groups',
    aliases: ['transactional-groups'],
    summary: 'Transactional groups: list, get',
    examples: ['loopsctl groups list', `loopsctl groups get ${EXAMPLE_ID}`],
    commands: [
      listCommand({ summary: 'List transactional groups, most recently created first', example: 'loopsctl groups list', load: async () => (await import('./commands.js')).list }),
      command({
        name: 'get',
        aliases: ['show', 'view'],
        summary: 'Show one transactional group',
        args: [{ name: 'id', description: 'transactional group id', completes: 'transactional-groups' }],
        examples: [`loopsctl groups get ${EXAMPLE_ID}`],
        remote: true,
        load: async () => (await import('./commands.js')).get,
      }),
    ],
  }),
  sandbox: async () => (await import('./sandbox.js')).sandbox,
};
