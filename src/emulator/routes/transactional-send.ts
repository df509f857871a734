/**
 * The sandbox's POST /v1/transactional: a send is delivered nowhere; it goes to the outbox with
 * its data variables checked against the email's (one that leaves out a required variable is
 * 400), and its attachments by name and size.
 */
import { z } from '../../base/shapes.js';
import { dataVariableVerdict, leftOut, missingRequiredMessage } from '../../platform/transactional/data-variables.js';
import { transactionalSent } from '../../platform/transactional/schemas.js';
import {
  badRequest,
  type FailureShape,
  fixedAnswer,
  flaggedFailures,
  notFound,
  objectBody,
  type RouteContext,
  type SandboxModule,
  stringField,
} from '../module.js';
import { contactTable } from './contact-records.js';
import { CONTACT_WRITES, checkEmail, upsertContact } from './contacts.js';
import { findMessage } from './email-message-records.js';
import { DELIVERED, nextSendOutcome } from './engagement.js';
import { claimIdempotencyKey, sendToOutbox } from './sandbox.js';
import { transactionalEmails } from './transactional.js';
import { reportTransactionalSent, unsubscribeBounced } from './webhooks.js';

function attachmentSummaries(value: unknown) {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest('attachments must be an array.');
  return value.map((item, index) => {
    const fields = objectBody(item, ['filename', 'contentType', 'data'], ['filename', 'contentType', 'data']);
    const data = stringField(fields, 'data');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw badRequest(`attachments[${index}].data is not base64.`);
    return { filename: stringField(fields, 'filename'), contentType: stringField(fields, 'contentType'), bytes: Buffer.from(data, 'base64').length };
  });
}

/** Every email sent is answered alike. */
const sent = fixedAnswer(transactionalSent, { success: true });

function send(context: RouteContext) {
  const claim = claimIdempotencyKey(context, 'transactional');
  const fields = objectBody(context.body, ['transactionalId', 'email', 'addToAudience', 'dataVariables', 'attachments'], ['transactionalId', 'email']);
  const transactionalId = stringField(fields, 'transactionalId');
  const email = stringField(fields, 'email');
  checkEmail(email);
  const variables = fields.dataVariables ?? {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) throw badRequest('dataVariables must be an object.');
  if (fields.addToAudience !== undefined && typeof fields.addToAudience !== 'boolean') throw badRequest('addToAudience must be a boolean.');
  const attachments = attachmentSummaries(fields.attachments);
  const stored = transactionalEmails.of(context.state).find((candidate) => candidate.record.id === transactionalId);
  if (stored === undefined) throw notFound('Transactional email not found.');
  if (stored.record.publishedEmailMessageId === null) throw badRequest('Transactional email is not published.');
  const given = Object.entries(variables as Record<string, unknown>).flatMap(([name, value]) => (value === null ? [] : [name]));
  const expected = stored.record.dataVariables;
  // The sandbox knows what the editor marks optional, as the platform does: nothing is unstated here.
  const verdict = dataVariableVerdict(expected, {
    fallbacks: findMessage(context.state, stored.record.publishedEmailMessageId)?.message.dataVariablesFallbacks,
    markedOptional: stored.optionalDataVariables ?? [],
  });
  const missing = leftOut(verdict, variables as Record<string, unknown>).required;
  if (missing.length > 0) throw badRequest(missingRequiredMessage(missing));
  if (fields.addToAudience === true) upsertContact(context, { email });
  const emailMessageId = stored.record.publishedEmailMessageId;
  const recipient = contactTable(context.state).find({ email });
  // Without rates set, every send is delivered.
  const outcome = nextSendOutcome(context, transactionalId) ?? DELIVERED;
  const emailId = reportTransactionalSent(context, { to: email, transactionalId, transactionalName: stored.record.name, emailMessageId }, recipient, outcome);
  sendToOutbox(context.state, {
    kind: 'transactional',
    at: context.now().toISOString(),
    idempotencyKey: claim.key,
    to: email,
    transactionalId,
    name: stored.record.name,
    addToAudience: fields.addToAudience === true,
    dataVariables: variables as Record<string, unknown>,
    // What is left out now is optional: the outbox shows it, as the email will be sent without it.
    missingVariables: expected.filter((name) => !given.includes(name)),
    unknownVariables: given.filter((name) => !expected.includes(name)),
    attachments,
    emailMessageId,
    ...(emailId === undefined ? {} : { emailId }),
  });
  // The sandbox delivers every send, unless `sandbox engagement` set the email's rates.
  stored.metrics.sends += 1;
  if (outcome.delivered) stored.metrics.deliveries += 1;
  if (outcome.hardBounced) {
    stored.metrics.hardBounces += 1;
    if (recipient !== undefined) unsubscribeBounced(context, recipient);
  }
  if (outcome.softBounced) stored.metrics.softBounces += 1;
  if (outcome.spamReported) stored.metrics.spamReports += 1;
  claim.remember();
  context.changed();
  return sent();
}

/**
 * A send's failures are `{success: false, message}`; the 404 of an email that does not exist is the
 * nested form its description documents, naming the field at fault. The description's 400 is a
 * oneOf whose options overlap (any body with success and message fits the first, and one with a
 * nested error fits three), so only the plain form fits exactly one of them: 400s keep it.
 */
const sendFailures: FailureShape = {
  schema: z.looseObject({ success: z.boolean(), message: z.string(), error: z.optional(z.looseObject({ path: z.string(), message: z.string() })) }),
  body: (failure) =>
    failure.status === 404
      ? { success: false, message: failure.message, error: { path: 'transactionalId', message: failure.message } }
      : flaggedFailures.body(failure),
};

/** A module of its own (the send reads the transactional emails, which know nothing of sends). */
export const sandbox: SandboxModule = {
  slices: [],
  routes: [{ operation: 'sendTransactionalEmail', failures: sendFailures, uses: CONTACT_WRITES, run: send }],
};
