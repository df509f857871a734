/** A plan's impact in words, a line or a few per record: what `content push --plan` and `loopsctl apply` print. */

import { sanitize } from '../../../base/sanitize.js';
import type { Uses } from '../../../core/capabilities.js';
import type { GuardianReport } from '../../../platform/email-messages/schemas.js';
import { countOf, formatCount } from '../../../render/numbers.js';
import { wrapLines } from '../../../render/wrap.js';
import type {
  AudienceImpact,
  DataVariablesImpact,
  ExperimentImpact,
  GuardianImpact,
  ImpactRecord,
  NeedsLiveImpact,
  QueuedImpact,
  SendsImpact,
} from './records.js';

/** The text of a plan's impact, or '' when it has none. */
export function renderImpact(records: readonly ImpactRecord[]): string {
  if (records.length === 0) return '';
  // Each line quotes the API (names, messages): sanitized, a line at a time.
  const lines = records.flatMap((record) => linesOf(record).map((line, index) => sanitize(index === 0 ? `  ${record.record}: ${line}` : `      ${line}`)));
  return `Impact:\n${lines.join('\n')}\n`;
}

function linesOf(record: ImpactRecord): string[] {
  switch (record.kind) {
    case 'queued-contacts':
      return [queuedLine(record)];
    case 'sends':
      return [sendsLine(record)];
    case 'guardian':
      return guardianLines(record);
    case 'data-variables':
      return dataVariableLines(record);
    case 'audience':
      return [audienceLine(record)];
    case 'needs-live':
      return needsLiveLines(record);
    case 'experiment':
      return [experimentLine(record)];
    default:
      // A plan written by a newer loopsctl: its --json shows the record as written.
      return [`${(record as { kind: string }).kind} (shown by --json)`];
  }
}

/** An impact the API would not answer for is said so, never shown as none. */
const unknown = (error: string) => `unknown, the API did not answer: ${error}`;

function queuedLine(record: QueuedImpact): string {
  const what =
    record.op === 'changeWorkflowMailingList'
      ? `changes the mailing list to ${record.mailingList === null ? 'none' : JSON.stringify(record.mailingList)}`
      : record.op === 'deleteWorkflowNodeRecursively'
        ? `deletes ${record.node} and what only it leads to (${record.removes?.join(', ')})`
        : `deletes node ${record.node}`;
  if (record.createdByPlan) return `${what}: a node this plan creates, where no one waits`;
  if (record.error !== undefined) return `${what}: ${unknown(record.error)}`;
  const count = record.answer!.queuedContactCount;
  if (record.op === 'changeWorkflowMailingList')
    return count === 0 ? `${what}: every queued contact is on it` : `${what}: ${countOf(count, 'queued contact')} not on it would leave the workflow`;
  return count === 0 ? `${what}: nobody is waiting there` : `${what}: ${countOf(count, 'contact')} waiting there would leave the workflow`;
}

function sendsLine(record: SendsImpact): string {
  const what = { updated: 'changes', email: 'changes the email of', deleted: 'deletes' }[record.change];
  if (record.error !== undefined) return `${what} send-email node ${record.node}: ${unknown(record.error)}`;
  return `${what} send-email node ${record.node}, which has sent ${formatCount(record.answer!.sends)} email${record.answer!.sends === 1 ? '' : 's'} so far (${formatCount(record.answer!.opens)} opened)`;
}

function experimentLine(record: ExperimentImpact): string {
  const what = { updated: 'changes', email: 'changes the email of', deleted: 'deletes' }[record.change];
  return `${what} send-email node ${record.node} in variant${record.variants.length === 1 ? '' : 's'} ${record.variants.join(', ')} of experiment ${record.experiment}: results before and after this change are not comparable`;
}

function findings(report: GuardianReport): string {
  const rules = (list: GuardianReport['errors']) =>
    list.map((rule) => {
      const named = rule.items.flatMap((item) => (item.codeName === undefined ? [] : [item.codeName]));
      return named.length === 0 ? rule.title : `${rule.title} (${named.join(', ')})`;
    });
  const parts = [
    report.errors.length === 0 ? '' : `${countOf(report.errors.length, 'error')}: ${rules(report.errors).join('; ')}`,
    report.warnings.length === 0 ? '' : `${countOf(report.warnings.length, 'warning')}: ${rules(report.warnings).join('; ')}`,
  ].filter(Boolean);
  return parts.length === 0 ? 'nothing' : parts.join('; ');
}

