/** What `migrate report` prints: the templates, the sends with the Loops call each becomes, and what is left for the app. */

import { sanitize } from '../../base/sanitize.js';
import { hanging } from '../../convert/report.js';
import { countOf } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import type { MigrationReport, ReportedSend } from './model.js';
import type { TemplateReport } from './templates.js';

const FORMATS = { mjml: 'MJML', react: 'React Email', html: 'HTML' } as const;

function templateLine(template: TemplateReport): string[] {
  const head = `  ${template.path} (${FORMATS[template.format]})`;
  if (template.refused !== undefined) return [`${head}: convert refuses it: ${template.refused}`];
  const subject = template.subject === undefined ? [] : [`    subject: ${template.subject}`];
  if (template.remediation === 0) return [`${head}: converts as it is`, ...subject];
  return [
    `${head}: needs hand work, ${countOf(template.remediation, 'thing')} to look at`,
    ...template.constructs.map(({ construct, count }) => `    ${construct}${count > 1 ? ` (${count} times)` : ''}`),
    ...subject,
  ];
}

function sendLines(send: ReportedSend): string[] {
  const what =
    send.kind === 'event'
      ? `event "${send.event}"`
      : send.template?.kind === 'provider'
        ? `template ${send.template.id} at ${send.provider}`
        : send.template?.kind === 'file'
          ? `template ${send.template.name}`
          : 'HTML made in the code';
  const template = send.templateFile === undefined ? '' : `, the file ${send.templateFile}`;
  return [`  ${send.file}:${send.line}:${send.column} ${send.provider} ${send.call}: ${what}${template}`, `    becomes ${send.loops.code}`];
}

export function renderReport(out: Output, report: MigrationReport): string {
  const ready = report.templates.filter((template) => template.refused === undefined && template.remediation === 0).length;
  const lines = [
    `Templates: ${countOf(report.templates.length, 'template')}, ${ready} convert${ready === 1 ? 's' : ''} as ${ready === 1 ? 'it is' : 'they are'}`,
    ...report.templates.flatMap(templateLine),
    '',
    `Sends: ${countOf(report.sends.filter((send) => send.kind === 'email').length, 'email send')}, ${countOf(
      report.sends.filter((send) => send.kind === 'event').length,
      'event',
    )}`,
    ...report.sends.flatMap(sendLines),
    '',
    'Left for the app:',
    ...report.leftForTheApp.map((item) => `  - ${item}`),
  ];
  if (report.written !== undefined)
    lines.push(
      '',
      `Written into ${report.written.directory}: ${countOf(report.written.records.length, 'record')}`,
      ...report.templates.flatMap((template) => (template.record === undefined ? [] : [`  ${template.record} (from ${template.path})`])),
    );
  if (report.skipped.length > 0) lines.push('', 'Not read:', ...report.skipped.map((entry) => `  ${entry.path}: ${entry.reason}`));
  // Names from the repository are shown as text, never as the terminal's controls; wrapped to a
  // terminal, while a pipe or a file gets each line whole, for grep.
  const width = out.tty ? out.columns : Number.POSITIVE_INFINITY;
  return `${lines.flatMap((line) => hanging(sanitize(line), width)).join('\n')}\n`;
}
