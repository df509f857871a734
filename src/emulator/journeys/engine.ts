/**
 * The sandbox runs workflows as the platform does: a contact that a trigger lets in goes from node
 * to node (filters, branches, experiments, emails) until a timer makes it wait, or it exits. Each
 * run is a journey (../journey-records.ts), every step kept with its node, its time on the sandbox's clock
 * and why. A wait ends when the clock passes it: every request first releases the waits that have
 * ended (in the order they end, each going on at the time its wait ended), and so does a move of
 * the clock (POST /_sandbox/clock).
 */

import { entryRefusal, experimentVariant, runningMode, type TriggerCause, timerWait, triggerFires } from '../../platform/workflows/running.js';
import {
  addJourney,
  endJourney,
  HELD_WORDS,
  holdingWorkflows,
  holdJourney,
  indexWait,
  type Journey,
  type JourneyStep,
  journeyById,
  journeysOf,
  leaveWait,
  nextWaitEnds,
  popWait,
  pushWait,
  takeHeld,
  takeWaitsEndingBy,
  type Wait,
} from '../journey-records.js';
import type { RouteContext, StateCore } from '../module.js';
import { type ContactTable, contactTable, type StoredContact } from '../routes/contact-records.js';
import { countSend, nextSendOutcome } from '../routes/engagement.js';
import type { Happening, SentEmail } from '../routes/journey-starts.js';
import { sendToOutbox } from '../routes/sandbox.js';
import { reportLoopEmailSent, unsubscribeBounced } from '../routes/webhooks.js';
import { contactValues } from '../routes/workflow-emails.js';
import { sentSubject } from '../routes/workflow-messages.js';
import { NOTHING_SENT, type StoredWorkflow, workflows } from '../routes/workflow-records.js';
import { passes, type WorkflowNode } from './nodes.js';

/** Steps one run may take without waiting: a workflow whose nodes lead back to one another stops there. */
const MAX_STEPS_AT_ONCE = 400;
/** Steps one journey may take in all: a loop through a short timer, moved a year at once, stops there too. */
const MAX_JOURNEY_STEPS = 2_000;

/** The waits a run releases, earliest first: a binary heap, so that 10,000 of them cost n log n, not n². */
class PendingWaits {
  private readonly heap: Wait[] = [];
  private count = 0;

  add(until: string, journeyId: string): void {
    pushWait(this.heap, { until, journeyId, order: (this.count += 1) });
  }

  take(): Wait | undefined {
    return popWait(this.heap);
  }
}

/** One request's or one release's run of the engine: the time it is at, and the emails sent. */
class Run {
  readonly sent: SentEmail[] = [];
  readonly pending = new PendingWaits();
  private contactsOfRun: ContactTable | undefined;

  constructor(
    readonly context: RouteContext,
    /** Waits ending by this time are released in this run rather than indexed. */
    private readonly releaseBy?: string,
  ) {}

  /** The request's context at a time of this run (the time a wait ended), which the webhooks it queues are dated with. */
  at(time: string): RouteContext {
    return { ...this.context, now: () => new Date(time) };
  }

  /** A contact by id. */
  contact(id: string): StoredContact | undefined {
    this.contactsOfRun ??= contactTable(this.context.state);
    return this.contactsOfRun.byId(id);
  }

  wait(journey: Journey, until: string): void {
    // A wait that ends by the time this run releases up to is released in it, in its place.
    if (this.releaseBy !== undefined && until <= this.releaseBy) {
      journey.status = 'waiting';
      journey.waitUntil = until;
      this.pending.add(until, journey.id);
    } else indexWait(this.context.state, journey, until);
  }
}

/**
 * Starts the journeys of the workflows these happenings trigger for the contact, and runs each
 * until it waits or ends. Returns the emails they sent at once.
 */
