/**
 * The sandbox's own routes for its clock and its journeys, beside the API's (with the key, as
 * `/_sandbox/reset`): `GET /_sandbox/clock`, `POST /_sandbox/clock` with `{"advance": "3d"}` or
 * `{"to": "<ISO time>"}`, `GET /_sandbox/journeys?contact=<email>&workflow=<id>`, and `POST
 * /_sandbox/journeys` to place a contact part-way through a workflow (fixtures' `journeys`). Before any
 * request runs, the waits that have ended by the sandbox's time are released (`prepare`).
 */
import { contacts } from '../routes/contact-records.js';
import { workflows } from '../routes/workflow-records.js';
import { badRequest, objectBody, stringField, type ApiAnswer, type RouteContext, type SandboxModule } from '../module.js';
import { advanceClock, clock, parseDuration, setClock } from './clock.js';
import { placeJourney, releaseWaits } from './engine.js';
import { journeys } from './records.js';

export const CLOCK_PATH = '/_sandbox/clock';
export const JOURNEYS_PATH = '/_sandbox/journeys';

/** The sandbox's time (the system's as the request saw it, when the clock was moved), and whether it stands still. */
function clockAnswer(context: RouteContext, released?: number): ApiAnswer {
  const setting = clock.of(context.state);
  return { status: 200, body: { now: context.now().toISOString(), frozen: setting.frozenAt !== null, ...(released === undefined ? {} : { released }) } };
}

/** Moves the clock forward, then releases every wait that ended on the way, each at its own time. */
function moveClock(context: RouteContext): ApiAnswer {
  const fields = objectBody(context.body ?? {}, ['advance', 'to'], []);
  const given = ['advance', 'to'].filter((key) => fields[key] !== undefined);
  if (given.length !== 1) throw badRequest('give one of advance (a duration such as "3d") or to (an ISO 8601 time)');
  const system = context.systemNow();
  const moved =
    fields.advance !== undefined ? advanceClock(context.state, system, parseDuration(fields.advance, 'advance')) : setClock(context.state, system, fields.to);
  context.changed();
  const released = releaseWaits(context, moved);
  return clockAnswer(context, released);
}

/** The journeys, oldest first, of one contact (by email) and one workflow (by id) when the query names them. */
function listJourneys(context: RouteContext): ApiAnswer {
  const email = context.query.get('contact')?.toLowerCase();
  const workflowId = context.query.get('workflow');
  const found = journeys
    .of(context.state)
    .journeys.filter((journey) => (email === undefined || journey.email.toLowerCase() === email) && (workflowId === null || journey.workflowId === workflowId));
  return { status: 200, body: { now: context.now().toISOString(), journeys: found } };
}

/**
 * Places a contact part-way through a workflow: `{contact: <email>, workflow: <id or name>, node:
 * <node id>, since?: <ISO time, not after the sandbox's>}`. What fixtures' `journeys` make.
 */
function placeContact(context: RouteContext): ApiAnswer {
  const fields = objectBody(context.body, ['contact', 'workflow', 'node', 'since'], ['contact', 'workflow', 'node']);
  const email = stringField(fields, 'contact');
  const contact = contacts.of(context.state).find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
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

export const sandbox: SandboxModule = {
  slices: [clock, journeys],
  prepare: (context) => void releaseWaits(context),
  routes: [
    { method: 'GET', path: CLOCK_PATH, run: (context) => clockAnswer(context) },
    { method: 'POST', path: CLOCK_PATH, run: moveClock },
    { method: 'GET', path: JOURNEYS_PATH, run: listJourneys },
    { method: 'POST', path: JOURNEYS_PATH, run: placeContact },
  ],
};
