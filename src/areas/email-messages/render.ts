/** Text views of email messages: their fields and LMX warnings, and Guardian reports. */

import { type EmailMessage, FALLBACK_FIELDS, type GuardianReport, type GuardianRule, type LmxWarning } from '../../platform/email-messages/schemas.js';
import { indented, renderFields } from '../../render/fields.js';
import { countOf } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { displayValue, renderRecord } from '../../render/table.js';

const SHOWN_APART = new Set<string>([...Object.values(FALLBACK_FIELDS), 'lmx', 'warnings']);

/** Every field in the API's order; fallbacks one per line, the LMX body as its size. */
export function renderEmailMessage(out: Output, message: EmailMessage): string {
  if (!out.tty) return renderRecord(out, message);
  const rows: [string, string][] = Object.entries(message)
    .filter(([key]) => !SHOWN_APART.has(key))
    .map(([key, value]) => [key, displayValue(value)]);
  for (const [kind, field] of Object.entries(FALLBACK_FIELDS)) {
    for (const [name, value] of Object.entries(message[field] ?? {})) rows.push(['fallback', `${kind}.${name} = ${value}`]);
  }
  const lines = message.lmx === '' ? 0 : message.lmx.split('\n').length;
  rows.push(['lmx', `${lines} ${lines === 1 ? 'line' : 'lines'}, ${Buffer.byteLength(message.lmx)} bytes (print it with --lmx)`]);
  const warnings = message.warnings ?? [];
  return renderFields(out, rows) + (warnings.length === 0 ? '' : `\n${renderLmxWarnings(warnings)}`);
}

/** The LMX compiler's warnings, one per line with the rule and where it applies. */
export function renderLmxWarnings(warnings: LmxWarning[]): string {
  const heading = `${warnings.length} LMX ${warnings.length === 1 ? 'warning' : 'warnings'}:`;
  const lines = warnings.map((warning) => {
    const where = warning.path === undefined ? '' : ` (at ${warning.path})`;
    return `  - ${indented(`${warning.rule}: ${warning.message}${where}`, 4)}`;
  });
  return [heading, ...lines].join('\n');
}

/** "1 error", "2 warnings". */

/** Errors, then warnings, each rule with its title, description and the items it found. */
export function renderGuardian(out: Output, report: GuardianReport): string {
  const style = styleFor(out);
  const summary = `Guardian: ${countOf(report.errors.length, 'error')}, ${countOf(report.warnings.length, 'warning')}\n`;
  const section = (rules: GuardianRule[], label: string, paint: (text: string) => string) =>
    rules.map((rule) => {
      const pad = ' '.repeat(label.length + 2);
      const items = rule.items.map(
        (item) =>
          `${pad}- ${indented(item.codeName === undefined || item.codeName === item.label ? item.label : `${item.label} (${item.codeName})`, pad.length + 2)}`,
      );
      return [`${paint(label)}  ${indented(`${rule.rule}: ${rule.title}`, pad.length)}`, `${pad}${indented(rule.description, pad.length)}`, ...items].join(
        '\n',
      );
    });
  const blocks = [...section(report.errors, 'ERROR  ', style.red.bold), ...section(report.warnings, 'WARNING', style.yellow.bold)];
  return blocks.length === 0 ? `${summary}No problems found.\n` : `${summary}\n${blocks.join('\n\n')}\n`;
}
