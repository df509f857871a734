/** `POST /_sandbox/journeys`: a contact placed part-way through a workflow (what fixtures' `journeys` make). */
import { type ApiAnswer, badRequest, objectBody, type RouteContext, stringField } from '../module.js';
import { contactTable } from '../routes/contact-records.js';
import { workflows } from '../routes/workflow-records.js';
import { placeJourney } from './engine.js';

/**
 * Places a contact part-way through a workflow: `{contact: <email>, workflow: <id or name>, node:
 * <node id>, since?: <ISO time, not after the sandbox's>}`. What fixtures' `journeys` make.
 */
export function placeContact(context: RouteContext): ApiAnswer {
  const fields = objectBody(context.body, ['contact', 'workflow', 'node', 'since'], ['contact', 'workflow', 'node']);
  const email = stringField(fields, 'contact');
  const contact = contactTable(context.state).find({ email });
  if (contact === undefined) throw badRequest(`contact: no contact has the email ${email}`);
  const named = stringField(fields, 'workflow');
  const workflow = workflows.of(context.state).find((candidate) => candidate.id === named || candidate.name === named);
  if (workflow === undefined) throw badRequest(`workflow: no workflow has the id or name "${named}"`);
  const nodeId = stringField(fields, 'node');
  const node = workflow.nodes.find((candidate) => candidate.id === nodeId);
  if (node === undefined)
    throw badRequest(
      `node: workflow "${workflow.name}" has no node ${nodeId}; its nodes are ${workflow.nodes.map((each) => `${each.id} (${each.typeName})`).join(', ')}`,
    );
  const now = context.now();
  const since = fields.since === undefined ? now.toISOString() : stringField(fields, 'since');
  if (Number.isNaN(Date.parse(since))) throw badRequest(`since must be an ISO 8601 time, not "${since}"`);
  if (Date.parse(since) > now.getTime()) throw badRequest(`since must not be after the sandbox's time, ${now.toISOString()}`);
  return { status: 200, body: placeJourney(context, contact, workflow, node, new Date(since).toISOString()) };
}
