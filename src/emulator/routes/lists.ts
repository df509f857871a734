/** The sandbox's mailing lists. */

import * as s from '../../platform/lists/schemas.js';
import { answer, lazily, type SandboxModule, seedId, slice } from '../module.js';

const list = (name: string, description: string | null, isPublic: boolean): s.MailingList => ({
  id: seedId(`mailing-list/${name}`),
  name,
  description,
  isPublic,
});

const seedLists = lazily((): s.MailingList[] => [
  // The workflows' seed data names the first two.
  list('Product updates', 'Monthly product news and release notes', true),
  list('Beta testers', 'People trying features before everyone else', false),
  list('Event invitations', null, true),
]);

export const mailingLists = slice('mailingLists', s.mailingLists, seedLists);

export const sandbox: SandboxModule = {
  slices: [mailingLists],
  routes: [{ operation: 'listMailingLists', run: ({ state }) => answer(s.mailingLists, mailingLists.of(state)) }],
};
