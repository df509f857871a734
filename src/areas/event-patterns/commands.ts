/** What the `event-patterns` commands do. */

import { checkId } from '../../api/ids.js';
import { UsageError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { listHandler } from '../../core/list-run.js';
import { eventPatterns, getEventPattern, getEventPatternByName } from './client.js';
import { eventPatternListView, renderEventPattern } from './render.js';

export const list = listHandler(eventPatterns, eventPatternListView);

/** An event name may hold spaces or slashes (they are encoded), but not control characters. */
function checkEventName(name: string): string {
  if (name === '') throw new UsageError('--name must not be empty');
  if (/[\p{Cc}\p{Cs}]/u.test(name)) throw new UsageError('--name must not contain control characters or broken characters');
  if (name === '.' || name === '..') throw new UsageError('--name must not be "." or ".."');
  return name;
}

export const get: Handler<[string | undefined], { name?: string }> = handler(['out', 'client'], async (context, [id], options) => {
  const client = await context.client();
  // Event patterns are no part of the content API: a 401 is the key's.
  const pattern =
    id !== undefined
      ? await getEventPattern(client, checkId(id, 'event pattern id'))
      : await explained(getEventPatternByName(client, checkEventName(options.name!)), {
          statuses: { 404: 'event names are case-sensitive; see them with `loopsctl event-patterns list`' },
        });
  await context.out.present(pattern, renderEventPattern);
});
