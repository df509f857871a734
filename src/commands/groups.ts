/** `loopsctl groups` (alias `transactional-groups`): transactional groups. */
import type { Command } from 'commander';
import { checkId } from '../api/ids.js';
import { groupListView, renderGroup } from '../render/groups.js';
import { clientFor, outputFor } from './context.js';
import { addListCommand } from './list.js';
import { examples } from './options.js';

export function register(group: Command): void {
  addListCommand(group, {
    resource: 'transactionalGroups',
    description: 'List transactional groups, most recently created first',
    example: 'loopsctl groups list',
    view: groupListView('transactional groups'),
  });

  examples(group.command('get').description('Show one transactional group').argument('<id>', 'transactional group id'), [
    'loopsctl groups get clg7n5p3q1r9s7t5u3v1w9y7',
  ]).action(async (id: string, _options: unknown, self: Command) => {
    checkId(id, 'transactional group id');
    await outputFor(self).present(await (await clientFor(self)).getTransactionalGroup(id), renderGroup);
  });
}
