/** What `loopsctl open` does: the place's address, opened or printed (src/core/browser.ts). */
import { UsageError } from '../../base/errors.js';
import { APP_ORIGIN, openPage } from '../../core/browser.js';
import { type Handler, handler } from '../../core/capabilities.js';

/** Ids of the API are letters, digits, '_' and '-': anything else could change which page the address names. */
const RECORD_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function openPlace(path: string, what: string | undefined): Handler<[string | undefined]> {
  return handler(['out', 'programs'], async (context, [id]) => {
    if (id !== undefined && !RECORD_ID.test(id)) {
      throw new UsageError(`${JSON.stringify(id.slice(0, 100))} is not the id of a ${what}`, {
        hint: 'ids are letters, digits, "_" and "-", as `list` commands show them',
      });
    }
    const url = `${APP_ORIGIN}${path}${id === undefined ? '' : `/${id}`}`;
    // A script that asks for JSON gets the address, and no browser.
    if (context.out.json) return context.out.writeJson({ url });
    await openPage(context, url);
  });
}
