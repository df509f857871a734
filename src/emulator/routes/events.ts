/**
 * The sandbox's events: an event finds or creates its contact (and sets the contact properties it
 * carries), starts the journeys of the workflows whose EventTrigger it matches, and lands in the
 * outbox with those workflows and the emails they sent at once.
 */

import * as s from '../../platform/events/schemas.js';
import { badRequest, fixedAnswer, flaggedFailures, type RouteContext, type SandboxModule } from '../module.js';
import { CONTACT_WRITES, upsertContact } from './contacts.js';
import { journeyEngine } from './journey-starts.js';
import { claimIdempotencyKey, sendToOutbox } from './sandbox.js';
import { contactValues } from './workflow-emails.js';
import { workflows } from './workflow-records.js';

/** Workflows started by this event: their trigger is an EventTrigger naming it. */
function triggeredWorkflows(context: RouteContext, eventName: string) {
  return workflows
    .of(context.state)
    .filter((workflow) => workflow.nodes.some((node) => node.id === workflow.rootNodeId && node.typeName === 'EventTrigger' && node.eventName === eventName))
    .map((workflow) => ({ id: workflow.id, name: workflow.name, status: workflow.status }));
}

/** Every event sent is answered alike. */
const eventSent = fixedAnswer(s.eventSent, { success: true });

function send(context: RouteContext) {
  const claim = claimIdempotencyKey(context, 'events/send');
  const body = context.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  const eventName = fields.eventName;
  if (typeof eventName !== 'string' || eventName.trim() === '') throw badRequest('eventName is required.');
  const properties = fields.eventProperties ?? {};
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) throw badRequest('eventProperties must be an object.');
  for (const [key, value] of Object.entries(properties)) {
    if (!['string', 'number', 'boolean'].includes(typeof value)) throw badRequest(`eventProperties.${key} must be a string, a number or a boolean.`);
  }
  const contact = upsertContact(context, fields, ['eventName', 'eventProperties']);
  const emails = journeyEngine.get().startJourneys(context, contact, {
    causes: [{ kind: 'event', eventName }],
    event: { name: eventName, properties: properties as Record<string, unknown> },
  });
  sendToOutbox(context.state, {
    kind: 'event',
    at: context.now().toISOString(),
    idempotencyKey: claim.key,
    eventName,
    email: contact.email,
    userId: contact.userId,
    eventProperties: properties as Record<string, unknown>,
    workflows: triggeredWorkflows(context, eventName),
    emails: emails.map(({ loopId, loopName, emailMessageId, subject, emailId, journeyId }) => ({
      loopId,
      loopName,
      emailMessageId,
      subject,
      ...(emailId === undefined ? {} : { emailId }),
      contact: contactValues(contact),
      journeyId,
    })),
  });
  claim.remember();
  context.changed();
  return eventSent();
}

export const sandbox: SandboxModule = {
  slices: [],
  routes: [{ operation: 'sendEvent', failures: flaggedFailures, uses: CONTACT_WRITES, run: send }],
};
