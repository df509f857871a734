/** `deliveries find` and `deliveries show`: the journal searched, and one delivery as it was kept. */
import { NotFoundError } from '../../base/errors.js';
import { redactUrl } from '../../base/redact-url.js';
import { sanitizeKeepingLines } from '../../base/sanitize.js';
import { type Handler, handler } from '../../core/capabilities.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { type Cell, renderRecord, renderTable, timestampColumn } from '../../render/table.js';
import type { ForwardState, StoredDelivery } from '../../webhooks/store/index.js';
import { deliveryUrl } from '../webhooks-shared/event-pattern.js';
import { openStore } from '../webhooks-shared/store-option.js';
import { type FilterOptions, filterOf } from './filters.js';

interface FindOptions extends FilterOptions {
  store?: string;
  target?: string;
  limit: number;
}

/** A delivery as --json prints it: the store's record, its times as ISO text and its body parsed. */
export function deliveryJson(delivery: StoredDelivery): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.body);
  } catch {
    payload = delivery.body;
  }
  const { body: _body, forward, ...kept } = delivery;
  return { ...kept, ...(forward === undefined ? {} : { forward: shownForward(forward) }), payload };
}

/** A target's credentials (user:password@) are never shown. */
const shownForward = (forward: ForwardState): ForwardState => ({ ...forward, target: redactUrl(forward.target) });

/** What a target answered, as a cell says it. */
function forwardText(forward: ForwardState): string {
  if (forward.attempts === 0) return `queued for ${redactUrl(forward.target)}`;
  const answer = forward.lastStatus === null ? (forward.lastError ?? 'no answer') : String(forward.lastStatus);
  const state = forward.doneAt !== null ? 'taken' : forward.nextAt === null ? 'given up' : `due ${forward.nextAt.toISOString()}`;
  return `${answer} after ${forward.attempts} ${forward.attempts === 1 ? 'try' : 'tries'}, ${state}`;
}

export const find: Handler<[], FindOptions> = handler(['out', 'clock', 'env'], async (context, _args, options) => {
  const { out } = context;
  const filter = filterOf(options, context.runtime.now());
  const target = options.target === undefined ? undefined : deliveryUrl(options.target, '--target');
  const store = await openStore(context, options);
  try {
    const found = await store.find({ ...filter, ...(target === undefined ? {} : { target }), limit: options.limit });
    if (out.json) return await out.writeJson(found.map(deliveryJson));
    if (found.length === 0) return out.note('No deliveries found.');
    const style = styleFor(out);
    const rows: Cell[][] = found.map((delivery) => [
      delivery.eventAt.toISOString(),
      delivery.eventName ?? '-',
      delivery.recipient ?? '-',
      delivery.webhookId,
      delivery.forward === undefined
        ? { text: delivery.outcome === null ? '-' : delivery.outcome.state }
        : { text: forwardText(delivery.forward), paint: delivery.forward.doneAt === null ? style.red : style.green },
    ]);
    const last = target === undefined ? 'HANDLED' : 'TARGET ANSWERED';
    await out.write(
      renderTable(
        out,
        [timestampColumn('EVENT TIME', 0), { header: 'EVENT' }, { header: 'RECIPIENT', truncate: true }, { header: 'WEBHOOK ID' }, { header: last }],
        rows,
      ),
    );
    if (found.length === options.limit) out.note(`The newest ${options.limit}; --limit shows more.`);
  } finally {
    await store.close();
  }
});

export const show: Handler<[string], { store?: string }> = handler(['out', 'env'], async (context, [webhookId], options) => {
  const { out } = context;
  const store = await openStore(context, options);
  try {
    const delivery = await store.get(webhookId);
    if (delivery === undefined)
      throw new NotFoundError(`no delivery ${webhookId} in ${store.location}`, { hint: 'find its id with `loopsctl deliveries find`' });
    const forwards = await store.forwards(webhookId);
    if (out.json) return await out.writeJson({ ...deliveryJson(delivery), forwards: forwards.map(shownForward) });
    await out.write(renderDelivery(out, delivery, forwards));
  } finally {
    await store.close();
  }
});

function renderDelivery(out: Output, delivery: StoredDelivery, forwards: ForwardState[]): string {
  const record = {
    webhookId: delivery.webhookId,
    eventName: delivery.eventName,
    eventTime: delivery.eventAt.toISOString(),
    receivedAt: delivery.receivedAt.toISOString(),
    recipient: delivery.recipient,
    emailId: delivery.emailId,
    verified: delivery.verified,
    handled: delivery.outcome === null ? null : delivery.outcome.state === 'handled' ? 'handled' : `failed: ${delivery.outcome.error}`,
    ...Object.fromEntries(forwards.map((forward) => [`forward ${redactUrl(forward.target)}`, forwardText(forward)])),
    ...Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [`header ${name}`, value])),
  };
  // A body is anyone's text: on a terminal its controls, C0 and C1, are escaped (--json keeps its bytes).
  return `${renderRecord(out, record)}\n${out.tty ? sanitizeKeepingLines(delivery.body) : delivery.body}\n`;
}
