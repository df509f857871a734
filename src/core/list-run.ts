/** Running a `list` subcommand: page through the API and stream the items to the chosen output. */
import type { ListResource } from '../api/client.js';
import { UsageError } from '../api/errors.js';
import { writeList, type ListView } from '../render/list.js';
import type { Handler } from './declare.js';
import type { ListOptionValues } from './list.js';

export function listHandler<T>(resource: ListResource<T>, view: ListView<T>): Handler<[], ListOptionValues> {
  return async (context, _args, options) => {
    if (options.jsonl && context.globals.json) throw new UsageError('--json and --jsonl cannot be used together', { hint: 'choose one output form' });
    const client = await context.client();
    const pages = client.pages(resource, { perPage: options.perPage, limit: options.limit, cursor: options.cursor });
    await writeList(context.out, pages, view, { singlePage: options.cursor !== undefined, jsonl: options.jsonl, limit: options.limit });
  };
}
