/** What `webhooks listen` does: run the receiver until Ctrl-C, a line per delivery, and a summary. */

import { ExitCode, UsageError } from '../../base/errors.js';
import { redactUrl } from '../../base/redact-url.js';
import { sanitize } from '../../base/sanitize.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { Deliverer, isAccepted, outcomeText } from '../../platform/webhooks/deliver.js';
import { formatJson, type Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import type { DeliveryStore } from '../../webhooks/store/index.js';
import { transitionLine, transitionsMessage } from '../webhooks-shared/alert-render.js';
import { parseAlertRule } from '../webhooks-shared/alert-rules.js';
import { type AlertTransition, AlertWatch, alertEventOf } from '../webhooks-shared/alert-window.js';
import { type EventPattern, eventPattern } from '../webhooks-shared/event-pattern.js';
import { keyFrom } from '../webhooks-shared/secret.js';
import { openStore, storeUrl } from '../webhooks-shared/store-option.js';
import { ForwardQueue, type ForwardResult } from './forward-queue.js';
import { type ForwardRoute, forwardRoute, type Listener, ListenTally, type ReceivedDelivery, startListener } from './receiver.js';

interface ListenOptions {
  port: number;
  host: string;
  forwardTo?: string[];
  events?: string;
  secret?: string;
  tolerance: number;
  jsonl?: boolean;
  store?: string;
  alert?: string[];
  minSends?: number;
  notify?: string;
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
  const rules = (options.alert ?? []).map((text) => parseAlertRule(text, options.minSends));
  if (options.notify !== undefined && rules.length === 0) throw new UsageError('--notify posts alerts: give at least one --alert');
  const tally = new ListenTally();
  const jsonl = options.jsonl === true || out.json;
  // Lines are written in the order deliveries end; one chain keeps them whole.
  let writing = Promise.resolve();
  const emit = (text: string) => {
    writing = writing.then(() => out.write(text));
  };
  const store = storeUrl(context, options) === undefined ? undefined : await openStore(context, options);
  const deliverer = new Deliverer(context.globals.timeout * 1000);
  const queue =
    store === undefined || routes.length === 0
      ? undefined
      : new ForwardQueue({
          store,
          targets: [...new Set(routes.map((route) => route.url))],
          deliverer,
          key,
          now: runtime.now,
          onResult: (result) => {
            tally.addForward(result.outcome);
            emit(jsonl ? `${formatJson({ kind: 'forward', ...forwardRecord(result) }, 0)}\n` : `${forwardLine(out, result)}\n`);
          },
          onError: (target, error) => out.note(`The store failed while passing deliveries on to ${redactUrl(target)}: ${error.message}; trying again.`),
        });
  const alerts = rules.length === 0 ? undefined : new AlertWatch(rules);
  const onTransitions = (transitions: AlertTransition[]) => {
    for (const transition of transitions) emit(jsonl ? `${formatJson({ kind: 'alert', ...transition }, 0)}\n` : `${transitionLine(transition)}\n`);
    const message = transitionsMessage(transitions);
    const url = options.notify;
    if (url !== undefined && message !== undefined) {
      writing = writing.then(async () => {
        const outcome = await deliverer.post(url, { 'content-type': 'application/json' }, JSON.stringify(message));
        // The webhook's path is its token: never shown.
        if (!isAccepted(outcome)) out.note(`The alert was not posted to ${new URL(url).origin}/…: ${outcomeText(outcome)}`);
      });
    }
  };
  let listener: Listener;
  try {
    listener = await startListener({
      host: options.host,
      port: options.port,
      key,
      toleranceSeconds: options.tolerance,
      routes,
      events,
      timeoutMs: context.globals.timeout * 1000,
      now: runtime.now,
      ...(store === undefined ? {} : { store }),
      ...(queue === undefined ? {} : { queue }),
      onAccepted: (body) => {
        const event = alerts === undefined ? undefined : alertEventOf(body);
        if (event === undefined) return;
        alerts!.add(event);
        // Judged up to the newest event time seen: deliveries of one second may come in any order, so that second waits for the next.
        onTransitions(alerts!.advance(event.eventTime - 1));
      },
      onDelivery: (delivery) => {
        tally.add(delivery);
        emit(jsonl ? `${formatJson({ kind: 'delivery', ...delivery }, 0)}\n` : `${deliveryLine(out, delivery)}\n`);
      },
    });
  } catch (error) {
    await closeAll(queue, store, deliverer);
    throw error;
  }
  // The URL first, alone on its line, for a script to read.
  emit(jsonl ? `${formatJson({ kind: 'listening', url: listener.url }, 0)}\n` : `${listener.url}\n`);
  if (!jsonl) for (const line of listenBanner(routes, events, options, store?.location)) out.note(line);
  await new Promise<void>((resolve) => {
    if (runtime.signal.aborted) return resolve();
    runtime.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  await closeAll(queue, store, deliverer);
  if (jsonl) emit(`${formatJson({ kind: 'summary', ...tally.toJSON() }, 0)}\n`);
  await writing;
  if (!jsonl) out.note(summaryText(tally));
  return tally.clean ? ExitCode.ok : ExitCode.mismatch;
});

/** The forwarding workers first (what is due stays queued), then the store and the connections. */
async function closeAll(queue: ForwardQueue | undefined, store: DeliveryStore | undefined, deliverer: Deliverer): Promise<void> {
  await queue?.close();
  await store?.close();
  await deliverer.close();
}

function forwardRecord(result: ForwardResult) {
  const { target, delivery, outcome, nextAt } = result;
  return { webhookId: delivery.webhookId, eventName: delivery.eventName, to: redactUrl(target), outcome, nextAt: nextAt?.toISOString() ?? null };
}

/** One line for a try of a queued delivery: which, to whom, the answer, and when it is tried again. */
function forwardLine(out: Output, result: ForwardResult): string {
  const style = styleFor(out);
  const { target, delivery, outcome, nextAt } = result;
  const answer = outcomeText(outcome);
  const verdict = isAccepted(outcome)
    ? style.green(answer)
    : style.red(`the app failed: ${answer}${nextAt === null ? ', given up' : `, again at ${nextAt.toTimeString().slice(0, 8)}`}`);
  return sanitize(`${new Date().toTimeString().slice(0, 8)}  ${delivery.webhookId} (${delivery.eventName ?? '-'}) → ${redactUrl(target)}  `) + verdict;
}

/** What the receiver does with deliveries, in a few lines for the person who started it. */
function listenBanner(routes: ForwardRoute[], events: EventPattern[] | undefined, options: ListenOptions, store: string | undefined): string[] {
  const lines =
    routes.length === 0
      ? ['Not passing deliveries on (no --forward-to).']
      : routes.map((route) => `Passing ${route.pattern?.text ?? 'every event'} on to ${redactUrl(route.url)}`);
  if (events !== undefined) lines.push(`Only ${events.map((pattern) => pattern.text).join(', ')} are passed on.`);
  if (store !== undefined)
    lines.push(`Keeping every verified delivery in ${store}${routes.length > 0 ? ', and passing each on from there until it is taken' : ''}.`);
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
  else if (delivery.queuedFor.length > 0) verdict = `${style.green('verified')}, ${style.dim(`queued for ${delivery.queuedFor.join(', ')}`)}`;
  else if (delivery.forwards.length === 0) verdict = style.green('verified');
  else {
    const answers = delivery.forwards.map(({ to, outcome }) => {
      const answer = `${delivery.forwards.length > 1 ? `${to} ` : ''}${outcomeText(outcome)}`;
      return isAccepted(outcome) ? style.green(answer) : style.red(`the app failed: ${answer}`);
    });
    verdict = `${style.green('verified')} → ${answers.join(', ')}`;
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