function guardianLines(record: GuardianImpact): string[] {
  const lines = [`Guardian on the email as planned: ${findings(record.planned)}`];
  if (record.error !== undefined) lines.push(`Guardian on the email as saved: ${unknown(record.error)}`);
  else if (record.saved !== undefined) lines.push(`Guardian on the email as saved now (the API's check): ${findings(record.saved)}`);
  return lines;
}

function dataVariableLines(record: DataVariablesImpact): string[] {
  const when = record.publishes ? 'publishes it' : 'once its draft is published';
  if (record.error !== undefined) return [`${when}: ${unknown(record.error)}`];
  const names = (list: string[]) => `data variable${list.length === 1 ? '' : 's'} ${list.join(', ')}`;
  const added = record.added.map((name) => (record.withoutFallback.includes(name) ? `${name} (no fallback)` : name));
  const changes = [record.added.length === 0 ? '' : `adds ${names(added)}`, record.removed.length === 0 ? '' : `removes ${names(record.removed)}`].filter(
    Boolean,
  );
  const lines = [`${when}: ${changes.length === 0 ? 'its data variables stay the same' : changes.join('; ')}`];
  for (const site of record.callSites ?? []) {
    const at = `${site.file}:${site.line}:${site.column}`;
    if (site.missing.length > 0)
      lines.push(
        `${at} sends it without ${site.missing.join(', ')}: it would start failing, unless the email marks ${site.missing.length === 1 ? 'it' : 'them'} optional`,
      );
    else if (site.gives === undefined && record.withoutFallback.length > 0)
      lines.push(`${at} sends it with data variables the scanner cannot read: check it gives ${record.withoutFallback.join(', ')}`);
    if (site.noLongerUsed.length > 0) lines.push(`${at} gives ${site.noLongerUsed.join(', ')}, which the email would no longer use`);
  }
  if (record.callSites !== undefined && record.callSites.length === 0) lines.push('the app (--code) has no send of it');
  return lines;
}

/** What its apply needs, in the gate's words: the records that make it live a line each, as the gate's refusal lists them. */
function needsLiveLines(record: NeedsLiveImpact): string[] {
  const [said, ...particulars] = record.does.split('\n');
  return [`needs --live: it ${said}`, ...particulars.map((line) => line.trim())];
}

function audienceLine(record: AudienceImpact): string {
  const scheduling = record.scheduling as { method?: string; timestamp?: string } | undefined;
  const when = scheduling?.method === 'schedule' ? `schedules it for ${scheduling.timestamp}` : 'sends it now';
  const named = (value: { id: string; name?: string } | null, noun: string) =>
    value === null ? '' : `${noun} ${value.name === undefined ? value.id : JSON.stringify(value.name)}`;
  const audience = [
    record.mailingList === null ? 'every subscribed contact' : named(record.mailingList, 'the list'),
    named(record.segment, 'in the segment'),
    record.audienceFilter === null || record.audienceFilter === undefined ? '' : 'with its own filter',
  ].filter(Boolean);
  return `${when}, to ${audience.join(', ')} (the API gives no count of them)`;
}

/** The text of a plan's impact as the output shows it: wrapped to a terminal, each line's continuation under its start. */
export function impactText(out: Uses<'out'>['out'], impact: readonly ImpactRecord[]): string {
  const text = renderImpact(impact);
  return out.tty && text !== '' ? `${wrapLines(text.trimEnd(), out.columns).join('\n')}\n` : text;
}

/** The impact under a plan a person reads; --json carries it in the plan's document instead. */
export async function printImpact(context: Uses<'out'>, impact: readonly ImpactRecord[]): Promise<void> {
  const text = impactText(context.out, impact);
  if (!context.out.json && text !== '') await context.out.write(`\n${text}`);
}
