/** What the `themes` commands do. */
import { NotFoundError } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { themes } from './client.js';
import { renderTheme, themeListView } from './render.js';

export const list = listHandler(themes, themeListView);

export const get: Handler<[string]> = async (context, [id]) => {
  checkId(id, 'theme id');
  const client = await context.client();
  for await (const page of client.pages(themes, { perPage: 50 })) {
    const theme = page.data.find((candidate) => candidate.id === id);
    if (theme !== undefined) return context.out.present(theme, renderTheme);
  }
  throw new NotFoundError(`no theme with id "${id}"`, { hint: 'see the ids with `loopsctl themes list`' });
};
