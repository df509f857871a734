/** `loopsctl segments`: audience segments and their filters. */
import type { Command } from 'commander';
import { segmentListView } from '../render/resources.js';
import { addListCommand } from './list.js';

export function register(group: Command): void {
  addListCommand(group, {
    resource: 'segments',
    description: 'List audience segments with their filters in words, most recently created first',
    example: 'loopsctl segments list',
    view: segmentListView,
  });
}
