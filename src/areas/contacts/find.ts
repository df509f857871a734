/**
 * `contacts find`, in a module of its own: the first read of many a tour, which loads neither the
 * contact properties' typing nor, unless the contact is on a list, the lists that name its lists.
 */
import type { ApiClient } from '../../api/client.js';
import { LoopsctlError, NotFoundError } from '../../base/errors.js';
import { type Handler, handler } from '../../core/capabilities.js';
import type { Contact } from '../../platform/contacts/schemas.js';
import { findContacts } from './client.js';
import { describe, oneRef, type RefOptions } from './ref.js';
import { renderContacts } from './render.js';

/**
 * The names of the lists the contacts are on, for the text view, read once through the lists'
 * resolver (loaded only then); none when no contact is on a list, or when the API would not give them.
 */
async function listNamesFor(found: Contact[], api: () => Promise<ApiClient>): Promise<ReadonlyMap<string, string> | undefined> {
  if (!found.some((contact) => Object.keys(contact.mailingLists ?? {}).length > 0)) return undefined;
  const { MailingListNames } = await import('../lists/names.js');
  try {
    return new Map((await new MailingListNames(api).read()).map((list) => [list.id, list.name]));
  } catch (error) {
    if (error instanceof LoopsctlError && error.status !== undefined) return undefined;
    throw error;
  }
}

export const find: Handler<[], RefOptions> = handler(['out', 'client'], async (context, _args, options) => {
  const ref = oneRef(options);
  const found = await findContacts(await context.client(), ref);
  const { out } = context;
  // --json passes the API's empty answer through; --jq writes nothing, as for any failed command:
  // `.[0].email` of nothing would print null where a script takes stdout for an address.
  if (out.json && !(found.length === 0 && out.filtered)) await out.writeJson(found);
  else if (found.length > 0) await out.write(renderContacts(out, found, await listNamesFor(found, () => context.client())));
  if (found.length === 0) throw new NotFoundError(`no contact with ${describe(ref)}`, { hint: 'create one with `loopsctl contacts create --email <email>`' });
});
