/** Text views of event patterns: the list, and one pattern with its properties. */

import { sanitize } from '../../base/sanitize.js';
import type { EventPattern, EventPatternSummary } from '../../platform/event-patterns/schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { renderRecord, renderTable } from '../../render/table.js';

/** Where the event comes from: a platform's incoming webhook, or "custom" for events sent through the API. */
const source = (pattern: EventPatternSummary) => pattern.incomingWebhookPlatform ?? 'custom';

export const eventPatternListView: ListView<EventPatternSummary> = {
  noun: 'event patterns',
  columns: [{ header: 'ID' }, { header: 'EVENT' }, { header: 'SOURCE' }],
  row: (pattern) => [pattern.id, pattern.eventName, source(pattern)],
};

export function renderEventPattern(out: Output, pattern: EventPattern): string {
  if (!out.tty) return renderRecord(out, pattern);
  const style = styleFor(out);
  const header = `${style.bold(sanitize(pattern.eventName))}\n${style.dim(`id ${sanitize(pattern.id)} · ${sanitize(source(pattern))}`)}\n\n`;
  if (pattern.eventProperties.length === 0) return `${header}No event properties.\n`;
  const rows = pattern.eventProperties.map((property) => [property.name, property.type]);
  return header + renderTable(out, [{ header: 'PROPERTY' }, { header: 'TYPE' }], rows);
}