export function startJourneys(context: RouteContext, contact: StoredContact, happening: Happening): SentEmail[] {
  if (happening.causes.length === 0) return [];
  // Contacts held by a workflow that sends again go on first.
  if (holdingWorkflows(context.state).length > 0) releaseWaits(context);
  const run = new Run(context);
  // The time is read once a workflow is entered: most events start none.
  let at: string | undefined;
  for (const workflow of workflows.of(context.state)) {
    const trigger = workflow.nodes.find((node) => node.id === workflow.rootNodeId);
    if (trigger === undefined) continue;
    const cause = happening.causes.find((candidate) => triggerFires(trigger, candidate, workflow.mailingListId));
    if (cause === undefined || !mayEnter(context, workflow, trigger, contact)) continue;
    at ??= context.now().toISOString();
    const journey = newJourney(context, workflow, contact, trigger, at, happening.event);
    step(journey, trigger, at, 'entered', triggerWords(cause));
    go(run, journey, workflow, contact, firstNext(trigger), at);
  }
  if (run.sent.length > 0) context.changed();
  return run.sent;
}

/** A new journey of the contact through the workflow, at a node since a time, kept in the state. */
function newJourney(
  context: RouteContext,
  workflow: StoredWorkflow,
  contact: StoredContact,
  node: WorkflowNode,
  startedAt: string,
  event?: Happening['event'],
): Journey {
  const journey: Journey = {
    id: context.newId(),
    workflowId: workflow.id,
    workflowName: workflow.name,
    contactId: contact.id,
    email: contact.email,
    status: 'waiting',
    nodeId: node.id,
    waitUntil: null,
    startedAt,
    endedAt: null,
    eventName: event?.name ?? null,
    eventProperties: event?.properties ?? {},
    downstreamFilters: [],
    steps: [],
  };
  addJourney(context.state, journey);
  return journey;
}

/**
 * Puts a contact part-way through a workflow, at a node since a time (a fixture's "three days into
 * the trial"): the journey runs from that node at that time, so a timer there waits from then,
 * and what has ended by the sandbox's time is released at once.
 */
export function placeJourney(context: RouteContext, contact: StoredContact, workflow: StoredWorkflow, node: WorkflowNode, since: string): Journey {
  const journey = newJourney(context, workflow, contact, node, since);
  step(journey, node, since, 'placed', 'placed at this node by a fixture');
  go(new Run(context), journey, workflow, contact, node.id, since);
  releaseWaits(context);
  context.changed();
  return journey;
}

/** Whether the contact enters a workflow its trigger fired for (see entryRefusal), its earlier journeys through it considered. */
function mayEnter(context: RouteContext, workflow: StoredWorkflow, trigger: WorkflowNode, contact: StoredContact): boolean {
  const earlier = journeysOf(context.state, contact.id).flatMap((journey) =>
    journey.workflowId === workflow.id ? [{ ended: journey.status === 'ended' }] : [],
  );
  return entryRefusal(workflow, trigger, contact, earlier) === undefined;
}

function triggerWords(cause: TriggerCause): string {
  switch (cause.kind) {
    case 'created':
      return 'the contact was created';
    case 'event':
      return `event "${cause.eventName}" was sent`;
    case 'joinedList':
      return `the contact joined mailing list ${cause.mailingListId}`;
    case 'propertyChanged':
      return `${cause.key} changed from ${JSON.stringify(cause.was) ?? 'nothing'} to ${JSON.stringify(cause.is) ?? 'nothing'}`;
  }
}

const firstNext = (node: WorkflowNode): string | undefined => node.nextNodeIds[0];

function step(
  journey: Journey,
  node: Pick<WorkflowNode, 'id' | 'typeName'>,
  at: string,
  outcome: string,
  why: string,
  more: Pick<JourneyStep, 'subject' | 'until'> = {},
): void {
  journey.steps.push({ nodeId: node.id, typeName: node.typeName, at, outcome, why, ...more });
}

/**
 * Runs a journey from a node (undefined: the node before had nothing after it) until it waits or
 * ends. One loop over the node types, so the rules read in one place, in the order the reference
 * lists the types.
 */
