/**
 * Audience filters in words ("plan equal pro and seats greater than 5"), as segments, campaigns
 * and the workflow nodes that filter an audience all show them. Plain text, no rendering: the
 * workflow drawings (tree, Mermaid, DOT) use it too. Shared by those areas, it sits beside the
 * shapes they all share, so a workflow command reads no bundle of the segments area.
 */
import type { AudienceFilter, SegmentCondition } from './segments/schemas.js';

/**
 * Operators that read as a phrase after the property name, and take no value: the audience
 * filter's (camelCase) and the workflow comparison's (snake_case).
 */
const VALUELESS: Record<string, string> = {
  any: 'is anything',
  isTrue: 'is true',
  isFalse: 'is false',
  notEmpty: 'is not empty',
  dateEmpty: 'has no date',
  dateNotEmpty: 'has a date',
  empty: 'is empty',
  not_empty: 'is not empty',
  true: 'is true',
  false: 'is false',
  date_empty: 'has no date',
  date_not_empty: 'has a date',
  any_loop_email: 'any loop email',
  accepted_opt_in: 'accepted opt-in',
  rejected_opt_in: 'rejected opt-in',
  pending_opt_in: 'opt-in pending',
  not_opt_in: 'not opted in',
};

/** Operators followed by a value. */
const WITH_VALUE: Record<string, string> = {
  equals: 'equal',
  notEquals: 'not equal',
  greaterThan: 'greater than',
  lessThan: 'less than',
  notContains: 'does not contain',
  equal: 'equal',
  not_equal: 'not equal',
  numeric_equal: 'equal',
  numeric_not_equal: 'not equal',
  greater_than: 'greater than',
  less_than: 'less than',
  contains: 'contains',
  not_contains: 'does not contain',
  after: 'after',
  before: 'before',
  campaign: 'campaign',
  specific_loop_email: 'loop email',
};

/** A value as it reads in a sentence: bare when it is one word, quoted when it is not. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return value !== '' && !/\s/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '?';
}

/** The two ends of a `between` range, in any of the shapes it may come in. */
function rangeEnds(value: unknown): [unknown, unknown] | undefined {
  if (Array.isArray(value) && value.length === 2) return [value[0], value[1]];
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [low, high] of [
      ['from', 'to'],
      ['start', 'end'],
      ['min', 'max'],
      ['after', 'before'],
    ] as const) {
      if (low in record && high in record) return [record[low], record[high]];
    }
  }
  if (typeof value === 'string' && value.includes(',')) {
    const parts = value.split(',');
    if (parts.length === 2) return [parts[0]!.trim(), parts[1]!.trim()];
  }
  return undefined;
}

/** Past tenses of activity actions, and what they read as when negated. */
const ACTIVITY_WORDS: Record<string, [done: string, notDone: string]> = {
  sent: ['was sent', 'was not sent'],
  opened: ['opened', 'did not open'],
  clicked: ['clicked in', 'did not click in'],
};

const TARGET_WORDS: Record<string, string> = { campaign: 'campaign', workflow: 'workflow', workflowEmail: 'workflow email' };

/** "opt-in accepted"; "no opt-in status" for a null status. */
function describeOptIn(condition: SegmentCondition): string {
  return condition.status === null || condition.status === undefined ? 'no opt-in status' : `opt-in ${condition.status}`;
}

/** "opened campaign <id>", "was not sent workflow email <id>". */
function describeActivity(condition: SegmentCondition): string {
  const action = condition.action ?? '?';
  const [done, notDone] = ACTIVITY_WORDS[action] ?? [action, `not ${action}`];
  const target = condition.target === undefined ? '' : `${TARGET_WORDS[condition.target] ?? condition.target} `;
  return `${condition.negate ? notDone : done} ${target}${condition.id ?? '?'}`;
}

export function describeCondition(condition: SegmentCondition): string {
  if (condition.type === 'optIn') return describeOptIn(condition);
  if (condition.type === 'activity') return describeActivity(condition);
  const subject = condition.key ?? condition.type;
  const { value } = condition;
  const operator = condition.operator ?? '?';
  if (Object.hasOwn(VALUELESS, operator)) return `${subject} ${VALUELESS[operator]}`;
  if (operator === 'between') {
    const ends = rangeEnds(value);
    return ends ? `${subject} between ${describeValue(ends[0])} and ${describeValue(ends[1])}` : `${subject} between ${describeValue(value)}`;
  }
  const words = Object.hasOwn(WITH_VALUE, operator) ? WITH_VALUE[operator]! : operator.replace(/_/g, ' ');
  return value === undefined ? `${subject} ${words}` : `${subject} ${words} ${describeValue(value)}`;
}

/** A filter in words: "plan equal pro and country equal FR"; "everyone" when empty. */
export function describeFilter(filter: AudienceFilter | null | undefined): string {
  if (filter === null || filter === undefined || filter.conditions.length === 0) return 'everyone';
  const joiner = filter.match === 'any' ? ' or ' : ' and ';
  return filter.conditions.map(describeCondition).join(joiner);
}
