/** The sandbox's outbox as text: each send or event, with what the sandbox checked. */

import { sanitize } from '../../base/sanitize.js';
import type { EventOutboxEntry, Journey, OutboxEntry, TransactionalOutboxEntry, WebhookDelivery, WorkflowOutboxEntry } from '../../emulator/index.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { renderTable, timestampColumn } from '../../render/table.js';
import { wrapLines } from '../../render/wrap.js';

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1_048_576).toFixed(1)} MB`);
// The outbox holds what requests carried: text to show, never to obey.
const names = (list: string[]) => (list.length === 0 ? '-' : sanitize(list.join(', ')));

function transactionalLines(out: Output, entry: TransactionalOutboxEntry): string[] {
  const style = styleFor(out);
  const lines = [`${entry.at}  ${style.bold('email')} ${sanitize(`"${entry.name}" (${entry.transactionalId}) to ${entry.to}`)}`];
  lines.push(`  data variables: ${names(Object.keys(entry.dataVariables))}`);
  if (entry.missingVariables.length > 0) lines.push(style.yellow(`  optional, left out: ${names(entry.missingVariables)}`));
  if (entry.unknownVariables.length > 0) lines.push(style.yellow(`  not used by the email: ${names(entry.unknownVariables)}`));
  if (entry.attachments.length > 0)
    lines.push(`  attachments: ${sanitize(entry.attachments.map((file) => `${file.filename} (${file.contentType}, ${size(file.bytes)})`).join(', '))}`);
  if (entry.addToAudience) lines.push('  added to the audience');
  return lines;
}

function eventLines(out: Output, entry: EventOutboxEntry): string[] {
  const style = styleFor(out);
  const who = entry.userId === null ? entry.email : `${entry.email} (userId ${entry.userId})`;
  const lines = [`${entry.at}  ${style.bold('event')} ${sanitize(`${entry.eventName} for ${who}`)}`];
  const properties = Object.entries(entry.eventProperties);
  if (properties.length > 0) lines.push(`  properties: ${sanitize(properties.map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(', '))}`);
  lines.push(
    entry.workflows.length === 0
      ? '  starts no workflow (no EventTrigger names this event)'
      : `  starts: ${sanitize(entry.workflows.map((workflow) => `${workflow.name} (${workflow.id}, ${workflow.status})`).join(', '))}`,
  );
  // What the workflows sent at once; an outbox of an older version did not keep it.
  if (entry.workflows.length > 0 && entry.emails !== undefined) {
    lines.push(
      entry.emails.length === 0
        ? '  no email at once: each workflow it starts waits, or filters, first (see `loopsctl sandbox journeys`)'
        : `  sent at once: ${sanitize(entry.emails.map((email) => `"${email.subject}" (${email.loopName})`).join(', '))}`,
    );
  }
  return lines;
}

function workflowLines(out: Output, entry: WorkflowOutboxEntry): string[] {
  const style = styleFor(out);
  return [`${entry.at}  ${style.bold('workflow email')} ${sanitize(`"${entry.subject}" to ${entry.to}, from "${entry.loopName}" (${entry.loopId})`)}`];
}

export function renderOutbox(out: Output, entries: OutboxEntry[]): string {
  return entries
    .map((entry) => {
      if (entry.kind === 'workflow') return `${workflowLines(out, entry).join('\n')}\n`;
      const lines = entry.kind === 'transactional' ? transactionalLines(out, entry) : eventLines(out, entry);
      if (entry.idempotencyKey !== null) lines.push(`  idempotency key: ${sanitize(entry.idempotencyKey)}`);
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}

/** The sandbox's webhook deliveries, oldest first: what was sent, to whom, and what became of it. */
export function renderDeliveries(out: Output, deliveries: WebhookDelivery[]): string {
  const style = styleFor(out);
  const paint = { delivered: style.green, failed: style.red, pending: style.yellow };
  const rows = deliveries.map((delivery) => {
    const last = delivery.attempts.at(-1);
    const answer = last === undefined ? '-' : last.status === null ? (last.error ?? '-') : String(last.status);
    const contact = (delivery.payload.contactIdentity as { email?: string } | undefined)?.email ?? '-';
    const status = delivery.status === 'pending' && last !== undefined ? `retrying at ${delivery.dueAt.slice(11, 19)}` : delivery.status;
    return [
      delivery.createdAt,
      delivery.eventName,
      contact,
      { text: status, paint: paint[delivery.status] },
      String(delivery.attempts.length),
      answer,
      delivery.id,
    ];
  });
  return renderTable(
    out,
    [
      timestampColumn('CREATED'),
      { header: 'EVENT' },
      { header: 'CONTACT', truncate: true },
      { header: 'STATUS' },
      { header: 'ATTEMPTS', align: 'right' },
      { header: 'LAST ANSWER', prose: true },
      { header: 'ID', drop: true, priority: -2 },
    ],
    rows,
  );
}

/** Milliseconds as the time after a journey's start: +0, +1h, +3d1h30m. */
export function timeSinceStart(ms: number): string {
  if (ms <= 0) return '+0';
  const parts: string[] = [];
  const days = Math.floor(ms / 86_400_000);
  const rest = ms % 86_400_000;
  const hours = Math.floor(rest / 3_600_000);
  const minutes = Math.floor((rest % 3_600_000) / 60_000);
  const seconds = Math.floor((rest % 60_000) / 1_000);
  if (days > 0) parts.push(`${days}d`);
  const clock = `${hours > 0 ? `${hours}h` : ''}${minutes > 0 ? `${minutes}m` : ''}${seconds > 0 ? `${seconds}s` : ''}`;
  if (clock !== '') parts.push(clock);
  return `+${parts.join('') || '0'}`;
}

/**
 * Each journey as a tree: the workflow, the contact and where it is, then its steps, each with its
 * time on the sandbox's clock, the time since it started, its node and what happened, and beneath
 * it why, wrapped to the terminal.
 */
export function renderJourneys(out: Output, journeys: Journey[]): string {
  const style = styleFor(out);
  const glyph = out.tty ? { branch: '├─ ', last: '└─ ', pipe: '│    ', space: '     ' } : { branch: '|-- ', last: '`-- ', pipe: '|    ', space: '     ' };
  const width = out.tty ? Math.max(40, out.columns) : Number.POSITIVE_INFINITY;
  return journeys
    .map((journey) => {
      const where =
        journey.status === 'ended'
          ? `ended ${journey.endedAt ?? ''}`
          : journey.steps.at(-1)?.outcome === 'held'
            ? 'held: the workflow is paused'
            : `waiting until ${journey.waitUntil ?? '-'}`;
      const head = [`${style.bold(sanitize(journey.workflowName))} ${sanitize(`(${journey.workflowId})`)}`, `  ${sanitize(`${journey.email} · ${where}`)}`];
      const start = Date.parse(journey.startedAt);
      const steps = journey.steps.flatMap((step, index) => {
        const last = index === journey.steps.length - 1;
        const outcome = step.outcome === 'sent' ? style.green(step.outcome) : step.outcome === 'filtered-out' ? style.yellow(step.outcome) : step.outcome;
        const line = `${last ? glyph.last : glyph.branch}${step.at} ${timeSinceStart(Date.parse(step.at) - start)} ${sanitize(step.typeName)} ${outcome}`;
        const why = Number.isFinite(width) ? wrapLines(sanitize(step.why), width - glyph.pipe.length) : [sanitize(step.why)];
        return [line, ...why.map((text) => `${last ? glyph.space : glyph.pipe}${text}`)];
      });
      return `${[...head, ...steps].join('\n')}\n`;
    })
    .join('\n');
}
