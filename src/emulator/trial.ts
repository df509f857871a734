/**
 * A workflow tried on one contact in a throwaway sandbox (`loopsctl workflow test`): a new team's
 * data with this workflow (sending), the segments its filters name, and the contact; the contact
 * enters as its trigger says (an event, its sign-up, its list), or is placed at the trigger; then
 * the clock, stopped at the start, is moved through every wait, up to a limit, and what the
 * journey did and which emails it sent, when, is the answer.
 */

import { STANDARD_FIELDS } from '../platform/contact-properties/typing.js';
import type { AudienceSegment } from '../platform/segments/schemas.js';
import { entryRefusal, eventMismatch } from '../platform/workflows/running.js';
import { loadSandboxModules, RouteTable, SandboxApi } from './api.js';
import { freezeClock, MAX_ADVANCE_MS, seedDate } from './clock.js';
import { allJourneys, type Journey, nextWaitEnds } from './journey-records.js';
import { SANDBOX_KEY } from './keys.js';
import { requestOf, type StateCore } from './module.js';
import { CLOCK_PATH, JOURNEYS_PATH } from './own-paths.js';
import { contacts } from './routes/contact-records.js';
import { mailingLists } from './routes/lists.js';
import { outbox } from './routes/sandbox.js';
import { segments } from './routes/segments.js';
import { type StoredWorkflow, workflows } from './routes/workflow-records.js';
import { seedState } from './state/index.js';

export interface WorkflowTrial {
  /** The workflow with its nodes in full (as `GET …/nodes/{id}` gives each). */
  workflow: Omit<StoredWorkflow, 'emailMetrics'>;
  /** The segments its audience filters name. */
  segments: AudienceSegment[];
  /** The contact: an email, and its fields and custom properties. */
  contact: { email: string } & Record<string, unknown>;
  /** The event that starts it, with its properties; the trigger's own event when it has one and none is given. */
  event?: { name: string; properties: Record<string, unknown> };
  /** How long to run, in milliseconds; until every journey ends (at most a year) when not given. */
  forMs?: number;
}

export interface TrialEmail {
  subject: string;
  at: string;
  /** Milliseconds after the contact entered. */
  afterMs: number;
  nodeId: string;
}

export interface TrialResult {
  journeys: Journey[];
  emails: TrialEmail[];
  /** Whether every journey had ended when the run stopped. */
  ended: boolean;
  /** Why the contact did not enter the workflow, when it did not: the event the trigger waits for, or who it lets in. */
  notStarted?: string;
}

const YEAR_MS = 365 * 86_400_000;

/** The contact's custom properties, declared with the type their values have. */
function customPropertyType(value: unknown): 'number' | 'boolean' | 'string' {
  return typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
}

const STANDARD: ReadonlySet<string> = new Set(STANDARD_FIELDS);

/** Triggers a trial fires itself: a property's change starts the contact at the trigger, and a blank trigger starts nobody. */
const FIRED_BY_TRIAL = new Set(['SignupTrigger', 'EventTrigger', 'AddToListTrigger']);

export async function runWorkflowTrial(trial: WorkflowTrial): Promise<TrialResult> {
  const trigger = trial.workflow.nodes.find((node) => node.id === trial.workflow.rootNodeId);
  // An event the trigger does not wait for starts nothing, as on the platform: nothing is run.
  const mismatch = trial.event === undefined || trigger === undefined ? undefined : eventMismatch(trigger, trial.event.name);
  if (mismatch !== undefined) return { journeys: [], emails: [], ended: true, notStarted: mismatch };
  const modules = await loadSandboxModules();
  const state: StateCore = seedState(modules, 'empty');
  freezeClock(state);
  const workflow: StoredWorkflow = { ...structuredClone(trial.workflow), status: 'Sending' };
  workflows.of(state).push(workflow);
  segments.of(state).push(...structuredClone(trial.segments));
  // The contact is on the workflow's list, and on the list its trigger watches.
  const lists = [workflow.mailingListId, trigger?.typeName === 'AddToListTrigger' ? trigger.mailingListId : null].filter(
    (id, index, all): id is string => typeof id === 'string' && all.indexOf(id) === index,
  );
  for (const id of lists) mailingLists.of(state).push({ id, name: id, description: null, isPublic: false });
  const api = new SandboxApi(state, new RouteTable(modules));
  const call = ({ method, path }: { method: string; path: string }, body?: unknown) => {
    const answer = api.handle({ method, path, query: new URLSearchParams(), authorization: `Bearer ${SANDBOX_KEY}`, body: JSON.stringify(body ?? {}) });
    if (answer.status >= 300) throw new Error((answer.body as { message?: string }).message ?? `the sandbox answered ${answer.status}`);
    return answer.body;
  };
  for (const [key, value] of Object.entries(trial.contact)) {
    if (!STANDARD.has(key)) call(requestOf('createContactProperty'), { name: key, type: customPropertyType(value) });
  }
  call(requestOf('createContact'), { ...trial.contact, mailingLists: Object.fromEntries(lists.map((id) => [id, true])) });
  const event = trial.event ?? (typeof trigger?.eventName === 'string' ? { name: trigger.eventName, properties: {} } : undefined);
  if (event !== undefined) call(requestOf('sendEvent'), { email: trial.contact.email, eventName: event.name, eventProperties: event.properties });
  if (allJourneys(state).length === 0 && trigger !== undefined) {
    const refusal = entryRefusal(workflow, trigger, contacts.of(state)[0]!, []);
    if (refusal !== undefined) return { journeys: [], emails: [], ended: true, notStarted: refusal };
    // A blank trigger starts nobody, in the sandbox as on the platform (a new workflow is "a draft
    // workflow with a blank trigger", the description): the trial says so rather than place the contact.
    if (trigger.typeName === 'BlankTrigger')
      return { journeys: [], emails: [], ended: true, notStarted: 'its trigger is blank, which starts nobody: set what starts it in the app' };
    // A trigger nothing above fires (a property change): the contact starts at it.
    if (FIRED_BY_TRIAL.has(trigger.typeName)) return { journeys: [], emails: [], ended: true, notStarted: `its ${trigger.typeName} did not fire` };
    call({ method: 'POST', path: JOURNEYS_PATH }, { contact: trial.contact.email, workflow: workflow.id, node: trigger.id });
  }
  const start = Date.parse(seedDate());
  const end = start + (trial.forMs ?? YEAR_MS);
  for (let now = start; now < end; ) {
    const next = nextWaitEnds(state);
    if (next === undefined && trial.forMs === undefined) break;
    const target = Math.min(end, next === undefined ? end : Date.parse(next), now + MAX_ADVANCE_MS);
    call({ method: 'POST', path: CLOCK_PATH }, { to: new Date(Math.max(target, now)).toISOString() });
    now = Math.max(target, now + 1);
  }
  const all = allJourneys(state);
  const entered = (id: string) => Date.parse(all.find((journey) => journey.id === id)?.startedAt ?? seedDate());
  const emails = outbox
    .of(state)
    .flatMap((entry) =>
      entry.kind === 'workflow'
        ? [{ subject: entry.subject, at: entry.at, afterMs: Date.parse(entry.at) - entered(entry.journeyId), nodeId: entry.nodeId }]
        : [],
    );
  return { journeys: all, emails, ended: all.every((journey) => journey.status === 'ended') };
}
