/** Text views of audience segments, with their filters in words. */

import { sanitize } from '../../base/sanitize.js';
import { describeCondition, describeFilter } from '../../platform/audience-filter-words.js';
import type { AudienceFilter, AudienceSegment } from '../../platform/segments/schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { renderRecord, timestampColumn } from '../../render/table.js';

export const segmentListView: ListView<AudienceSegment> = {
  noun: 'audience segments',
  columns: [
    { header: 'ID' },
    { header: 'NAME', truncate: true },
    { header: 'DESCRIPTION', prose: true },
    { header: 'FILTER', prose: true },
    timestampColumn('UPDATED'),
  ],
  row: (segment) => [segment.id, segment.name, segment.description ?? '', describeFilter(segment.filter), segment.updatedAt],
};

/**
 * A filter in words for a detail view: a heading line, then one condition per line, so a long
 * filter stays within the terminal's width.
 */
export function filterBlock(label: string, filter: AudienceFilter | null | undefined): string {
  if (filter === null || filter === undefined || filter.conditions.length === 0) return `${label}: everyone\n`;
  const heading = `${label}, matching ${filter.match === 'any' ? 'any' : 'all'} of:`;
  return `${[heading, ...filter.conditions.map((condition) => `  - ${sanitize(describeCondition(condition))}`)].join('\n')}\n`;
}

/** One segment: its fields, then its filter in words (the filter as sent is under --json). */
export function renderSegment(out: Output, segment: AudienceSegment): string {
  if (!out.tty) return renderRecord(out, segment);
  const { filter, ...fields } = segment;
  return `${renderRecord(out, fields)}\n${filterBlock('Filter', filter)}`;
}
