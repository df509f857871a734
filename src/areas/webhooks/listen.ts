/** What `webhooks listen` does: run the receiver until Ctrl-C, a line per delivery, and a summary. */
import { redactUserinfo } from '../../api/base-url.js';
import { ExitCode, UsageError } from '../../base/errors.js';
import { handler, type Handler } from '../../core/capabilities.js';
import { formatJson, type Output } from '../../render/output.js';
import { sanitize } from '../../base/sanitize.js';
import { styleFor } from '../../render/style.js';
import { keyFrom } from './commands.js';
import { isAccepted, outcomeText } from '../../platform/webhooks/deliver.js';
import { eventPattern, forwardRoute, ListenTally, startListener, type EventPattern, type ForwardRoute, type ReceivedDelivery } from './receiver.js';

interface ListenOptions {
  port: number;
  host: string;
  forwardTo?: string[];
  events?: string;
  secret?: string;
  tolerance: number;
  jsonl?: boolean;
}

export const listen: Handler<[], ListenOptions> = handler(['out', 'clock', 'env', 'globals'], async (context, _args, options) => {
  const { out, runtime } = context;
  if (options.jsonl && out.json) throw new UsageError('--json and --jsonl cannot be used together', { hint: '--jsonl prints one JSON object per line' });
  const key = keyFrom(context, options);
  const routes = (options.forwardTo ?? []).map(forwardRoute);
  const events = options.events
    ?.split(',')
    .filter((text) => text.trim() !== '')
    .map((text) => eventPattern(text, '--events'));
  const tally = new ListenTally();
  const jsonl = options.jsonl === true || out.json;
  // Lines are written in the order deliveries end; one chain keeps them whole.
  let writing = Promise.resolve();
  const emit = (text: string) => {
    writing = writing.then(() => out.write(text));
  };
  const listener = await startListener({
    host: options.host,
    port: options.port,
    key,
    toleranceSeconds: options.tolerance,
    routes,
    events,
    timeoutMs: context.globals.timeout * 1000,
    now: runtime.now,
    onDelivery: (delivery) => {
      tally.add(delivery);
      emit(jsonl ? `${formatJson({ kind: 'delivery', ...delivery }, 0)}\n` : `${deliveryLine(out, delivery)}\n`);
    },
  });
  // The URL first, alone on its line, for a script to read.
  emit(jsonl ? `${formatJson({ kind: 'listening', url: listener.url }, 0)}\n` : `${listener.url}\n`);
  if (!jsonl) for (const line of listenBanner(routes, events, options)) out.note(line);
  await new Promise<void>((resolve) => {
    if (runtime.signal.aborted) return resolve();
    runtime.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  if (jsonl) emit(`${formatJson({ kind: 'summary', ...tally.toJSON() }, 0)}\n`);
  await writing;
  if (!jsonl) out.note(summaryText(tally));
  return tally.clean ? ExitCode.ok : ExitCode.mismatch;
});

/** What the receiver does with deliveries, in a few lines for the person who started it. */
function listenBanner(routes: ForwardRoute[], events: EventPattern[] | undefined, options: ListenOptions): string[] {
  const lines =
    routes.length === 0
      ? ['Not passing deliveries on (no --forward-to).']
      : routes.map((route) => `Passing ${route.pattern?.text ?? (routes.length > 1 ? 'every other event' : 'every event')} on to ${redactUserinfo(route.url)}`);
  if (events !== undefined) lines.push(`Only ${events.map((pattern) => pattern.text).join(', ')} are passed on.`);
  lines.push(`Verifying signatures with the secret from ${options.secret === undefined ? 'LOOPS_WEBHOOK_SECRET' : '--secret'}. Press Ctrl-C to stop.`);
  return lines;
}

/** One line for a delivery: time, type, who it is about, and what became of it. */
export function deliveryLine(out: Output, delivery: ReceivedDelivery): string {
  const style = styleFor(out);
  const time = new Date(delivery.receivedAt).toTimeString().slice(0, 8);
  const type = (delivery.eventName ?? '(no eventName)').padEnd(32);
  const who = [delivery.contact, delivery.detail].filter((part) => part !== null).join(' · ') || '-';
  let verdict: string;
  if (!delivery.verified) verdict = style.red(`refused: ${delivery.problem}`);
  else if (delivery.skipped !== null) verdict = `${style.green('verified')}, ${style.dim(`not passed on (${delivery.skipped})`)}`;
  else if (delivery.outcome === null) verdict = style.green('verified');
  else {
    const answer = outcomeText(delivery.outcome);
    verdict = `${style.green('verified')} → ${isAccepted(delivery.outcome) ? style.green(answer) : style.red(`the app failed: ${answer}`)}`;
  }
  const again = delivery.redelivery ? style.yellow(' (redelivery)') : '';
  return `${time}  ${sanitize(type)}  ${sanitize(who)}  ${verdict}${again}`;
}

function summaryText(tally: ListenTally): string {
  const parts = [`${tally.received} ${tally.received === 1 ? 'delivery' : 'deliveries'} received`];
  if (tally.refused > 0) parts.push(`${tally.refused} refused`);
  if (tally.skipped > 0) parts.push(`${tally.skipped} not passed on (--events)`);
  if (tally.passedOn > 0)
    parts.push(`${tally.passedOn} passed on, ${tally.passedOn - tally.appFailed} taken by the app${tally.appFailed > 0 ? `, ${tally.appFailed} not` : ''}`);
  return `Stopped: ${parts.join('; ')}.`;
}
