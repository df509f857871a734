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
