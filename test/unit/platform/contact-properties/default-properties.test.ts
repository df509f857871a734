/** The contact's default properties: one table, the LMX specification's list, and every other list derived from it. */
import { describe, expect, it } from 'vitest';
import {
  CONTACT_FIELDS,
  DEFAULT_PROPERTY_NAMES,
  RESERVED_PROPERTY_NAMES,
  STANDARD_FIELDS,
  TEXT_FIELDS,
} from '../../../../src/platform/contact-properties/typing.js';

describe('the default contact properties', () => {
  it('are the LMX specification\'s: "firstName, lastName, email, notes, source, userGroup, userId, subscribed, createdAt"', () => {
    expect([...DEFAULT_PROPERTY_NAMES].sort()).toEqual(['createdAt', 'email', 'firstName', 'lastName', 'notes', 'source', 'subscribed', 'userGroup', 'userId']);
  });

  it('derive the fields a contact sets, the text fields, the standard fields and the reserved names', () => {
    expect(CONTACT_FIELDS).toEqual(['email', 'firstName', 'lastName', 'source', 'subscribed', 'userGroup', 'userId']);
    expect([...TEXT_FIELDS]).toEqual(['firstName', 'lastName', 'source', 'userGroup', 'userId']);
    expect(STANDARD_FIELDS).toEqual([...CONTACT_FIELDS, 'mailingLists']);
    for (const name of [...DEFAULT_PROPERTY_NAMES, 'mailingLists']) expect(RESERVED_PROPERTY_NAMES.has(name)).toBe(true);
  });
});
