/**
 * Audience filters as the API takes them (segments and campaigns): checked here, before anything is
 * sent, so a mistake is named by its place in the file (`conditions[2].operator`) instead of
 * coming back as a bare 400. The rules are the published description's: `match` is all or any,
 * and each condition is a property, optIn or activity condition with its own fields.
 */
import { LocalFileError } from '../../base/errors.js';
import { isJsonObject } from '../../base/json-object.js';
import { suggestionHint } from '../../base/suggest.js';

const MATCH_MODES = ['all', 'any'] as const;

/** Property operators that compare with no value. */
const VALUELESS_PROPERTY_OPERATORS = ['any', 'isTrue', 'isFalse', 'empty', 'notEmpty', 'dateEmpty', 'dateNotEmpty'] as const;
/** Property operators that compare with a string or number value. */
const VALUED_PROPERTY_OPERATORS = ['contains', 'notContains', 'equals', 'notEquals', 'greaterThan', 'lessThan', 'after', 'before'] as const;
const PROPERTY_OPERATORS = [...VALUELESS_PROPERTY_OPERATORS, ...VALUED_PROPERTY_OPERATORS, 'between'] as const;

const OPT_IN_STATUSES = ['accepted', 'pending', 'rejected', null] as const;
const ACTIVITY_ACTIONS = ['sent', 'opened', 'clicked'] as const;
const ACTIVITY_TARGETS = ['campaign', 'workflow', 'workflowEmail'] as const;

/** The fields each kind of condition has. */
const CONDITION_FIELDS: Record<string, string[]> = {
  property: ['type', 'key', 'operator', 'value'],
  optIn: ['type', 'status'],
  activity: ['type', 'action', 'negate', 'target', 'id'],
};
const CONDITION_TYPES = Object.keys(CONDITION_FIELDS);

export type AudienceFilterRequest = {
  match: (typeof MATCH_MODES)[number];
  conditions: { type: string; [field: string]: unknown }[];
};

/** A fault in a filter, at a place in it. */
export class FilterFault extends Error {
  constructor(
    readonly at: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

const quote = (value: unknown) => JSON.stringify(value) ?? String(value);
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function oneOf(at: string, value: unknown, allowed: readonly unknown[], what: string): void {
  if (allowed.includes(value)) return;
  const words = allowed.map((item) => (item === null ? 'null' : String(item)));
  throw new FilterFault(
    at,
    `${quote(value)} is not ${what}`,
    typeof value === 'string' ? suggestionHint(value, words) : `expected one of: ${words.join(', ')}`,
  );
}

function onlyFields(at: string, record: Record<string, unknown>, allowed: string[], what: string): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) throw new FilterFault(`${at}.${key}`, `is not a field of ${what}`, `${what} have: ${allowed.join(', ')}`);
  }
}

function required(at: string, record: Record<string, unknown>, key: string, what: string): unknown {
  if (!Object.hasOwn(record, key)) throw new FilterFault(`${at}.${key}`, `is missing: ${what} need it`);
  return record[key];
}

