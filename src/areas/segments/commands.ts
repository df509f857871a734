/** What the `segments` commands do. */

import { checkId } from '../../api/ids.js';
import { UsageError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { explained, explainedHandler } from '../../core/explain.js';
import { readJsonInput } from '../../core/input.js';
import { listHandler } from '../../core/list-run.js';
import { checkAudienceFilterFrom } from '../../platform/segments/filter.js';
import { type CreateSegmentBody, createSegment, getSegment, segments } from './client.js';
import { renderSegment, segmentListView } from './render.js';

export const list = explainedHandler(listHandler(segments, segmentListView), { contentApi: true });

export const get: Handler<[string]> = handler(['out', 'client'], async (context, [id]) => {
  checkId(id, 'segment id');
  const segment = await explained(getSegment(await context.client(), id), { contentApi: true });
  await context.out.present(segment, renderSegment);
});

export const create: Handler<[], { name: string; description?: string; filterFile: string }> = handler(
  ['out', 'client', 'files'],
  async (context, _args, options) => {
    if (options.name.trim() === '') throw new UsageError('--name must not be empty');
    const { source, value } = await readJsonInput(context.runtime, options.filterFile, 'filter');
    const body: CreateSegmentBody = { name: options.name, filter: checkAudienceFilterFrom(source, value) };
    if (options.description !== undefined) body.description = options.description;
    const segment = await explained(createSegment(await context.client(), body), {
      contentApi: true,
      statuses: {
        // The API's words tell which of its two refusals it is.
        400: (message) =>
          /already exists|name/i.test(message)
            ? 'segment names are unique in a team: choose another --name (`loopsctl segments list` shows the names taken)'
            : 'the filter may have too many conditions; see `loopsctl segments create --help`',
        404: 'an activity condition names a campaign, workflow or workflow email that does not exist; see the campaigns with `loopsctl campaigns list`, the workflows with `loopsctl workflow list` and their emails with `loopsctl workflow show <id>`',
      },
    });
    await context.out.present(segment, renderSegment);
  },
);
