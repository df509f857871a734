/** What `webhooks trigger` does: build an event of a type, sign it, send it to the app, and show the answer. */

import { existsSync } from 'node:fs';
import { type LoopsctlError, NetworkError, NotFoundError, RejectedError, ServerError, UsageError } from '../../base/errors.js';
import { sanitize } from '../../base/sanitize.js';
import { closeMatches } from '../../base/suggest.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { parseAssignment } from '../../core/typed-values.js';
import { CONTACT } from '../../platform/contacts/resource.js';
import { Deliverer, type DeliveryOutcome, deliveryHeaders, isAccepted, outcomeText } from '../../platform/webhooks/deliver.js';
import { isWebhookEventName, WEBHOOK_EVENT_NAMES, type WebhookEventName } from '../../platform/webhooks/payloads.js';
import { newMessageId } from '../../platform/webhooks/signature.js';
import { presentRequests } from '../../render/dry-run.js';
import { renderTable } from '../../render/table.js';
import { deliveryUrl } from '../webhooks-shared/event-pattern.js';
import { keyFrom } from '../webhooks-shared/secret.js';
import { buildPayload, describeEventTypes } from './build.js';
import { nowSeconds } from './commands.js';

interface TriggerOptions {
  to?: string;
  email?: string;
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

/**
 * The sandbox's contact of this email, as the API's find gives it (id, userId, properties), read
 * from its state file without a server; undefined when there is no sandbox, or no such contact.
 */
async function sandboxContact(context: Uses<'config'>, email: string): Promise<Record<string, unknown> | undefined> {
  const { defaultStatePath, stateFileRequest } = await import('../../emulator/index.js');
  const file = defaultStatePath(context.configDir);
  // A run that names a contact makes no sandbox.
  if (!existsSync(file)) return undefined;
  const answer = await stateFileRequest(file, 'GET', `${CONTACT.operations.findContact.path}?email=${encodeURIComponent(email)}`);
  const [found] = answer.status === 200 && Array.isArray(answer.body) ? (answer.body as Record<string, unknown>[]) : [];
  return found;
}

/** The fields --email sets: the sandbox's contact when it has one (its whole record in contact.created), else the email alone. */
function contactFields(eventName: WebhookEventName, email: string, contact: Record<string, unknown> | undefined): Record<string, unknown> {
  if (contact === undefined) return { 'contactIdentity.email': email };
  const identity = { 'contactIdentity.id': contact.id, 'contactIdentity.email': contact.email, 'contactIdentity.userId': contact.userId ?? null };
  if (eventName !== 'contact.created') return identity;
  // A contact just created has accepted its opt-in, or has none to give.
  return { ...identity, contact: { ...contact, optInStatus: contact.optInStatus === 'accepted' ? 'accepted' : null } };
}

export const trigger: Handler<[string | undefined], TriggerOptions> = handler(
  ['out', 'clock', 'env', 'globals', 'config'],
  async (context, [given], options) => {
    const { out } = context;
    if (options.list) {
      const types = describeEventTypes();
      if (out.json) return out.writeJson(types);
      return out.write(
        renderTable(
          out,
          [{ header: 'EVENT' }, { header: 'SENT WHEN', prose: true }],
          types.map(({ name, summary }) => [name, summary]),
        ),
      );
    }
    const eventName = eventTypeArgument(given);
    const sets = Object.fromEntries((options.set ?? []).map((raw) => parseAssignment('--set', raw, 'json')));
    const contact = options.email === undefined ? undefined : await sandboxContact(context, options.email);
    if (options.email !== undefined)
      out.note(
        contact === undefined
          ? `No contact ${options.email} in the sandbox: the event names one made up for it.`
          : `The event names the sandbox's contact ${String(contact.id)} (${options.email}).`,
      );
    // --set comes last: it changes what the contact gave.
    const fields = options.email === undefined ? {} : contactFields(eventName, options.email, contact);
    const payload = buildPayload(eventName, context.runtime.now(), { ...fields, ...sets });
    const body = JSON.stringify(payload);
    const key = options.dryRun && options.secret === undefined && !context.env.LOOPS_WEBHOOK_SECRET ? undefined : keyFrom(context, options);
    const message = { id: newMessageId(), timestamp: String(nowSeconds(context)), body };
    const headers = key === undefined ? { 'content-type': 'application/json' } : deliveryHeaders(key, message);
    if (options.dryRun) {
      if (key === undefined) out.note('No secret: the delivery is shown unsigned (set LOOPS_WEBHOOK_SECRET or pass --secret to sign it).');
      const to = options.to === undefined ? null : deliveryUrl(options.to, '--to');
      return presentRequests(out, [{ method: 'POST', path: to, headers, body: payload, idempotencyKey: null }]);
    }
    if (options.to === undefined)
      throw new UsageError('--to <url> is needed to send the event', { hint: 'give the URL of your webhook handler, or --dry-run to see the delivery' });
    const url = deliveryUrl(options.to, '--to');
    const deliverer = new Deliverer(context.globals.timeout * 1000);
    const outcome = await deliverer.post(url, headers, body, context.runtime.signal).finally(() => deliverer.close());
    if (out.json) await out.writeJson({ webhookId: message.id, eventName, url, ...outcome });
    else {
      await out.write(`${eventName} ${message.id} → ${url}: ${outcomeText(outcome)}\n`);
      if (outcome.status !== null && outcome.body) await out.write(`${sanitize(outcome.body.trimEnd())}\n`);
    }
    if (!isAccepted(outcome)) throw appFailure(outcome, url);
  },
);

/** Why the app did not take a delivery, with the exit code of the matching API failure. */
function appFailure(outcome: DeliveryOutcome, url: string): LoopsctlError {
  const hint = 'a webhook handler answers 2xx once it has taken the event; the platform retries any other answer';
  if (outcome.status === null)
    return new NetworkError(`the app at ${url} did not answer: ${outcome.error}`, { hint: 'check that the app runs and listens at --to' });
  const message = `the app at ${url} answered ${outcome.status}, not 2xx`;
  if (outcome.status >= 500) return new ServerError(message, { status: outcome.status, hint });
  if (outcome.status === 404) return new NotFoundError(message, { status: outcome.status, hint: 'check the path of --to' });
  return new RejectedError(message, { status: outcome.status, hint });
}