function checkPropertyCondition(at: string, condition: Record<string, unknown>): void {
  const what = 'property conditions';
  const key = required(at, condition, 'key', what);
  if (typeof key !== 'string' || key === '') throw new FilterFault(`${at}.key`, 'must be a contact property name');
  const operator = required(at, condition, 'operator', what);
  oneOf(`${at}.operator`, operator, PROPERTY_OPERATORS, 'an operator of property conditions');
  const hasValue = Object.hasOwn(condition, 'value');
  const value = condition.value;
  if ((VALUELESS_PROPERTY_OPERATORS as readonly unknown[]).includes(operator)) {
    if (hasValue) throw new FilterFault(`${at}.value`, `"${operator}" compares with no value: leave value out`);
    return;
  }
  if (!hasValue) throw new FilterFault(`${at}.value`, `is missing: "${operator}" compares with a value`);
  if (operator === 'between') {
    if (!isJsonObject(value)) throw new FilterFault(`${at}.value`, `"between" takes {"from": <ISO time>, "to": <ISO time>}, not ${quote(value)}`);
    onlyFields(`${at}.value`, value, ['from', 'to'], 'between values');
    for (const end of ['from', 'to']) {
      const time = required(`${at}.value`, value, end, 'between values');
      if (typeof time !== 'string' || !ISO_DATE_TIME.test(time) || Number.isNaN(Date.parse(time))) {
        throw new FilterFault(`${at}.value.${end}`, `${quote(time)} is not an ISO 8601 date and time`, 'for example 2025-01-31T00:00:00Z');
      }
    }
    return;
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw new FilterFault(`${at}.value`, `must be a string or a number, not ${quote(value)}`);
}

function checkCondition(at: string, condition: unknown): void {
  if (!isJsonObject(condition)) throw new FilterFault(at, 'must be an object with a type');
  const type = required(at, condition, 'type', 'conditions');
  oneOf(`${at}.type`, type, CONDITION_TYPES, 'a kind of condition');
  const what = `${type as string} conditions`;
  onlyFields(at, condition, CONDITION_FIELDS[type as string]!, what);
  if (type === 'property') return checkPropertyCondition(at, condition);
  if (type === 'optIn') return oneOf(`${at}.status`, required(at, condition, 'status', what), OPT_IN_STATUSES, 'an opt-in status');
  oneOf(`${at}.action`, required(at, condition, 'action', what), ACTIVITY_ACTIONS, 'an activity action');
  if (typeof required(at, condition, 'negate', what) !== 'boolean') throw new FilterFault(`${at}.negate`, 'must be true or false');
  oneOf(`${at}.target`, required(at, condition, 'target', what), ACTIVITY_TARGETS, 'an activity target');
  const id = required(at, condition, 'id', what);
  if (typeof id !== 'string' || id === '') throw new FilterFault(`${at}.id`, 'must be the id of the campaign, workflow or workflow email');
}

/** A fault in words, its place under the field that holds the filter: `audienceFilter.conditions[0].action: ...`. */
function faultUnder(field: string, fault: FilterFault): string {
  const place = fault.at.replace(/^filter\.?/, '');
  return `${field}${place === '' ? '' : `.${place}`}: ${fault.message}`;
}

/** The first fault of a filter the field holds, in words under that field (as faultUnder says it); undefined when the API takes the filter. */
export function filterFaultUnder(field: string, value: unknown): string | undefined {
  try {
    checkAudienceFilter(value);
  } catch (error) {
    if (!(error instanceof FilterFault)) throw error;
    return faultUnder(field, error);
  }
  return undefined;
}

/** The filter as the API takes it, or the first fault in it. */
export function checkAudienceFilter(value: unknown): AudienceFilterRequest {
  if (!isJsonObject(value)) throw new FilterFault('filter', 'must be a JSON object with match and conditions');
  onlyFields('filter', value, ['match', 'conditions'], 'filters');
  oneOf('match', required('filter', value, 'match', 'filters'), MATCH_MODES, 'a match mode');
  const conditions = required('filter', value, 'conditions', 'filters');
  if (!Array.isArray(conditions) || conditions.length === 0) throw new FilterFault('conditions', 'must be a list of at least one condition');
  conditions.forEach((condition, index) => checkCondition(`conditions[${index}]`, condition));
  return value as unknown as AudienceFilterRequest;
}

/** checkAudienceFilter for a filter read from a file: the error names the file and the place. */
export function checkAudienceFilterFrom(source: string, value: unknown): AudienceFilterRequest {
  try {
    return checkAudienceFilter(value);
  } catch (error) {
    if (!(error instanceof FilterFault)) throw error;
    const at = error.at.replace(/^filter\./, '');
    throw new LocalFileError(`${source}: ${at}: ${error.message}`, {
      code: 'invalid_filter',
      hint: error.hint ?? 'see the filter format with `loopsctl segments create --help`',
    });
  }
}

/**
 * Whether a property condition's operator applies to a property of that type: the date operators
 * to dates, true and false to booleans, comparisons to numbers and dates, text searches to
 * strings. Equality, emptiness and `any` apply to every type; a type loopsctl does not know takes
 * every operator.
 */
export function operatorFitsType(operator: string, type: string): boolean {
  const only: Record<string, readonly string[]> = {
    isTrue: ['boolean'],
    isFalse: ['boolean'],
    dateEmpty: ['date'],
    dateNotEmpty: ['date'],
    after: ['date'],
    before: ['date'],
    between: ['date'],
    greaterThan: ['number', 'date'],
    lessThan: ['number', 'date'],
    contains: ['string'],
    notContains: ['string'],
  };
  const types = only[operator];
  return types === undefined || !['string', 'number', 'boolean', 'date'].includes(type) || types.includes(type);
}
