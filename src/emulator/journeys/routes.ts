/**
 * The sandbox's own routes for its clock and its journeys, beside the API's (with the key, as
 * `/_sandbox/reset`): `GET /_sandbox/clock`, `POST /_sandbox/clock` with `{"advance": "3d"}` or
 * `{"to": "<ISO time>"}`, `GET /_sandbox/journeys?contact=<email>&workflow=<id>`, and `POST
 * /_sandbox/journeys` to place a contact part-way through a workflow (fixtures' `journeys`), and `POST
 * /_sandbox/campaigns/send` to send a campaign as the app does (campaign-send.ts). Before any
 * request runs, the waits that have ended by the sandbox's time are released (`prepare`).
 */

import { advanceClock, clock, parseDuration, setClock } from '../clock.js';
import { allJourneys, journeys, waitsEnded } from '../journey-records.js';
import { type ApiAnswer, badRequest, later, ModuleNeeded, objectBody, type RouteContext, type SandboxModule } from '../module.js';
import { CAMPAIGN_SEND_PATH, CLOCK_PATH, JOURNEYS_PATH } from '../own-paths.js';

// The engine (and the routes it reaches: contacts, webhooks, segments) is loaded only by a request
// that needs it: a move of the clock, a placement, or any request once a wait has ended. A read of
// workflows with nobody due pays for none of it.
const engine = later(() => import('./engine.js'));
const placing = later(() => import('./place.js'));
const campaignSending = later(() => import('./campaign-send.js'));

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
  // What is due now (contacts held by a workflow that sends again) goes on at this time, before the clock moves.
  const resumed = engine.get().releaseWaits(context);
  const system = context.systemNow();
  const moved =
    fields.advance !== undefined ? advanceClock(context.state, system, parseDuration(fields.advance, 'advance')) : setClock(context.state, system, fields.to);
  context.changed();
  const released = engine.get().releaseWaits(context, moved);
  return clockAnswer(context, resumed + released);
}

/** The journeys, oldest first, of one contact (by email) and one workflow (by id) when the query names them. */
function listJourneys(context: RouteContext): ApiAnswer {
  const email = context.query.get('contact')?.toLowerCase();
  const workflowId = context.query.get('workflow');
  const found = allJourneys(context.state).filter(
    (journey) => (email === undefined || journey.email.toLowerCase() === email) && (workflowId === null || journey.workflowId === workflowId),
  );
  return { status: 200, body: { now: context.now().toISOString(), journeys: found } };
}

export const sandbox: SandboxModule = {
  slices: [clock, journeys],
  prepare: (context) => {
    if (!waitsEnded(context.state, () => context.now().toISOString())) return;
    if (!engine.loaded()) throw new ModuleNeeded(engine);
    engine.get().releaseWaits(context);
  },
  routes: [
    { method: 'GET', path: CLOCK_PATH, run: (context) => clockAnswer(context) },
    { method: 'POST', path: CLOCK_PATH, uses: [engine], run: moveClock },
    { method: 'GET', path: JOURNEYS_PATH, run: listJourneys },
    { method: 'POST', path: JOURNEYS_PATH, uses: [placing], run: (context) => placing.get().placeContact(context) },
    { method: 'POST', path: CAMPAIGN_SEND_PATH, uses: [campaignSending], run: (context) => campaignSending.get().sendCampaign(context) },
  ],
};
