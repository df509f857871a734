/** `loopsctl campaign-groups`: list, show and edit the groups campaigns are sorted into. */
import type { Command } from 'commander';
import { UsageError } from '../api/errors.js';
import { checkId } from '../api/ids.js';
import { groupListView, renderGroup } from '../render/groups.js';
import { clientFor, outputFor } from './context.js';
import { addListCommand } from './list.js';
import { examples, groupName } from './options.js';

export function register(group: Command): void {
  addListCommand(group, {
    resource: 'campaignGroups',
    description: 'List campaign groups, most recently created first',
    example: 'loopsctl campaign-groups list',
    view: groupListView('campaign groups'),
  });

  examples(group.command('get').description('Show one campaign group').argument('<id>', 'campaign group id'), [
    'loopsctl campaign-groups get clg7n5p3q1r9s7t5u3v1w9y7',
  ]).action(async (id: string, _options: unknown, self: Command) => {
    checkId(id, 'campaign group id');
    await outputFor(self).present(await (await clientFor(self)).getCampaignGroup(id), renderGroup);
  });

  examples(
    group
      .command('update')
      .description('Rename a campaign group or change its description (the Unsorted group cannot be edited)')
      .argument('<id>', 'campaign group id')
      .option('--name <name>', 'new name (not "Unsorted")', groupName)
      .option('--description <text>', 'new description'),
    ['loopsctl campaign-groups update clg7n5p3q1r9s7t5u3v1w9y7 --name "Newsletters"', 'loopsctl campaign-groups update clg7n5p3q1r9s7t5u3v1w9y7 --description ""'],
  ).action(async (id: string, options: { name?: string; description?: string }, self: Command) => {
    checkId(id, 'campaign group id');
    const body: { name?: string; description?: string } = {};
    if (options.name !== undefined) body.name = options.name;
    if (options.description !== undefined) body.description = options.description;
    if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give --name, --description or both');
    await outputFor(self).present(await (await clientFor(self)).updateCampaignGroup(id, body), renderGroup);
  });
}
