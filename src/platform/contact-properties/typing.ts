/** Which contact fields are standard, and whether a value fits a custom property's type: the API's rules, applied by loopsctl before it sends and by the emulator when it answers. */
import type { ContactProperty } from './schemas.js';

/** The contact fields with flags (or columns) of their own; never custom properties. */
export const STANDARD_FIELDS = ['email', 'firstName', 'lastName', 'source', 'subscribed', 'userGroup', 'userId', 'mailingLists'] as const;

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
