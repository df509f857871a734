/** The one way every `list` subcommand is declared and run: paging options, streaming output. */
import type { Command } from 'commander';
import type { ListItem, ListResource } from '../api/client.js';
import { UsageError } from '../api/errors.js';
import { writeList, type ListView } from '../render/list.js';
import { clientFor, globalOptions, outputFor } from './context.js';
import { addListOptions, examples, listOptions, type ListCommandOptions } from './options.js';

export interface ListCommandSpec<R extends ListResource> {
  resource: R;
  description: string;
  example: string;
  view: ListView<ListItem<R>>;
}

export function addListCommand<R extends ListResource>(group: Command, spec: ListCommandSpec<R>, opts: { isDefault?: boolean } = {}): Command {
  const command = addListOptions(group.command('list', { isDefault: opts.isDefault }).description(spec.description));
  examples(command, [spec.example, `${spec.example} --json --limit 100`, `${spec.example} --jsonl > items.jsonl`, `${spec.example} --per-page 50 --cursor <cursor> --json`]);
  return command.action(async (options: ListCommandOptions, self: Command) => {
    if (options.jsonl && globalOptions(self).json) throw new UsageError('--json and --jsonl cannot be used together', { hint: 'choose one output form' });
    const client = await clientFor(self);
    const pages = client.pages(spec.resource, listOptions(options));
    await writeList(outputFor(self), pages, spec.view, { singlePage: options.cursor !== undefined, jsonl: options.jsonl, limit: options.limit });
  });
}