function go(run: Run, journey: Journey, workflow: StoredWorkflow, contact: StoredContact, from: string | undefined, at: string): void {
  const state = run.context.state;
  const nodes = new Map(workflow.nodes.map((node) => [node.id, node]));
  let nodeId = from;
  let previous = journey.nodeId;
  for (let taken = 0; ; taken += 1) {
    if (nodeId === undefined) {
      const last = previous === null ? undefined : nodes.get(previous);
      if (last !== undefined) step(journey, last, at, 'exited', 'the workflow ends here');
      return endJourney(state, journey, at, previous);
    }
    const node = nodes.get(nodeId);
    if (node === undefined) return endJourney(state, journey, at, previous);
    if (taken >= MAX_STEPS_AT_ONCE || journey.steps.length >= MAX_JOURNEY_STEPS) {
      const limit = taken >= MAX_STEPS_AT_ONCE ? `${MAX_STEPS_AT_ONCE} steps without a wait` : `${MAX_JOURNEY_STEPS} steps`;
      step(journey, node, at, 'exited', `stopped after ${limit}: the workflow leads back on itself`);
      return endJourney(state, journey, at, node.id);
    }
    journey.nodeId = node.id;
    previous = node.id;
    const failed = failedDownstream(state, journey, nodes, contact, at);
    if (failed !== undefined) {
      const words =
        failed.problem === undefined ? `no longer matches ${failed.name} of the filter before` : `the filter before cannot be evaluated: ${failed.problem}`;
      step(journey, node, at, 'filtered-out', `${words} (it applies downstream)`);
      return endJourney(state, journey, at, node.id);
    }
    switch (node.typeName) {
      case 'TimerAction': {
        const wait = timerWait(node);
        if (wait === undefined || wait.ms === 0) {
          step(journey, node, at, 'passed', wait === undefined ? 'a timer without a valid amount and unit waits for nothing' : 'a timer of 0 moves on at once');
          break;
        }
        const until = new Date(Date.parse(at) + wait.ms).toISOString();
        step(journey, node, at, 'waiting', `waits ${wait.words}, until ${until}`, { until });
        run.wait(journey, until);
        return;
      }
      case 'AudienceFilter': {
        if (!filterStep(state, journey, node, contact, at)) return endJourney(state, journey, at, node.id);
        break;
      }
      case 'BranchNode': {
        const children = node.nextNodeIds.map((id) => nodes.get(id)).filter((child) => child !== undefined);
        const results = branchResults(state, children, contact, at);
        const index = results.findIndex((result) => result.matched);
        if (index === -1) {
          step(journey, node, at, 'exited', noBranchWords(results));
          return endJourney(state, journey, at, node.id);
        }
        step(journey, node, at, 'branched', `took branch ${index + 1} of ${children.length}, the first whose filter matches`);
        nodeId = children[index]!.id;
        continue;
      }
      case 'ExperimentBranchNode': {
        const variants = node.nextNodeIds.map((id) => nodes.get(id)).filter((child) => child !== undefined);
        const variant = experimentVariant(node, variants, contact.email);
        if (variant === undefined) {
          const why =
            variants.length === 0
              ? 'the experiment has no variants'
              : `outside the experiment's sample of ${String(node.samplingRate)}%, and it has no control`;
          step(journey, node, at, 'exited', why);
          return endJourney(state, journey, at, node.id);
        }
        step(journey, node, at, 'branched', variantWords(node, variants, variant));
        nodeId = variant.id;
        continue;
      }
      case 'VariantNode':
        step(journey, node, at, 'variant', node.isControl === true ? 'the control' : `variant ${String(node.variantId ?? node.id)}`);
        break;
      case 'SendEmailAction': {
        const mode = runningMode(workflow.status);
        if (mode === 'holds') {
          step(journey, node, at, 'held', HELD_WORDS);
          return holdJourney(state, journey);
        }
        if (mode === 'stops') {
          step(journey, node, at, 'exited', `the workflow is ${workflow.status.toLowerCase()}, not sending`);
          return endJourney(state, journey, at, node.id);
        }
        sendEmail(run, journey, workflow, node, contact, at);
        break;
      }
      case 'ExitAction':
        step(journey, node, at, 'exited', 'an exit');
        return endJourney(state, journey, at, node.id);
      default:
        step(journey, node, at, 'passed', `${node.typeName} does nothing in the sandbox`);
    }
    nodeId = firstNext(node);
  }
}

