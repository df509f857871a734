/**
 * The sandbox's POST /v1/transactional: a send is delivered nowhere; it goes to the outbox with
 * its data variables checked against the email's, and its attachments by name and size.
 */
import { z } from '../../api/schemas.js';
import { answer, badRequest, flaggedFailures, notFound, objectBody, stringField, type FailureShape, type RouteContext, type SandboxRoute } from '../../sandbox/module.js';
import { checkEmail, contacts, upsertContact } from '../contacts/sandbox.js';
import { claimIdempotencyKey, outbox } from '../sandbox/sandbox.js';
import { reportTransactionalSent } from '../webhooks/sandbox.js';
import { transactionalSent } from './send.js';
import { transactionalEmails } from './sandbox.js';

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
  if (fields.addToAudience === true) upsertContact(context, { email });
  const given = Object.keys(variables);
  const expected = stored.record.dataVariables;
  outbox.of(context.state).push({
    kind: 'transactional',
    at: context.now().toISOString(),
    idempotencyKey: claim.key,
    to: email,
    transactionalId,
    name: stored.record.name,
    addToAudience: fields.addToAudience === true,
    dataVariables: variables as Record<string, unknown>,
    missingVariables: expected.filter((name) => !given.includes(name)),
    unknownVariables: given.filter((name) => !expected.includes(name)),
    attachments,
  });
  const recipient = contacts.of(context.state).find((contact) => contact.email.toLowerCase() === email.toLowerCase());
  reportTransactionalSent(context, { to: email, transactionalId, transactionalName: stored.record.name, emailMessageId: stored.record.publishedEmailMessageId }, recipient);
  // The sandbox delivers every send: its metrics count one more send and delivery.
  stored.metrics.sends += 1;
  stored.metrics.deliveries += 1;
  claim.remember();
  context.changed();
  return answer(transactionalSent, { success: true });
}

/**
 * A send's failures are `{success: false, message}`; the 404 of an email that does not exist is the
 * nested form its description documents, naming the field at fault. The description's 400 is a
 * oneOf whose options overlap (any body with success and message fits the first, and one with a
 * nested error fits three), so only the plain form fits exactly one of them: 400s keep it.
 */
const sendFailures: FailureShape = {
  schema: z.looseObject({ success: z.boolean(), message: z.string(), error: z.looseObject({ path: z.string(), message: z.string() }).optional() }),
  body: (failure) =>
    failure.status === 404 ? { success: false, message: failure.message, error: { path: 'transactionalId', message: failure.message } } : flaggedFailures.body(failure),
};

export const sendRoute: SandboxRoute = { method: 'POST', path: '/v1/transactional', failures: sendFailures, run: send };
