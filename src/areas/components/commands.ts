/** What the `components` commands do. */

import { checkId } from '../../api/ids.js';
import { LocalFileError, LoopsctlError, UsageError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { checkLmxOfDryRun } from '../../core/dry-run-lmx.js';
import { type Explanation, explainError, explained, explainedHandler } from '../../core/explain.js';
import { readInput } from '../../core/input.js';
import { listHandler } from '../../core/list-run.js';
import { componentValidationFailure } from '../../platform/components/schemas.js';
import { components, createComponent, getComponent, updateComponent } from './client.js';
import { componentListView, lmxText, renderComponent, renderUpdatedComponent } from './render.js';

export const list = explainedHandler(listHandler(components, componentListView), { contentApi: true });

export const get: Handler<[string], { lmx?: boolean }> = handler(['out', 'client'], async (context, [id], options) => {
  checkId(id, 'component id');
  const found = await explained(getComponent(await context.client(), id), { contentApi: true });
  if (options.lmx) return context.out.write(lmxText(context.out, found.lmx));
  await context.out.present(found, renderComponent);
});

/** The LMX of a file or stdin; an empty one is refused before it is sent. */
async function lmxOf(context: Uses<'files' | 'globals'>, file: string): Promise<string> {
  const { source, text } = await readInput(context.runtime, file, 'LMX');
  if (text.trim() === '') throw new LocalFileError(`${source}: the LMX is empty`, { hint: 'a component needs a body, e.g. <Paragraph>Hello</Paragraph>' });
  await checkLmxOfDryRun(context, source, text, 'component');
  return text;
}

/** What a 413 and a 422 mean here; a 422 with invalidTags names the variables at fault. */
async function explainedWrite<T>(call: Promise<T>, explanation: Explanation): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const failure = componentValidationFailure.safeParse(error instanceof LoopsctlError ? error.body : undefined);
    const tags = failure.success ? (failure.data.invalidTags ?? []) : [];
    const invalidLmx =
      tags.length > 0
        ? `emails using this component cannot use ${tags.map((tag) => `{${tag}}`).join(', ')}: leave these variables out, or add them to those emails first`
        : 'the LMX is not valid: check that every tag is a known LMX tag and is closed';
    throw explainError(error, { ...explanation, statuses: { 413: 'the LMX is larger than the API takes; split it into smaller components', 422: invalidLmx } });
  }
}

export const create: Handler<[], { name: string; lmxFile: string }> = handler(['out', 'client', 'files', 'globals'], async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  const lmx = await lmxOf(context, options.lmxFile);
  const created = await explainedWrite(createComponent(await context.client(), { name: options.name, lmx }), { contentApi: true });
  await context.out.present(created, renderComponent);
});

export const update: Handler<[string], { name?: string; lmxFile?: string }> = handler(['out', 'client', 'files', 'globals'], async (context, [id], options) => {
  checkId(id, 'component id');
  if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
  const body: { name?: string; lmx?: string } = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.lmxFile !== undefined) body.lmx = await lmxOf(context, options.lmxFile);
  const updated = await explainedWrite(updateComponent(await context.client(), id, body), { contentApi: true });
  await context.out.present(updated, renderUpdatedComponent);
});
