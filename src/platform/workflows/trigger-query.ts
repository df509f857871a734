/**
 * A contact-property ("Contact Updated") trigger's query, checked as the API checks it on an
 * update: its key must be a property of the team that such a trigger can watch, and each side's
 * operator one the property's type takes on that side. The sandbox answers 400 with these
 * messages; `content check` reports them with what to write instead.
 */
import type { PropertyType } from '../contact-properties/schemas.js';

/**
 * The description (WorkflowContactPropertyComparison): "String properties support `any`, `equal`,
 * `not_equal`, `contains`, `not_contains`, `empty`, and `not_empty`. Number properties support
 * `any`, `greater_than`, `less_than`, `numeric_equal`, `numeric_not_equal`, `empty`, and
 * `not_empty`. Boolean properties support `any`, `true`, `false`, `empty`, and `not_empty`. Date
 * properties support `any`, `empty`, `not_empty`, `after`, `before`, and `between`."
 */
export const TRIGGER_OPERATORS: Record<PropertyType, readonly string[]> = {
  string: ['any', 'equal', 'not_equal', 'contains', 'not_contains', 'empty', 'not_empty'],
  number: ['any', 'greater_than', 'less_than', 'numeric_equal', 'numeric_not_equal', 'empty', 'not_empty'],
  boolean: ['any', 'true', 'false', 'empty', 'not_empty'],
  date: ['any', 'empty', 'not_empty', 'after', 'before', 'between'],
};

/**
 * The description (WorkflowContactPropertyQuery): "Hidden or unsupported fields, such as
 * `createdAt`, `notes`, and computed contact properties, are rejected."
 */
const HIDDEN_KEYS = new Set(['createdAt', 'notes']);

export type QuerySide = 'is' | 'was';

/**
 * The operators a property of `type` takes on `side`. The description: "The `was` comparison can
 * use any operator supported by the selected property type. The `is` comparison uses the same
 * operators, except number and boolean properties cannot use `empty`."
 */
export function operatorsFor(type: PropertyType, side: QuerySide): readonly string[] {
  const all = TRIGGER_OPERATORS[type];
  return side === 'is' && (type === 'number' || type === 'boolean') ? all.filter((operator) => operator !== 'empty') : all;
}

/** One fault of a query: the field at fault, why, and what to write instead. */
export interface QueryFault {
  field: string;
  message: string;
  fix: string;
}

type Comparison = { operator?: unknown } | null | undefined;

/**
 * The fault of a trigger's query, or undefined when the API would take it. `typeOf` gives a
 * property's type, or undefined when the team has no such property; `'unknown'` when the team's
 * properties cannot be read (an offline check), in which case only what needs no account is checked.
 */
export function triggerQueryFault(
  query: { key?: unknown; is?: Comparison; was?: Comparison },
  typeOf: (key: string) => PropertyType | 'unknown' | undefined,
): QueryFault | undefined {
  const key = query.key;
  if (typeof key !== 'string' || key === '')
    return { field: 'key', message: 'contactPropertyQuery.key must name a contact property', fix: 'write key: the property to watch, such as plan' };
  if (HIDDEN_KEYS.has(key))
    return {
      field: 'key',
      message: `contactPropertyQuery.key "${key}" is not available for Contact Updated triggers: hidden or unsupported fields, such as createdAt, notes, and computed contact properties, are rejected`,
      fix: 'watch a property the team sets on its contacts (loopsctl contact-properties list), or trigger on an event instead',
    };
  const type = typeOf(key);
  if (type === undefined)
    return {
      field: 'key',
      message: `contactPropertyQuery.key "${key}" is not a contact property of the team: the property must exist for the team`,
      fix: `name a contact property of the team (loopsctl contact-properties list), or create it first: loopsctl contact-properties create --name ${key} --type string`,
    };
  for (const side of ['was', 'is'] as const) {
    const operator = query[side]?.operator;
    const known = type === 'unknown' ? Object.values(TRIGGER_OPERATORS).flat() : operatorsFor(type, side);
    if (typeof operator === 'string' && known.includes(operator)) continue;
    const shown = typeof operator === 'string' ? `"${operator}"` : String(operator);
    if (type === 'unknown')
      return {
        field: `${side}.operator`,
        message: `contactPropertyQuery.${side}.operator ${shown} is not an operator of a Contact Updated trigger`,
        fix: `write one of ${[...new Set(known)].join(', ')}`,
      };
    const emptyOnIs = side === 'is' && operator === 'empty' && TRIGGER_OPERATORS[type].includes('empty');
    return {
      field: `${side}.operator`,
      message: emptyOnIs
        ? `contactPropertyQuery.is.operator "empty" cannot be used with the ${type} property "${key}": number and boolean properties allow empty on was, but not on is`
        : `contactPropertyQuery.${side}.operator ${shown} is not valid for the ${type} property "${key}"`,
      fix: `write one of ${operatorsFor(type, side).join(', ')}`,
    };
  }
  return undefined;
}