/**
 * The first of the filters downstream of the journey that the contact no longer passes; undefined
 * when it passes them all. They are evaluated in order up to that one, as each may read the outbox.
 */
function failedDownstream(state: StateCore, journey: Journey, nodes: Map<string, WorkflowNode>, contact: StoredContact, at: string) {
  for (const id of journey.downstreamFilters) {
    const filter = nodes.get(id);
    if (filter === undefined) continue;
    const result = passes(state, filter, contact, at);
    if (!result.matched) return result;
  }
  return undefined;
}

/**
 * Each child of a branch in order, as far as the first whose filter the contact passes (a child
 * that is not a filter lets everyone on): every child's, when none does.
 */
function branchResults(state: StateCore, children: WorkflowNode[], contact: StoredContact, at: string): ReturnType<typeof passes>[] {
  const results: ReturnType<typeof passes>[] = [];
  for (const child of children) {
    const result = child.typeName === 'AudienceFilter' ? passes(state, child, contact, at) : { matched: true, name: '' };
    results.push(result);
    if (result.matched) break;
  }
  return results;
}

/** Why no branch was taken: none matched, and the filters that could not be evaluated, if any. */
function noBranchWords(results: { problem?: string }[]): string {
  const problems = results.flatMap((result, index) =>
    result.problem === undefined ? [] : [`branch ${index + 1}'s filter cannot be evaluated: ${result.problem}`],
  );
  return ['no branch matched the contact', ...problems].join('; ');
}

/** The variant an experiment put the contact in, in words. */
function variantWords(node: WorkflowNode, variants: WorkflowNode[], variant: WorkflowNode): string {
  // The description gives a webhook experiment only its url: no request, and no answer to read a variant from.
  const webhook = node.experimentType === 'webhook' ? '; a webhook experiment, split as an autosplit: the sandbox calls no webhook' : '';
  return `in variant ${variants.indexOf(variant) + 1} of ${variants.length} (sampling rate ${String(node.samplingRate)}%${webhook})`;
}

/** An audience filter on the way: the contact goes on when it matches; a filter that applies downstream is checked again at each later step. */
function filterStep(state: RouteContext['state'], journey: Journey, node: WorkflowNode, contact: StoredContact, at: string): boolean {
  const { matched, name, problem } = passes(state, node, contact, at);
  if (!matched) {
    step(journey, node, at, 'filtered-out', problem === undefined ? `does not match ${name}` : `${name} cannot be evaluated: ${problem}`);
    return false;
  }
  const downstream = node.appliesDownstream === true;
  if (downstream) journey.downstreamFilters.push(node.id);
  step(journey, node, at, 'matched', `matches ${name}${downstream ? ', checked again at every later step' : ''}`);
  return true;
}

/** A send-email node: the email, drawn with the contact's values and the event's, into the outbox, with its webhooks. */
function sendEmail(run: Run, journey: Journey, workflow: StoredWorkflow, node: WorkflowNode, contact: StoredContact, at: string): void {
  const context = run.at(at);
  if (!contact.subscribed || contact.suppressed) {
    step(journey, node, at, 'skipped', `not sent: the contact is ${contact.suppressed ? 'suppressed' : 'unsubscribed'}`);
    return;
  }
  if (typeof node.emailMessageId !== 'string' || node.emailMessageId === '') {
    step(journey, node, at, 'skipped', 'not sent: the node has no email message');
    return;
  }
  const subject = sentSubject(context.state, node, { contact: contactValues(contact), event: journey.eventProperties });
  const outcome = nextSendOutcome(context, node.id);
  const { emailId, engagement } = reportLoopEmailSent(
    context,
    contact,
    { loopId: workflow.id, loopName: workflow.name, mailingListId: workflow.mailingListId, emailMessageId: node.emailMessageId, subject },
    outcome,
  );
  sendToOutbox(context.state, {
    kind: 'workflow',
    at,
    to: contact.email,
    loopId: workflow.id,
    loopName: workflow.name,
    nodeId: node.id,
    journeyId: journey.id,
    emailMessageId: node.emailMessageId,
    subject,
    ...(emailId === undefined ? {} : { emailId }),
    contact: contactValues(contact),
    eventProperties: journey.eventProperties,
    ...(engagement === undefined ? {} : { engagement }),
  });
  workflow.emailMetrics ??= {};
  // With rates set (`sandbox engagement`), the node's counters move with what the send met.
  countSend((workflow.emailMetrics[node.id] ??= { ...NOTHING_SENT }), outcome);
  if (outcome?.hardBounced === true) unsubscribeBounced(context, contact);
  step(journey, node, at, 'sent', `sent "${subject}"`, { subject });
  run.sent.push({
    loopId: workflow.id,
    loopName: workflow.name,
    emailMessageId: node.emailMessageId,
    subject,
    ...(emailId === undefined ? {} : { emailId }),
    journeyId: journey.id,
  });
}

