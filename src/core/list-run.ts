/** Running a `list` subcommand: page through the API and stream the items to the chosen output. */
import type { ApiClient, ListResource } from '../api/client.js';
import { RejectedError, withDetails } from '../base/errors.js';
import { type ListView, writeList } from '../render/list.js';
import { type Handler, handler, type Uses } from './capabilities.js';
import type { ListOptionValues } from './list.js';

/**
 * The list command's behaviour, carrying its resource and view for the picker (pick.ts). A view
 * that names what the items refer to by id (a transactional email's group) is `named`: made for the
 * table from what it reads first through the same client, and never for --json, which passes the
 * API's data through.
 */
export function listHandler<T>(
  resource: ListResource<T>,
  view: ListView<T>,
  named?: (client: ApiClient) => Promise<ListView<T>>,
): Handler<[], ListOptionValues> {
  const listing = handler(['out', 'client'], async (context, _args, options: ListOptionValues) => {
    const client = await context.client();
    const shown = named === undefined || context.out.json || options.jsonl ? view : await named(client);
    const pages = client.pages(resource, { perPage: options.perPage, limit: options.limit, cursor: options.cursor });
    try {
      await writeList(context.out, pages, shown, { singlePage: options.cursor !== undefined, jsonl: options.jsonl, limit: options.limit });
    } catch (error) {
      // The API refuses a cursor it did not hand out (or one of another listing); the rest of a listing request is loopsctl's.
      if (options.cursor !== undefined && error instanceof RejectedError && error.status === 400 && error.hint === undefined) {
        throw withDetails(error, { hint: CURSOR_HINT });
      }
      throw error;
    }
  });
  return Object.assign(listing, { listing: { resource, view } });
}

const CURSOR_HINT =
  'give --cursor the cursor a listing of the same records names in its "run again with --cursor" note (pagination.nextCursor), or leave --cursor out to start at the first page';

/**
 * A list the API answers with one array rather than pages (mailing lists, contact properties):
 * the same output forms as a paged list, from a single page.
 */
export async function writeArrayList<T>(context: Uses<'out'>, items: T[], view: ListView<T>, jsonl: boolean | undefined): Promise<void> {
  const pagination = { totalResults: items.length, returnedResults: items.length, perPage: items.length, totalPages: 1, nextCursor: null, nextPage: null };
  async function* onePage() {
    yield { pagination, data: items };
  }
  await writeList(context.out, onePage(), view, { jsonl });
}
