/** Which contact fields are standard, and whether a value fits a custom property's type: the API's rules, applied by loopsctl before it sends and by the emulator when it answers. */
import type { ContactProperty, PropertyType } from './schemas.js';

/**
 * The contact's default properties, which every account has beside its custom ones: the LMX
 * specification's list ("Default contact properties currently include: firstName, lastName, email,
 * notes, source, userGroup, userId, subscribed, createdAt"), each with its type and whether a
 * contact's create or update sets it as a field of its own (`notes` and `createdAt` are the
 * platform's: no flag or column sets them). Every other list of the contact's own fields derives
 * from this one.
 */
export const DEFAULT_CONTACT_PROPERTIES = {
  email: { type: 'string', field: true },
  firstName: { type: 'string', field: true },
  lastName: { type: 'string', field: true },
  source: { type: 'string', field: true },
  subscribed: { type: 'boolean', field: true },
  userGroup: { type: 'string', field: true },
  userId: { type: 'string', field: true },
  notes: { type: 'string', field: false },
  createdAt: { type: 'date', field: false },
} as const satisfies Record<string, { type: PropertyType; field: boolean }>;

type DefaultProperty = keyof typeof DEFAULT_CONTACT_PROPERTIES;
const DEFAULTS = Object.entries(DEFAULT_CONTACT_PROPERTIES) as [DefaultProperty, (typeof DEFAULT_CONTACT_PROPERTIES)[DefaultProperty]][];

/** The names every email can use as `{contact.X}` without a custom property: the default properties. */
export const DEFAULT_PROPERTY_NAMES: ReadonlySet<string> = new Set(DEFAULTS.map(([name]) => name));

/** The contact's own fields that a create or update sets, whose changes a trigger or a webhook sees. */
export const CONTACT_FIELDS = DEFAULTS.filter(([, facts]) => facts.field).map(([name]) => name);

/** Those of the contact's own fields that hold text (null resets one); `email` aside, which names the contact. */
export const TEXT_FIELDS: ReadonlySet<string> = new Set(
  DEFAULTS.filter(([name, facts]) => facts.field && facts.type === 'string' && name !== 'email').map(([name]) => name),
);

/** The contact fields with flags (or columns) of their own, its mailing lists among them; never custom properties. */
export const STANDARD_FIELDS = [...CONTACT_FIELDS, 'mailingLists'] as const;

export function isStandardField(name: string): boolean {
  return (STANDARD_FIELDS as readonly string[]).includes(name);
}

/** A custom property's name as the API takes one: camelCase, such as planName. */
export const PROPERTY_NAME = /^[a-z][A-Za-z0-9]*$/;

/**
 * A name written with separators as a property's camelCase one: `loyalty_tier`, `loyalty-tier`,
 * `Loyalty Tier` and `LOYALTY_TIER` are `loyaltyTier`; a name with no separator keeps its letters.
 */
export function camelCaseName(name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return '';
  const [first, ...rest] = words;
  const head = name === name.toUpperCase() ? first!.toLowerCase() : first![0]!.toLowerCase() + first!.slice(1);
  return head + rest.map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase()).join('');
}

/** Names no custom property may have: the contact's own fields, and a few the platform keeps for itself. */
export const RESERVED_PROPERTY_NAMES: ReadonlySet<string> = new Set([
  ...STANDARD_FIELDS,
  'notes',
  'id',
  'optInStatus',
  'createdAt',
  'updatedAt',
  'listId',
  'eventName',
]);

/** What is wrong with a value for a property, or undefined when it fits. */
export function typeProblem(types: Map<string, ContactProperty>, name: string, value: unknown): string | undefined {
  const property = types.get(name);
  if (property === undefined) return `the account has no contact property "${name}"`;
  // null clears a value of any type.
  if (value === null) return undefined;
  const fits: Record<string, (candidate: unknown) => boolean> = {
    string: (candidate) => typeof candidate === 'string',
    number: (candidate) => typeof candidate === 'number' && Number.isFinite(candidate),
    boolean: (candidate) => typeof candidate === 'boolean',
    date: (candidate) =>
      (typeof candidate === 'number' && Number.isFinite(candidate)) || (typeof candidate === 'string' && !Number.isNaN(Date.parse(candidate))),
  };
  const check = fits[property.type];
  if (check === undefined || check(value)) return undefined;
  return `${name} is a ${property.type} property, and ${JSON.stringify(value)} is not a ${property.type}`;
}
