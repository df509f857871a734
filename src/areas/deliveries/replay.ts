/**
 * `deliveries replay`: deliveries from the journal sent again to a URL, each signed with the
 * current secret and a fresh timestamp under its own webhook-id (so the receiver's dedupe holds),
 * paced, retried, and the ones that still fail listed. `--plan` counts what the replay would send,
 * chosen by the same code.
 */

import { sleep } from '../../api/retry.js';
import { ExitCode, InterruptedError, UsageError } from '../../base/errors.js';
import { monotonicMs } from '../../base/monotonic.js';
import { redactUrl } from '../../base/redact-url.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { confirm } from '../../core/prompt.js';
import { Deliverer, deliveryHeaders, outcomeText } from '../../platform/webhooks/deliver.js';
import { shellWord } from '../../render/shell-word.js';
import type { DeliveryFilter, DeliveryStore, StoredDelivery } from '../../webhooks/store/index.js';
import { deliveryUrl } from '../webhooks-shared/event-pattern.js';
import { keyFrom } from '../webhooks-shared/secret.js';
import { openStore, STORE_ENV } from '../webhooks-shared/store-option.js';
import { type FilterOptions, filterOf } from './filters.js';
import { DEFAULT_PACE, type ReplayReport, replayDeliveries } from './replay-run.js';

interface ReplayOptions extends FilterOptions {
  forwardTo: string;
  store?: string;
  after?: string;
  plan?: boolean;
  yes?: boolean;
  secret?: string;
  perSecond: number;
}

/**
 * The deliveries a replay sends, oldest first: the verified ones the filter selects, after
 * `--after` (the last one a stopped replay had done with); and how many it leaves out unverified,
 * as their signatures were never checked: signing one now would pass off a forgery as the
 * platform's.
 */
export async function replayed(
  store: DeliveryStore,
  filter: DeliveryFilter,
  after: string | undefined,
): Promise<{ deliveries: StoredDelivery[]; unverified: number }> {
  const found = await store.find({ ...filter, order: 'oldest' });
  const start = after === undefined ? 0 : found.findIndex((delivery) => delivery.webhookId === after && delivery.verified) + 1;
  if (start === 0 && after !== undefined)
    throw new UsageError(`--after ${after}: no delivery of this id among those the filters select`, {
      hint: 'give the id a stopped replay named, with the same filters',
    });
  const rest = found.slice(start);
  const deliveries = rest.filter((delivery) => delivery.verified);
  return { deliveries, unverified: rest.length - deliveries.length };
}

/** What a replay says of the unverified deliveries it left out; nothing when there were none. */
function unverifiedNote(unverified: number): string | undefined {
  if (unverified === 0) return undefined;
  return `Left out ${unverified} unverified ${unverified === 1 ? 'delivery' : 'deliveries'}: ${unverified === 1 ? 'its signature was' : 'their signatures were'} never checked, and a replay signs what it sends.`;
}

/**
 * The command that goes on from where a stopped replay was, its relative times made absolute, and
 * whether a URL's secrets in it are shown as [redacted], for the person to put back.
 */
function resumeCommand(options: ReplayOptions, filter: DeliveryFilter, lastDone: string | null): { command: string; redacted: boolean } {
  const forwardTo = redactUrl(options.forwardTo);
  const store = options.store === undefined ? undefined : redactUrl(options.store);
  const words = ['loopsctl', 'deliveries', 'replay', '--forward-to', forwardTo];
  if (store !== undefined) words.push('--store', store);
  if (options.to !== undefined) words.push('--to', options.to);
  if (options.event !== undefined) words.push('--event', options.event);
  if (options.emailId !== undefined) words.push('--email-id', options.emailId);
  if (filter.since !== undefined) words.push('--since', filter.since.toISOString());
  if (filter.until !== undefined) words.push('--until', filter.until.toISOString());
  const after = lastDone ?? options.after;
  if (after !== undefined) words.push('--after', after);
  return { command: words.map(shellWord).join(' '), redacted: forwardTo !== options.forwardTo || store !== options.store };
}

