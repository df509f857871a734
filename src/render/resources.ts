/** Text views of themes, audience segments and dedicated sending IPs. */
import { isIP } from 'node:net';
import type { AudienceSegment, Theme } from '../api/schemas.js';
import type { ListView } from './list.js';
import type { Output } from './output.js';
import { sanitize } from './sanitize.js';
import { renderTable } from './table.js';

export const themeListView: ListView<Theme> = {
  noun: 'themes',
  columns: [{ header: 'ID' }, { header: 'NAME' }, { header: 'DEFAULT' }, { header: 'BACKGROUND' }, { header: 'BODY' }, { header: 'TEXT' }, { header: 'BUTTON' }, { header: 'UPDATED' }],
  row: (theme) => [
    theme.id,
    theme.name,
    theme.isDefault ? 'yes' : 'no',
    theme.styles.backgroundColor,
    theme.styles.bodyColor,
    theme.styles.textBaseColor,
    theme.styles.buttonBodyColor,
    theme.updatedAt,
  ],
};

export const segmentListView: ListView<AudienceSegment> = {
  noun: 'audience segments',
  columns: [{ header: 'ID' }, { header: 'NAME' }, { header: 'DESCRIPTION' }, { header: 'FILTER' }, { header: 'UPDATED' }],
  row: (segment) => [segment.id, segment.name, segment.description ?? '', describeFilter(segment.filter), segment.updatedAt],
};

/** A segment filter in words: "plan equal pro and country equal FR". */
export function describeFilter(filter: AudienceSegment['filter']): string {
  if (filter === null || filter.conditions.length === 0) return 'everyone';
  const joiner = filter.match === 'any' ? ' or ' : ' and ';
  return filter.conditions
    .map((condition) => {
      const value = condition.value === undefined ? '' : ` ${typeof condition.value === 'string' ? condition.value : JSON.stringify(condition.value)}`;
      return `${condition.key ?? condition.type} ${condition.operator}${value}`;
    })
    .join(joiner);
}

export function renderIps(out: Output, ips: string[]): string {
  return renderTable(
    out,
    [{ header: 'ADDRESS' }, { header: 'VERSION' }],
    ips.map((ip) => [ip, isIP(ip) === 6 ? 'IPv6' : isIP(ip) === 4 ? 'IPv4' : 'unknown']),
  );
}

/** One address per line, for files and pipes. */
export function renderPlainIps(ips: string[]): string {
  return ips.map((ip) => `${sanitize(ip)}\n`).join('');
}
