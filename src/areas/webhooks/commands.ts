/** What the `webhooks` commands do. */
import { ExitCode, MismatchError, NetworkError, NotFoundError, RejectedError, ServerError, UsageError, type LoopsctlError } from '../../api/errors.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { readInputBytes, stdinIsTerminal } from '../../core/input.js';
import { closeMatches } from '../../core/suggest.js';
import { parseAssignment } from '../../core/typed-values.js';
import { formatJson, type Output } from '../../render/output.js';
import { sanitize } from '../../render/sanitize.js';
import { styleFor } from '../../render/style.js';
import { renderTable } from '../../render/table.js';
import { buildPayload, describeEventTypes } from './build.js';
import { Deliverer, deliveryHeaders, isAccepted, outcomeText, type DeliveryOutcome } from './deliver.js';
import { deliveryUrl, eventPattern, forwardRoute, ListenTally, startListener, type EventPattern, type ForwardRoute, type ReceivedDelivery } from './listen.js';
import { isWebhookEventName, WEBHOOK_EVENT_NAMES, type WebhookEventName } from './payloads.js';
import { newMessageId, secretKey, signHeaders, verdictText, verify as verifySignature, WebhookSecretError } from './signature.js';

interface SecretOptions {
  secret?: string;
  bodyFile?: string;
}

/** The key from --secret or LOOPS_WEBHOOK_SECRET; the secret itself never appears in a message. */
function keyFrom(context: CommandContext, options: SecretOptions): Buffer {
  const secret = options.secret ?? context.env.LOOPS_WEBHOOK_SECRET;
  if (secret === undefined || secret === '') {
    throw new UsageError('no webhook secret', { hint: 'set LOOPS_WEBHOOK_SECRET (or pass --secret)' });
  }
  try {
    return secretKey(secret);
  } catch (error) {
    if (error instanceof WebhookSecretError) throw new UsageError(error.message, { hint: 'copy the secret from the webhook settings; it starts with whsec_' });
    throw error;
  }
}

/** The body exactly as received: no decoding, no trimming, since one byte changes the signature. */
async function readBody(context: CommandContext, options: SecretOptions): Promise<Buffer> {
  if (options.bodyFile === undefined && stdinIsTerminal(context.runtime)) throw new UsageError('no body: pipe it on stdin or pass --body-file <path>');
  return (await readInputBytes(context.runtime, options.bodyFile ?? '-', 'body')).bytes;
}

const nowSeconds = (context: CommandContext) => Math.floor(context.runtime.now().getTime() / 1000);

export const verify: Handler<[], SecretOptions & { id: string; timestamp: string; signature: string; tolerance: number }> = async (context, _args, options) => {
  const key = keyFrom(context, options);
  const body = await readBody(context, options);
  const verdict = verifySignature(
    key,
    { id: options.id, timestamp: options.timestamp, body },
    { signature: options.signature, toleranceSeconds: options.tolerance, nowSeconds: nowSeconds(context) },
  );
  const { out } = context;
  if (out.json) await out.writeJson(verdict);
  else if (verdict.valid) await out.write('valid signature\n');
  if (!verdict.valid) {
    const hint = verdict.problem === 'timestamp' ? 'a delayed or replayed delivery, or a clock that is off; --tolerance 0 turns the check off' : undefined;
    throw new MismatchError(verdictText(verdict), { hint });
  }
};

export const sign: Handler<[], SecretOptions & { id?: string; timestamp?: string }> = async (context, _args, options) => {
  const key = keyFrom(context, options);
  const body = await readBody(context, options);
  const headers = signHeaders(key, { id: options.id ?? newMessageId(), timestamp: options.timestamp ?? String(nowSeconds(context)), body });
  const { out } = context;
  if (out.json) return out.writeJson(headers);
  return out.write(Object.entries(headers).map(([name, value]) => `${name}: ${value}\n`).join(''));
};

interface TriggerOptions {
  to?: string;
  set?: string[];
  secret?: string;
  list?: boolean;
  dryRun?: boolean;
}

/** The event type named on the command line, or a usage error that suggests the nearest ones. */
function eventTypeArgument(given: string | undefined): WebhookEventName {
  if (given === undefined) throw new UsageError('name the event type to send', { hint: 'see them with `loopsctl webhooks trigger --list`' });
  if (isWebhookEventName(given)) return given;
  const near = closeMatches(given, WEBHOOK_EVENT_NAMES, 3);
  throw new UsageError(`"${given}" is not an event type the platform sends`, {
    hint: near.length > 0 ? `did you mean ${near.join(', ')}?` : 'see them with `loopsctl webhooks trigger --list`',
  });
}

