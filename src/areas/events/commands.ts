/** What the `events` commands do: send one event, or import many, each exactly once. */

import type { Readable } from 'node:stream';
import { idempotencyKey } from '../../api/idempotency.js';
import { EMAIL_REQUIREMENT, isEmailAddress } from '../../base/email.js';
import { UsageError } from '../../base/errors.js';
import {
  countLines,
  type InputRecord,
  inputLines,
  journalPath,
  jsonObjectLine,
  type Outcome,
  openInput,
  type RecordContext,
  runImport,
} from '../../core/bulk.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { explained, UNKNOWN_LIST } from '../../core/explain.js';
import { sha256Hex } from '../../core/sha256.js';
import { parseAssignments, typedValues } from '../../core/typed-values.js';
import { typeProblem } from '../../platform/contact-properties/typing.js';
import { PropertyTypes } from '../contact-properties/typing.js';
import { MailingListNames, mailingListsOf } from '../lists/names.js';
import { sendEvent } from './client.js';

/** Fields of the event request that are not contact properties. */
const EVENT_FIELDS = ['eventName', 'eventProperties', 'email', 'userId', 'mailingLists'];

interface SendOptions {
  email?: string;
  userId?: string;
  prop?: string[];
  propsFile?: string;
  contactProp?: string[];
  list?: string[];
  idempotencyKey?: string;
}

export const send: Handler<[string], SendOptions> = handler(['out', 'client', 'files'], async (context, [eventName], options) => {
  if (eventName.trim() === '') throw new UsageError('the event name must not be empty');
  const key = idempotencyKey(options.idempotencyKey);
  const eventProperties = await typedValues(context.runtime, {
    flag: '--prop',
    raws: options.prop,
    fileFlag: '--props-file',
    file: options.propsFile,
    allowed: 'scalar',
  });
  const written = parseAssignments('--contact-prop', options.contactProp, 'scalar');
  for (const name of Object.keys(written)) {
    if (EVENT_FIELDS.includes(name))
      throw new UsageError(`--contact-prop ${name}: ${name} is a field of the event, not a contact property`, { hint: 'see `loopsctl events send --help`' });
  }
  const contactProperties = await new PropertyTypes(() => context.client()).check(written, '--contact-prop');
  const body: Record<string, unknown> = { eventName };
  if (options.email !== undefined) body.email = options.email;
  if (options.userId !== undefined) body.userId = options.userId;
  if (Object.keys(eventProperties).length > 0) body.eventProperties = eventProperties;
  const mailingLists = await mailingListsOf(options.list, new MailingListNames(() => context.client()));
  if (mailingLists !== undefined) body.mailingLists = mailingLists;
  Object.assign(body, contactProperties);
  const outcome = await explained(sendEvent(await context.client(), body, key), UNKNOWN_LIST);
  const { out } = context;
  if (out.json) return out.writeJson(outcome.sent ? { ...outcome.answer, idempotencyKey: key.value } : { alreadySent: true, idempotencyKey: key.value });
  const who = options.email ?? `userId ${options.userId}`;
  if (outcome.sent) await out.write(`Sent event ${eventName} for ${who}\nIdempotency key: ${key.value}\n`);
  else {
    out.note('Already sent: an earlier attempt reached the API, so it was not sent again.');
    out.note(`Idempotency key: ${key.value}`);
  }
});

interface EventRecord {
  body: Record<string, unknown>;
  /** The line as written: with the run, it makes the record's idempotency key. */
  text: string;
}

function isScalarObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => ['string', 'number', 'boolean'].includes(typeof item))
  );
}

async function eventRecord(line: number, text: string, types: PropertyTypes): Promise<InputRecord<EventRecord>> {
  const source = text;
  const parsed = jsonObjectLine(text);
  if ('problem' in parsed) return { line, source, problem: parsed.problem };
  const body = parsed.value;
  if (typeof body.eventName !== 'string' || body.eventName.trim() === '') return { line, source, problem: 'no eventName' };
  if (typeof body.email !== 'string' && typeof body.userId !== 'string') return { line, source, problem: 'neither email nor userId' };
  if (body.email !== undefined && !(typeof body.email === 'string' && isEmailAddress(body.email)))
    return { line, source, problem: `email must be ${EMAIL_REQUIREMENT}, not ${JSON.stringify(body.email)}` };
  if (body.eventProperties !== undefined && !isScalarObject(body.eventProperties))
    return { line, source, problem: 'eventProperties must be an object of strings, numbers and booleans' };
  if (
    body.mailingLists !== undefined &&
    !(isScalarObject(body.mailingLists) && Object.values(body.mailingLists as object).every((on) => typeof on === 'boolean'))
  ) {
    return { line, source, problem: 'mailingLists must be an object of list ids and true or false' };
  }
  for (const [key, field] of Object.entries(body)) {
    if (EVENT_FIELDS.includes(key)) continue;
    // Contact properties are looked up only when a record carries one.
    const problem = typeProblem(await types.lookup(), key, field);
    if (problem !== undefined) return { line, source, problem };
  }
  return { line, source, body: { body, text } };
}

async function* eventRecords(input: Readable, types: PropertyTypes): AsyncGenerator<InputRecord<EventRecord>> {
  for await (const { line, text } of inputLines(input)) {
    if (text.trim() !== '') yield await eventRecord(line, text.trim(), types);
  }
}

/**
 * The same record of the same journal always gets the same key, wherever it stands in the input,
 * so a resumed import cannot send it twice, even after lines before it were removed. Two identical
 * lines are one event: the second is not sent again.
 */
export function recordKey(runId: string, text: string): string {
  return `loopsctl-${sha256Hex(`${runId}\n${text}`).slice(0, 40)}`;
}

export const importEvents: Handler<[string], { journal?: string; dryRun?: boolean }> = handler(
  ['out', 'client', 'files', 'clock', 'globals'],
  async (context, [input], options) => {
    const path = options.dryRun ? undefined : journalPath(input, options.journal);
    const stream = openInput(context.runtime, input);
    const types = new PropertyTypes(() => context.client());
    const total = context.runtime.stderr.isTTY ? await countLines(input) : undefined;
    const api = await context.client();
    const send = async ({ body, text }: EventRecord, record: RecordContext): Promise<Outcome> => {
      const outcome = await sendEvent(api, body, { value: recordKey(record.runId, text), origin: 'derived' });
      return outcome.sent ? { status: 'sent' } : { status: 'skipped', message: 'already sent, by an earlier run or for an identical line' };
    };
    return runImport(context, {
      records: eventRecords(stream, types),
      journal: path === undefined ? undefined : { path, kind: 'events', input },
      statuses: ['sent', 'skipped', 'failed'],
      send,
      total,
    });
  },
);

export { importEvents as import };
