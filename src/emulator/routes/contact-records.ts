/**
 * The contacts the sandbox keeps, as its state holds them, and the demo team's. Apart from the
 * routes (./contacts.ts), so that the modules that report on contacts (webhooks, workflow emails)
 * need none of them.
 */

import { z } from '../../base/shapes.js';
import * as s from '../../platform/contacts/schemas.js';
import { lazily, type RowKind, rowStoreOf, type StateCore, seedId, seedTime, slice } from '../module.js';

const storedContact = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  source: z.string(),
  subscribed: z.boolean(),
  userGroup: z.string(),
  userId: z.nullable(z.string()),
  /** Only the lists the contact is on. */
  mailingLists: z.record(z.string(), z.boolean()),
  optInStatus: z.nullable(z.string()),
  properties: z.record(z.string(), s.propertyValue),
  suppressed: z.boolean(),
  createdAt: z.string(),
});
export type StoredContact = z.infer<typeof storedContact>;

/** A copy to compare a contact with after a change: its values are plain, but for its lists' and properties' records (structuredClone took a tenth of an event's send). */
export function contactCopy(contact: StoredContact): StoredContact {
  return { ...contact, mailingLists: { ...contact.mailingLists }, properties: { ...contact.properties } };
}

const listId = (name: string) => seedId(`mailing-list/${name}`);

/** A contact as the API makes one from an email alone: subscribed, on no list, with no properties. */
export function blankContact(id: string, email: string, createdAt: string): StoredContact {
  return {
    id,
    email,
    firstName: null,
    lastName: null,
    source: 'API',
    subscribed: true,
    userGroup: '',
    userId: null,
    mailingLists: {},
    optInStatus: null,
    properties: {},
    suppressed: false,
    createdAt,
  };
}

function seedContact(email: string, fields: Partial<Omit<StoredContact, 'id' | 'email'>>, hours: number): StoredContact {
  return { ...blankContact(seedId(`contact/${email}`), email, seedTime(hours)), ...fields };
}

const seedContacts = lazily((): StoredContact[] => [
  seedContact(
    'ada@example.com',
    {
      firstName: 'Ada',
      lastName: 'Lovelace',
      userId: 'usr_ada',
      userGroup: 'customers',
      mailingLists: { [listId('Product updates')]: true },
      properties: { plan: 'pro', seats: 12, region: 'EU', betaOptIn: true },
    },
    100,
  ),
  seedContact(
    'grace@example.com',
    {
      firstName: 'Grace',
      lastName: 'Hopper',
      userId: 'usr_grace',
      source: 'Signup form',
      mailingLists: { [listId('Beta testers')]: true },
      properties: { plan: 'trial', region: 'US', trialEndsAt: '2024-10-15T00:00:00.000Z' },
    },
    300,
  ),
  seedContact('linus@example.com', { firstName: 'Linus', userGroup: 'customers', suppressed: true, properties: { plan: 'business', seats: 40 } }, 500),
  seedContact('margaret@example.com', { firstName: 'Margaret', lastName: 'Hamilton', subscribed: false, properties: { plan: 'free' } }, 700),
]);

export const contacts = slice('contacts', z.array(storedContact), seedContacts);

/**
 * The contacts of a state, found by email (in any case, as the API compares them), userId or id at
 * the same cost at 100,000 contacts as at none, and changed only through here, so that a state file
 * writes the contacts a request changed and no other.
 */
export interface ContactTable {
  find(ref: { email: string } | { userId: string }): StoredContact | undefined;
  byId(id: string): StoredContact | undefined;
  add(contact: StoredContact): void;
  remove(contact: StoredContact): void;
  /** After a contact's email or userId changed from `before`'s. */
  reindex(contact: StoredContact, before: Pick<StoredContact, 'email' | 'userId'>): void;
}

/** The contacts as a state file keeps them: a row each, found by email in lower case (key 0) and by userId (key 1). */
const contactRows: RowKind<StoredContact> = { key: contacts.key, check: (row) => storedContact.parse(row) };

/**
 * The state's contacts: the rows of its file, a row at a time, until something reads them all
 * (contacts.of), and the array in memory otherwise.
 */
export function contactTable(state: StateCore): ContactTable {
  const rows = rowStoreOf(state)?.rows(contactRows);
  if (rows !== undefined && !rows.loaded())
    return {
      find: (ref) => ('email' in ref ? rows.byKey(0, ref.email.toLowerCase()) : rows.byKey(1, ref.userId)),
      byId: (id) => rows.byId(id),
      add: (contact) => rows.add(contact),
      remove: (contact) => rows.remove(contact),
      // The rows are found by the keys a contact has when asked: nothing to redo.
      reindex: () => {},
    };
  const all = contacts.of(state);
  return {
    find: (ref) => findContact(all, ref),
    byId: (id) => indexed(all).byId.get(id),
    add: (contact) => addContact(all, contact),
    remove: (contact) => removeContact(all, contact),
    reindex: (contact, before) => reindexContact(all, contact, before),
  };
}

/**
 * The contacts of an array by email (in lower case) and by userId, made once per array (a state
 * read from a file has a new one) and kept by the table's changes; one whose size no longer
 * matches, or whose hit no longer fits, is made again.
 */
interface ContactIndex {
  byEmail: Map<string, StoredContact>;
  byUserId: Map<string, StoredContact>;
  byId: Map<string, StoredContact>;
  size: number;
}
const contactIndexes = new WeakMap<StoredContact[], ContactIndex>();

function indexed(all: StoredContact[]): ContactIndex {
  let index = contactIndexes.get(all);
  if (index === undefined || index.size !== all.length) {
    index = { byEmail: new Map(), byUserId: new Map(), byId: new Map(), size: all.length };
    // The first of two with one email (or userId) is the one a scan would find.
    for (let at = all.length - 1; at >= 0; at -= 1) enter(index, all[at]!);
    contactIndexes.set(all, index);
  }
  return index;
}

function enter(index: ContactIndex, contact: StoredContact): void {
  index.byEmail.set(contact.email.toLowerCase(), contact);
  if (contact.userId !== null) index.byUserId.set(contact.userId, contact);
  index.byId.set(contact.id, contact);
}

function findContact(all: StoredContact[], ref: { email: string } | { userId: string }): StoredContact | undefined {
  const index = indexed(all);
  const found = 'email' in ref ? index.byEmail.get(ref.email.toLowerCase()) : index.byUserId.get(ref.userId);
  if (found === undefined) return undefined;
  const fits = 'email' in ref ? found.email.toLowerCase() === ref.email.toLowerCase() : found.userId === ref.userId;
  if (fits) return found;
  contactIndexes.delete(all);
  return findContact(all, ref);
}

function addContact(all: StoredContact[], contact: StoredContact): void {
  const index = indexed(all);
  all.push(contact);
  index.size += 1;
  if (!index.byEmail.has(contact.email.toLowerCase()) && (contact.userId === null || !index.byUserId.has(contact.userId))) enter(index, contact);
  else contactIndexes.delete(all);
}

function removeContact(all: StoredContact[], contact: StoredContact): void {
  all.splice(all.indexOf(contact), 1);
  contactIndexes.delete(all);
}

function reindexContact(all: StoredContact[], contact: StoredContact, before: Pick<StoredContact, 'email' | 'userId'>): void {
  const index = contactIndexes.get(all);
  if (index === undefined) return;
  if (index.byEmail.get(before.email.toLowerCase()) === contact) index.byEmail.delete(before.email.toLowerCase());
  if (before.userId !== null && index.byUserId.get(before.userId) === contact) index.byUserId.delete(before.userId);
  enter(index, contact);
}
