/**
 * What starts a workflow: the causes a contact's change or event gives (created, an event, a list
 * joined, a property changed), and whether a trigger node fires for one, as the platform documents
 * its triggers. The journeys engine (src/emulator/journeys/) runs the workflow from there.
 */
import type { StoredContact } from './contact-records.js';

/** What happened to the contact, as workflow triggers name it. */
export type TriggerCause =
  | { kind: 'created' }
  | { kind: 'event'; eventName: string }
  | { kind: 'joinedList'; mailingListId: string }
  | { kind: 'propertyChanged'; key: string; was: unknown; is: unknown };

type Node = Record<string, unknown> & { typeName: string };
type Comparison = { value?: unknown; operator?: string } | undefined;

/** A value against a comparison of a ContactPropertyTrigger; operators about emails and opt-in never match here. */
function compares(comparison: Comparison, actual: unknown): boolean {
  if (comparison === undefined) return true;
  const blank = actual === undefined || actual === null || actual === '';
  const expected = comparison.value;
  switch (comparison.operator) {
    case 'any':
      return true;
    case 'equal':
    case 'numeric_equal':
      return !blank && String(actual) === String(comparison.value);
    case 'not_equal':
    case 'numeric_not_equal':
      return blank || String(actual) !== String(comparison.value);
    case 'empty':
      return blank;
    case 'not_empty':
    case 'date_not_empty':
      return !blank;
    case 'date_empty':
      return blank;
    case 'contains':
      return !blank && String(actual).toLowerCase().includes(String(expected).toLowerCase());
    case 'not_contains':
      return blank || !String(actual).toLowerCase().includes(String(expected).toLowerCase());
    case 'greater_than':
      return !blank && Number(actual) > Number(expected);
    case 'less_than':
      return !blank && Number(actual) < Number(expected);
    case 'true':
      return actual === true || actual === 'true';
    case 'false':
      return actual === false || actual === 'false';
    case 'after':
      return !blank && Date.parse(String(actual)) > Date.parse(String(expected));
    case 'before':
      return !blank && Date.parse(String(actual)) < Date.parse(String(expected));
    default:
      return false;
  }
}

/** Whether a trigger node fires for what happened; an AddToListTrigger without a list of its own watches its workflow's. */
export function fires(trigger: Node, cause: TriggerCause, workflowListId: string | null): boolean {
  switch (trigger.typeName) {
    case 'SignupTrigger':
      return cause.kind === 'created';
    case 'EventTrigger':
      return cause.kind === 'event' && trigger.eventName === cause.eventName;
    case 'AddToListTrigger':
      return cause.kind === 'joinedList' && (trigger.mailingListId ?? workflowListId) === cause.mailingListId;
    case 'ContactPropertyTrigger': {
      const query = trigger.contactPropertyQuery as { key?: string; was?: Comparison; is?: Comparison } | undefined;
      return cause.kind === 'propertyChanged' && query?.key === cause.key && compares(query.was, cause.was) && compares(query.is, cause.is);
    }
    default:
      return false;
  }
}

/** A contact's field or custom property, as merge tags and property triggers read it. */
export function contactValue(contact: StoredContact, key: string): unknown {
  return Object.hasOwn(contact.properties, key) ? contact.properties[key] : (contact as unknown as Record<string, unknown>)[key];
}

/** A contact's fields and custom properties, by the names merge tags use, as they are now. */
export function contactValues(contact: StoredContact): Record<string, unknown> {
  const { properties, mailingLists: _lists, suppressed: _suppressed, ...fields } = contact;
  return { ...fields, ...properties };
}
