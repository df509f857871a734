/** Text views of themes, audience segments and dedicated sending IPs. */
import { isIP } from 'node:net';
import type { DriftReport } from '../allowlist/check.js';
import { themeStyleGroups, type AudienceSegment, type SegmentCondition, type Theme } from '../api/schemas.js';
import type { ListView } from './list.js';
import type { Output } from './output.js';
import { sanitize } from './sanitize.js';
import { styleFor } from './style.js';
import { renderTable, type Cell } from './table.js';
import { swatch } from './swatch.js';

/** A colour cell: the hex code, with a block of that colour beside it on a colour terminal. */
function colourCell(value: unknown): Cell {
  const text = typeof value === 'string' ? value : value === undefined ? '-' : String(value);
  return { text, paint: (shown) => swatch(text, shown) };
}

export const themeListView: ListView<Theme> = {
  noun: 'themes',
  columns: [{ header: 'ID' }, { header: 'NAME' }, { header: 'DEFAULT' }, { header: 'BACKGROUND' }, { header: 'BODY' }, { header: 'TEXT' }, { header: 'BUTTON' }, { header: 'UPDATED' }],
  row: (theme) => [
    theme.id,
    theme.name,
    theme.isDefault ? 'yes' : 'no',
    colourCell(theme.styles.backgroundColor),
    colourCell(theme.styles.bodyColor),
    colourCell(theme.styles.textBaseColor),
    colourCell(theme.styles.buttonBodyColor),
    theme.updatedAt,
  ],
};

/**
 * Every style of a theme, grouped as the reference groups them; styles the reference does not
 * name come last under "Other", so nothing the API sends is hidden.
 */
export function renderTheme(out: Output, theme: Theme): string {
  const style = styleFor(out);
  const facts = [`id ${theme.id}`, theme.isDefault ? 'default theme' : undefined, `updated ${theme.updatedAt}`].filter(Boolean).join(' · ');
  const header = `${style.bold(sanitize(theme.name))}\n${style.dim(sanitize(facts))}\n\n`;
  const styles = theme.styles as Record<string, unknown>;
  const grouped: [string, string[]][] = Object.entries(themeStyleGroups).map(([group, fields]) => [group, Object.keys(fields)]);
  const known = new Set(grouped.flatMap(([, fields]) => fields));
  const other = Object.keys(styles).filter((key) => !known.has(key));
  if (other.length > 0) grouped.push(['Other', other]);
  const rows: Cell[][] = grouped.flatMap(([group, fields]) =>
    fields.map((field, index) => [
      // On a terminal the group is named once, above its styles; rows for scripts repeat it.
      out.tty && index > 0 ? '' : group,
      field,
      /Colou?r$/.test(field) ? colourCell(styles[field]) : displayStyle(styles[field]),
    ]),
  );
  return header + renderTable(out, [{ header: 'GROUP' }, { header: 'STYLE' }, { header: 'VALUE' }], rows);
}

function displayStyle(value: unknown): string {
  if (value === undefined || value === null) return '-';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export const segmentListView: ListView<AudienceSegment> = {
  noun: 'audience segments',
  columns: [{ header: 'ID' }, { header: 'NAME' }, { header: 'DESCRIPTION' }, { header: 'FILTER' }, { header: 'UPDATED' }],
  row: (segment) => [segment.id, segment.name, segment.description ?? '', describeFilter(segment.filter), segment.updatedAt],
};

/** Operators that read as a phrase after the property name, and take no value. */
const VALUELESS: Record<string, string> = {
  any: 'is anything',
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
    for (const [low, high] of [['from', 'to'], ['start', 'end'], ['min', 'max'], ['after', 'before']] as const) {
      if (low in record && high in record) return [record[low], record[high]];
    }
  }
  if (typeof value === 'string' && value.includes(',')) {
    const parts = value.split(',');
    if (parts.length === 2) return [parts[0]!.trim(), parts[1]!.trim()];
  }
  return undefined;
}

export function describeCondition(condition: SegmentCondition): string {
  const subject = condition.key ?? condition.type;
  const { operator, value } = condition;
  if (Object.hasOwn(VALUELESS, operator)) return `${subject} ${VALUELESS[operator]}`;
  if (operator === 'between') {
    const ends = rangeEnds(value);
    return ends ? `${subject} between ${describeValue(ends[0])} and ${describeValue(ends[1])}` : `${subject} between ${describeValue(value)}`;
  }
  const words = Object.hasOwn(WITH_VALUE, operator) ? WITH_VALUE[operator]! : operator.replace(/_/g, ' ');
  return value === undefined ? `${subject} ${words}` : `${subject} ${words} ${describeValue(value)}`;
}

/** A segment filter in words: "plan equal pro and country equal FR"; "everyone" when empty. */
export function describeFilter(filter: AudienceSegment['filter']): string {
  if (filter === null || filter.conditions.length === 0) return 'everyone';
  const joiner = filter.match === 'any' ? ' or ' : ' and ';
  return filter.conditions.map(describeCondition).join(joiner);
}

export function renderIps(out: Output, ips: string[]): string {
  return renderTable(
    out,
    [{ header: 'ADDRESS' }, { header: 'VERSION' }],
    ips.map((ip) => [ip, ipVersion(ip)]),
  );
}

function ipVersion(ip: string): string {
  const address = ip.replace(/\/\d+$/, '');
  return isIP(address) === 6 ? 'IPv6' : isIP(address) === 4 ? 'IPv4' : 'unknown';
}

/** One address per line, for files and pipes. */
export function renderPlainIps(ips: string[]): string {
  return ips.map((ip) => `${sanitize(ip)}\n`).join('');
}

/** The drift of an allow-list: `+` for addresses to add, `-` for entries to remove. */
export function renderDrift(out: Output, report: DriftReport): string {
  if (report.inSync) return 'in sync: the file lists exactly the dedicated sending IPs\n';
  const style = styleFor(out);
  const lines = [...report.added.map((ip) => style.green(`+ ${ip}`)), ...report.removed.map((ip) => style.red(`- ${ip}`))];
  return `${lines.join('\n')}\n`;
}