/**
 * Releases every wait that has ended by the sandbox's time (or `by`), earliest first, each journey
 * going on at the time its wait ended; and the contacts held by a paused workflow that sends again,
 * at that time, from the email they were held behind (one no longer sending lets them go). Returns
 * how many journeys went on.
 */
export function releaseWaits(context: RouteContext, by: Date = context.now()): number {
  const time = by.toISOString();
  const state = context.state;
  const resumed: string[] = [];
  for (const workflowId of holdingWorkflows(state)) {
    const status = workflows.of(state).find((each) => each.id === workflowId)?.status;
    if (status !== undefined && runningMode(status) === 'holds') continue;
    for (const journeyId of takeHeld(state, workflowId)) resumed.push(journeyId);
  }
  const next = nextWaitEnds(state);
  if ((next === undefined || next > time) && resumed.length === 0) return 0;
  const run = new Run(context, time);
  // The others at the time their wait ended, in that order; held journeys go on now.
  for (const waiting of takeWaitsEndingBy(state, time)) run.pending.add(waiting.until, waiting.journeyId);
  for (const journeyId of resumed) run.pending.add(time, journeyId);
  let released = 0;
  for (let waiting = run.pending.take(); waiting !== undefined; waiting = run.pending.take()) {
    if (release(run, waiting.journeyId, waiting.until)) released += 1;
  }
  context.changed();
  return released;
}

/**
 * A journey whose wait ended at `until` goes on from its timer, and one held at an email goes on
 * from that email; unless its workflow or contact is gone, or its workflow no longer sends (a
 * paused one lets a timer's wait end: its contact is held at the next email).
 */
function release(run: Run, journeyId: string, until: string): boolean {
  const state = run.context.state;
  const journey = journeyById(state, journeyId);
  if (journey === undefined || journey.status !== 'waiting') return false;
  const held = journey.waitUntil === null;
  const workflow = workflows.of(state).find((each) => each.id === journey.workflowId);
  const node = workflow?.nodes.find((each) => each.id === journey.nodeId);
  const contact = run.contact(journey.contactId);
  if (workflow === undefined || node === undefined || contact === undefined) {
    const gone =
      workflow === undefined ? 'the workflow was deleted' : node === undefined ? 'its node was removed from the workflow' : 'the contact was deleted';
    journey.steps.push({ nodeId: journey.nodeId ?? '', typeName: node?.typeName ?? 'unknown', at: until, outcome: 'exited', why: gone });
    endJourney(state, journey, until, journey.nodeId);
    return true;
  }
  if (runningMode(workflow.status) === 'stops') {
    step(journey, node, until, 'exited', `the workflow is ${workflow.status.toLowerCase()}, no longer sending`);
    endJourney(state, journey, until, node.id);
    return false;
  }
  leaveWait(state, journey);
  step(journey, node, until, 'released', held ? 'the workflow sends again' : 'the wait ended');
  go(run, journey, workflow, contact, held ? node.id : firstNext(node), until);
  return true;
}
