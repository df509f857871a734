/**
 * `contacts find`, in a module of its own: the first read of many a tour, which loads neither the
 * contact properties' typing nor the lists that the writes check their fields against.
 */
import { NotFoundError } from '../../base/errors.js';
import { handler, type Handler } from '../../core/capabilities.js';
import { findContacts } from './client.js';
import { describe, oneRef, type RefOptions } from './ref.js';
import { renderContacts } from './render.js';

export const find: Handler<[], RefOptions> = handler(['out', 'client'], async (context, _args, options) => {
  const ref = oneRef(options);
  const found = await findContacts(await context.client(), ref);
  const { out } = context;
  // --json passes the API's empty answer through; --jq writes nothing, as for any failed command:
  // `.[0].email` of nothing would print null where a script takes stdout for an address.
  if (out.json && !(found.length === 0 && out.filtered)) await out.writeJson(found);
  else if (found.length > 0) await out.write(renderContacts(out, found));
  if (found.length === 0) throw new NotFoundError(`no contact with ${describe(ref)}`, { hint: 'create one with `loopsctl contacts create --email <email>`' });
});
