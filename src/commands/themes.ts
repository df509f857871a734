/** `loopsctl themes`: the account's email themes. */
import type { Command } from 'commander';
import { NotFoundError } from '../api/errors.js';
import { checkId } from '../api/ids.js';
import { renderTheme, themeListView } from '../render/resources.js';
import { clientFor, outputFor } from './context.js';
import { addListCommand } from './list.js';
import { examples } from './options.js';

export function register(group: Command): void {
  addListCommand(group, {
    resource: 'themes',
    description: 'List email themes with their main colours, most recently created first',
    example: 'loopsctl themes list',
    view: themeListView,
  });

  examples(
    group
      .command('show')
      .description('Show every style of a theme, grouped as in the theme editor')
      .argument('<id>', 'theme id (from `loopsctl themes list`)'),
    ['loopsctl themes show cm2p4r6t8v0x2z4b6d8f0h2j', 'loopsctl themes show cm2p4r6t8v0x2z4b6d8f0h2j --json'],
  ).action(async (id: string, _options: unknown, self: Command) => {
    checkId(id, 'theme id');
    const client = await clientFor(self);
    // The API has no operation to fetch one theme: page through the list, stopping once it is found.
    for await (const page of client.pages('themes', { perPage: 50 })) {
      const theme = page.data.find((candidate) => candidate.id === id);
      if (theme !== undefined) return outputFor(self).present(theme, renderTheme);
    }
    throw new NotFoundError(`no theme with id "${id}"`, { hint: 'see the ids with `loopsctl themes list`' });
  });
}
