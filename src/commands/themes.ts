/** `loopsctl themes`: the account's email themes. */
import type { Command } from 'commander';
import { themeListView } from '../render/resources.js';
import { addListCommand } from './list.js';

export function register(group: Command): void {
  addListCommand(group, {
    resource: 'themes',
    description: 'List email themes with their main colours, most recently created first',
    example: 'loopsctl themes list',
    view: themeListView,
  });
}
