/** What the `lists` commands do. */
import { type Handler, handler } from '../../core/capabilities.js';
import { writeArrayList } from '../../core/list-run.js';
import { listMailingLists } from './client.js';
import { mailingListView } from './render.js';

export const list: Handler<[], { jsonl?: boolean }> = handler(['out', 'client'], async (context, _args, options) => {
  await writeArrayList(context, await listMailingLists(await context.client()), mailingListView, options.jsonl);
});
