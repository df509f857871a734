/** Contact properties: the standard ones and the account's custom ones. */
import { z } from '../../base/shapes.js';

export const PROPERTY_TYPES = ['string', 'number', 'boolean', 'date'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const contactProperty = z.looseObject({
  key: z.string(),
  label: z.string(),
  // A type added later still lists; values of an unknown type are sent unchecked.
  type: z.string(),
});
export type ContactProperty = z.infer<typeof contactProperty>;

export const contactProperties = z.array(contactProperty);

export const propertyCreated = z.looseObject({ success: z.boolean() });
export type PropertyCreated = z.infer<typeof propertyCreated>;
