/** What the `themes` commands do. */

import { checkId } from '../../api/ids.js';
import { UsageError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { explained, explainedHandler } from '../../core/explain.js';
import { readJsonInput } from '../../core/input.js';
import { listHandler } from '../../core/list-run.js';
import { collectStyles, type StylesRequest, stylesFromFile } from '../../platform/themes/styles.js';
import { createTheme, getTheme, themes, updateTheme } from './client.js';
import { renderTheme, renderUpdatedTheme, themeListView } from './render.js';

export const list = explainedHandler(listHandler(themes, themeListView), { contentApi: true });

export const get: Handler<[string]> = handler(['out', 'client'], async (context, [id]) => {
  checkId(id, 'theme id');
  const theme = await explained(getTheme(await context.client(), id), { contentApi: true });
  await context.out.present(theme, renderTheme);
});

interface StyleOptions {
  stylesFile?: string;
  style?: string[];
}

/** The styles given, checked: from --styles-file, then each --style over them. */
async function stylesOf(context: Uses<'files'>, options: StyleOptions): Promise<StylesRequest | undefined> {
  // Every --style is checked before a file is read, so a typo is reported first, whatever the file holds.
  const assignments = collectStyles(options.style ?? []);
  if (options.stylesFile === undefined) return assignments;
  const { source, value } = await readJsonInput(context.runtime, options.stylesFile, 'styles');
  return { ...stylesFromFile(source, value), ...assignments };
}

const REFUSED = { 400: 'a style may have a value the API does not take; see `loopsctl themes get <id>` for values in use' };

export const create: Handler<[], StyleOptions & { name: string }> = handler(['out', 'client', 'files'], async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  const styles = await stylesOf(context, options);
  const body = styles === undefined ? { name: options.name } : { name: options.name, styles };
  const theme = await explained(createTheme(await context.client(), body), { contentApi: true, statuses: REFUSED });
  await context.out.present(theme, renderTheme);
});

export const update: Handler<[string], StyleOptions & { name?: string }> = handler(['out', 'client', 'files'], async (context, [id], options) => {
  checkId(id, 'theme id');
  if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
  const styles = await stylesOf(context, options);
  const body: { name?: string; styles?: StylesRequest } = {};
  if (options.name !== undefined) body.name = options.name;
  if (styles !== undefined) body.styles = styles;
  const updated = await explained(updateTheme(await context.client(), id, body), { contentApi: true, statuses: REFUSED });
  await context.out.present(updated, renderUpdatedTheme);
});
