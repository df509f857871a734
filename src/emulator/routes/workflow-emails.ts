/**
 * A contact's values as workflows read them: merge tags, property triggers and filters. Whether a
 * trigger fires is a running rule (src/platform/workflows/running.ts); the journeys engine
 * (src/emulator/journeys/) runs the workflow from there.
 */
import type { StoredContact } from './contact-records.js';

/** A contact's field or custom property, as merge tags and property triggers read it. */
export function contactValue(contact: StoredContact, key: string): unknown {
  return Object.hasOwn(contact.properties, key) ? contact.properties[key] : (contact as unknown as Record<string, unknown>)[key];
}

/** A contact's fields and custom properties, by the names merge tags use, as they are now. */
export function contactValues(contact: StoredContact): Record<string, unknown> {
  const { properties, mailingLists: _lists, suppressed: _suppressed, ...fields } = contact;
  return { ...fields, ...properties };
}
