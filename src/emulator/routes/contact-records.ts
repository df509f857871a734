/**
 * The contacts the sandbox keeps, as its state holds them, and the demo team's. Apart from the
 * routes (./contacts.ts), so that the modules that report on contacts (webhooks, workflow emails)
 * need none of them.
 */
import * as s from '../../platform/contacts/schemas.js';
import { z } from '../../base/shapes.js';
import { seedId, seedTime, slice, lazily } from '../module.js';

const storedContact = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  source: z.string(),
  subscribed: z.boolean(),
  userGroup: z.string(),
  userId: z.string().nullable(),
  /** Only the lists the contact is on. */
  mailingLists: z.record(z.string(), z.boolean()),
  optInStatus: z.string().nullable(),
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
 * The contacts by email (in lower case, as the API compares them) and by userId, so that a create
 * or a lookup costs the same at 100,000 contacts as at none. Made once per list of contacts (a
 * state read from a file has a new one) and kept by the routes that change it (addContact,
 * removeContact, reindexContact); one whose size no longer matches, or whose hit no longer fits,
 * is made again.
 */
interface ContactIndex {
  byEmail: Map<string, StoredContact>;
  byUserId: Map<string, StoredContact>;
  size: number;
}
const contactIndexes = new WeakMap<StoredContact[], ContactIndex>();

function indexed(all: StoredContact[]): ContactIndex {
  let index = contactIndexes.get(all);
  if (index === undefined || index.size !== all.length) {
    index = { byEmail: new Map(), byUserId: new Map(), size: all.length };
    // The first of two with one email (or userId) is the one a scan would find.
    for (const contact of [...all].reverse()) enter(index, contact);
    contactIndexes.set(all, index);
  }
  return index;
}

function enter(index: ContactIndex, contact: StoredContact): void {
  index.byEmail.set(contact.email.toLowerCase(), contact);
  if (contact.userId !== null) index.byUserId.set(contact.userId, contact);
}

/** The contact with this email (any case) or userId. */
export function findContact(all: StoredContact[], ref: { email: string } | { userId: string }): StoredContact | undefined {
  const index = indexed(all);
  const found = 'email' in ref ? index.byEmail.get(ref.email.toLowerCase()) : index.byUserId.get(ref.userId);
  if (found === undefined) return undefined;
  const fits = 'email' in ref ? found.email.toLowerCase() === ref.email.toLowerCase() : found.userId === ref.userId;
  if (fits) return found;
  contactIndexes.delete(all);
  return findContact(all, ref);
}

export function addContact(all: StoredContact[], contact: StoredContact): void {
  const index = indexed(all);
  all.push(contact);
  index.size += 1;
  if (!index.byEmail.has(contact.email.toLowerCase()) && (contact.userId === null || !index.byUserId.has(contact.userId))) enter(index, contact);
  else contactIndexes.delete(all);
}

export function removeContact(all: StoredContact[], contact: StoredContact): void {
  all.splice(all.indexOf(contact), 1);
  contactIndexes.delete(all);
}

/** After a contact's email or userId changed from `before`'s. */
export function reindexContact(all: StoredContact[], contact: StoredContact, before: Pick<StoredContact, 'email' | 'userId'>): void {
  const index = contactIndexes.get(all);
  if (index === undefined) return;
  if (index.byEmail.get(before.email.toLowerCase()) === contact) index.byEmail.delete(before.email.toLowerCase());
  if (before.userId !== null && index.byUserId.get(before.userId) === contact) index.byUserId.delete(before.userId);
  enter(index, contact);
}