/** What the person is told to do with a resume command whose URLs lost their secrets. */
const REDACTED_HINT = `put the URLs' secrets back where it shows [redacted] (or name the store in ${STORE_ENV})`;

export const replay: Handler<[], ReplayOptions> = handler(['out', 'clock', 'env', 'prompts', 'globals'], async (context, _args, options) => {
  const { out, runtime } = context;
  const url = deliveryUrl(options.forwardTo, '--forward-to');
  const key = options.plan ? undefined : keyFrom(context, options);
  const filter = filterOf(options, runtime.now());
  const store = await openStore(context, options);
  let deliveries: StoredDelivery[];
  let unverified: number;
  try {
    ({ deliveries, unverified } = await replayed(store, filter, options.after));
  } finally {
    await store.close();
  }
  const shownUrl = redactUrl(url);
  const leftOut = unverifiedNote(unverified);
  if (leftOut !== undefined) out.note(leftOut);
  if (options.plan) {
    if (out.json) return out.writeJson({ count: deliveries.length, unverified, to: shownUrl });
    return out.write(`${deliveries.length} ${deliveries.length === 1 ? 'delivery' : 'deliveries'} to replay to ${shownUrl}\n`);
  }
  if (deliveries.length === 0) {
    if (out.json) return out.writeJson({ count: 0, unverified, sent: 0, failed: [], stopped: false, lastDone: null, remaining: 0 });
    return out.note('No deliveries to replay.');
  }
  await confirm(
    runtime,
    `Replay ${deliveries.length} ${deliveries.length === 1 ? 'delivery' : 'deliveries'} to ${shownUrl}, each signed again now?`,
    options.yes,
  );
  const deliverer = new Deliverer(context.globals.timeout * 1000);
  let report: ReplayReport;
  try {
    report = await replayDeliveries(
      deliveries,
      { ...DEFAULT_PACE, perSecond: options.perSecond },
      {
        send: (delivery, signal) => {
          const timestamp = String(Math.floor(runtime.now().getTime() / 1000));
          return deliverer.post(url, deliveryHeaders(key!, { id: delivery.webhookId, timestamp, body: delivery.body }), delivery.body, signal);
        },
        wait: sleep,
        now: monotonicMs,
        signal: runtime.signal,
        onDone: (delivery, outcome) => {
          if (!out.json) out.note(`${delivery.webhookId} (${delivery.eventName ?? '-'}) → ${outcomeText(outcome)}`);
        },
      },
    );
  } finally {
    await deliverer.close();
  }
  const resume = report.stopped ? resumeCommand(options, filter, report.lastDone) : undefined;
  if (out.json)
    await out.writeJson({
      count: deliveries.length,
      unverified,
      ...report,
      ...(resume === undefined ? {} : { resume: resume.command, ...(resume.redacted ? { resumeRedacted: REDACTED_HINT } : {}) }),
    });
  else {
    for (const failure of report.failed)
      out.note(`Failed: ${failure.webhookId} → ${outcomeText(failure.outcome)} after ${failure.attempts} ${failure.attempts === 1 ? 'try' : 'tries'}`);
    const done = report.sent + report.failed.length;
    const failed = report.failed.length > 0 ? `, ${report.failed.length} failed` : '';
    out.note(`${report.stopped ? 'Stopped: ' : ''}${done} of ${deliveries.length} replayed to ${shownUrl}: ${report.sent} taken${failed}.`);
  }
  if (resume !== undefined)
    throw new InterruptedError(`stopped after ${report.sent + report.failed.length} of ${deliveries.length} deliveries`, {
      hint: `${resume.redacted ? `${REDACTED_HINT}, then ` : ''}resume with: ${resume.command}`,
    });
  return report.failed.length > 0 ? ExitCode.mismatch : ExitCode.ok;
});
