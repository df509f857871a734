/**
 * Whether a contact matches an audience filter, as the platform evaluates one for a segment, a
 * campaign's audience or a workflow's filter: each condition of the kinds and operators that
 * filter.ts checks, joined by `match` (all or any).
 */
import type { AudienceFilter, SegmentCondition } from './schemas.js';

/** What a filter reads of a contact. */
export interface FilteredContact {
  /** A field or custom property by its name; undefined when the contact has none. */
  value(key: string): unknown;
  optInStatus: string | null;
  /** Whether the contact did this (sent, opened, clicked) with that campaign, workflow or workflow email. */
  did(action: string, target: string, id: string): boolean;
}

const blank = (value: unknown) => value === undefined || value === null || value === '';
const asNumber = (value: unknown) => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN);
const asTime = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? new Date(value).getTime() : Number.NaN);

/** A property condition's operator applied to the contact's value. */
function propertyMatches(condition: SegmentCondition, actual: unknown): boolean {
  const expected = condition.value;
  switch (condition.operator) {
    case 'any':
      return true;
    case 'isTrue':
      return actual === true || actual === 'true';
    case 'isFalse':
      return actual === false || actual === 'false';
    case 'empty':
    case 'dateEmpty':
      return blank(actual);
    case 'notEmpty':
    case 'dateNotEmpty':
      return !blank(actual);
    case 'equals':
      return !blank(actual) && (typeof expected === 'number' ? asNumber(actual) === expected : String(actual) === String(expected));
    case 'notEquals':
      return blank(actual) || (typeof expected === 'number' ? asNumber(actual) !== expected : String(actual) !== String(expected));
    case 'contains':
      return !blank(actual) && String(actual).toLowerCase().includes(String(expected).toLowerCase());
    case 'notContains':
      return blank(actual) || !String(actual).toLowerCase().includes(String(expected).toLowerCase());
    case 'greaterThan':
      return asNumber(actual) > asNumber(expected);
    case 'lessThan':
      return asNumber(actual) < asNumber(expected);
    case 'after':
      return asTime(actual) > asTime(expected);
    case 'before':
      return asTime(actual) < asTime(expected);
    case 'between': {
      const range = expected as { from?: string; to?: string } | undefined;
      const time = asTime(actual);
      return time >= asTime(range?.from) && time <= asTime(range?.to);
    }
    default:
      return false;
  }
}

export function conditionMatches(condition: SegmentCondition, contact: FilteredContact): boolean {
  switch (condition.type) {
    case 'property':
      return propertyMatches(condition, contact.value(condition.key ?? ''));
    case 'optIn':
      return (condition.status ?? null) === contact.optInStatus;
    case 'activity': {
      const did = contact.did(condition.action ?? '', condition.target ?? '', condition.id ?? '');
      return condition.negate === true ? !did : did;
    }
    default:
      return false;
  }
}

/** Whether the contact matches the filter; a filter without conditions matches everyone. */
export function filterMatches(filter: AudienceFilter, contact: FilteredContact): boolean {
  if (filter.conditions.length === 0) return true;
  return filter.match === 'any'
    ? filter.conditions.some((condition) => conditionMatches(condition, contact))
    : filter.conditions.every((condition) => conditionMatches(condition, contact));
}