export const trigger: Handler<[string | undefined], TriggerOptions> = async (context, [given], options) => {
  const { out } = context;
  if (options.list) {
    const types = describeEventTypes();
    if (out.json) return out.writeJson(types);
    return out.write(renderTable(out, [{ header: 'EVENT' }, { header: 'SENT WHEN', truncate: true }], types.map(({ name, summary }) => [name, summary])));
  }
  const eventName = eventTypeArgument(given);
  const sets = Object.fromEntries((options.set ?? []).map((raw) => parseAssignment('--set', raw, 'json')));
  const payload = buildPayload(eventName, context.runtime.now(), sets);
  const body = JSON.stringify(payload);
  const key = options.dryRun && options.secret === undefined && !context.env.LOOPS_WEBHOOK_SECRET ? undefined : keyFrom(context, options);
  const message = { id: newMessageId(), timestamp: String(nowSeconds(context)), body };
  const headers = key === undefined ? { 'content-type': 'application/json' } : deliveryHeaders(key, message);
  if (options.dryRun) {
    if (out.json) return out.writeJson({ headers, payload });
    if (key === undefined) out.note('No secret: the delivery is shown unsigned (set LOOPS_WEBHOOK_SECRET or pass --secret to sign it).');
    return out.write(`${Object.entries(headers).map(([name, value]) => `${name}: ${value}\n`).join('')}\n${formatJson(payload)}\n`);
  }
  if (options.to === undefined) throw new UsageError('--to <url> is needed to send the event', { hint: 'give the URL of your webhook handler, or --dry-run to see the delivery' });
  const url = deliveryUrl(options.to, '--to');
  const deliverer = new Deliverer(context.globals.timeout * 1000);
  const outcome = await deliverer.post(url, headers, body, context.runtime.signal).finally(() => deliverer.close());
  if (out.json) await out.writeJson({ webhookId: message.id, eventName, url, ...outcome });
  else {
    await out.write(`${eventName} ${message.id} → ${url}: ${outcomeText(outcome)}\n`);
    if (outcome.status !== null && outcome.body) await out.write(`${sanitize(outcome.body.trimEnd())}\n`);
  }
  if (!isAccepted(outcome)) throw appFailure(outcome, url);
};

/** Why the app did not take a delivery, with the exit code of the matching API failure. */
function appFailure(outcome: DeliveryOutcome, url: string): LoopsctlError {
  const hint = 'a webhook handler answers 2xx once it has taken the event; the platform retries any other answer';
  if (outcome.status === null) return new NetworkError(`the app at ${url} did not answer: ${outcome.error}`, { hint: 'check that the app runs and listens at --to' });
  const message = `the app at ${url} answered ${outcome.status}, not 2xx`;
  if (outcome.status >= 500) return new ServerError(message, { status: outcome.status, hint });
  if (outcome.status === 404) return new NotFoundError(message, { status: outcome.status, hint: 'check the path of --to' });
  return new RejectedError(message, { status: outcome.status, hint });
}

interface ListenOptions {
  port: number;
  host: string;
  forwardTo?: string[];
  events?: string;
  secret?: string;
  tolerance: number;
  jsonl?: boolean;
}

export const listen: Handler<[], ListenOptions> = async (context, _args, options) => {
  const { out, runtime } = context;
  if (options.jsonl && out.json) throw new UsageError('--json and --jsonl cannot be used together', { hint: '--jsonl prints one JSON object per line' });
  const key = keyFrom(context, options);
  const routes = (options.forwardTo ?? []).map(forwardRoute);
  const events = options.events?.split(',').filter((text) => text.trim() !== '').map((text) => eventPattern(text, '--events'));
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
  if (!jsonl) out.note(listenBanner(routes, events, options));
  await new Promise<void>((resolve) => {
    if (runtime.signal.aborted) return resolve();
    runtime.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await listener.close();
  if (jsonl) emit(`${formatJson({ kind: 'summary', ...tally.toJSON() }, 0)}\n`);
  await writing;
  if (!jsonl) out.note(summaryText(tally));
  return tally.clean ? ExitCode.ok : ExitCode.mismatch;
};

function listenBanner(routes: ForwardRoute[], events: EventPattern[] | undefined, options: ListenOptions): string {
  const where = routes.length === 0 ? 'Not passing deliveries on (no --forward-to).' : routes.map((route) => `Passing ${route.pattern?.text ?? (routes.length > 1 ? 'every other event' : 'every event')} on to ${route.url}`).join('\n');
  const only = events === undefined ? '' : `\nOnly ${events.map((pattern) => pattern.text).join(', ')} are passed on.`;
  const secret = options.secret === undefined ? 'LOOPS_WEBHOOK_SECRET' : '--secret';
  return `${where}${only}\nVerifying signatures with the secret from ${secret}. Press Ctrl-C to stop.`;
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
  if (tally.passedOn > 0) parts.push(`${tally.passedOn} passed on, ${tally.passedOn - tally.appFailed} taken by the app${tally.appFailed > 0 ? `, ${tally.appFailed} not` : ''}`);
  return `Stopped: ${parts.join('; ')}.`;
}
