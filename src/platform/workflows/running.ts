/**
 * How the platform runs a workflow, once it is running: which trigger lets a contact in, who may
 * enter, what a filter node asks of a contact (its segment and its own conditions together), how
 * long a timer waits, which variant of an experiment a contact is in, and what a paused workflow
 * does. The sandbox's journey engine and `workflow test` (which runs that engine on one contact)
 * both read these rules; where the platform is silent, the choice made is written here once and
 * in docs/sandbox.md ("Where the platform is silent").
 */
import { createHash } from 'node:crypto';
import { type FilteredContact, filterMatches } from '../segments/evaluate.js';
import { filterFaultUnder } from '../segments/filter.js';
import type { AudienceFilter } from '../segments/schemas.js';
import { isTimerUnit, TIMER_UNITS, timerWords } from './node-facets.js';

/** A node as the running rules read it: its type and whatever fields its type has. */
export type RunningNode = { id: string; typeName: string; nextNodeIds: string[] } & Record<string, unknown>;

/** What happened to the contact, as workflow triggers name it. */
export type TriggerCause =
  | { kind: 'created' }
  | { kind: 'event'; eventName: string }
  | { kind: 'joinedList'; mailingListId: string }
  | { kind: 'propertyChanged'; key: string; was: unknown; is: unknown };

type Comparison = { value?: unknown; operator?: string } | undefined;

/** A value against a comparison of a ContactPropertyTrigger; operators about emails and opt-in never match here. */
function compares(comparison: Comparison, actual: unknown): boolean {
  if (comparison === undefined) return true;
  const blank = actual === undefined || actual === null || actual === '';
  const expected = comparison.value;
  switch (comparison.operator) {
    case 'any':
      return true;
    case 'equal':
    case 'numeric_equal':
      return !blank && String(actual) === String(expected);
    case 'not_equal':
    case 'numeric_not_equal':
      return blank || String(actual) !== String(expected);
    case 'empty':
    case 'date_empty':
      return blank;
    case 'not_empty':
    case 'date_not_empty':
      return !blank;
    case 'contains':
      return !blank && String(actual).toLowerCase().includes(String(expected).toLowerCase());
    case 'not_contains':
      return blank || !String(actual).toLowerCase().includes(String(expected).toLowerCase());
    case 'greater_than':
      return !blank && Number(actual) > Number(expected);
    case 'less_than':
      return !blank && Number(actual) < Number(expected);
    case 'true':
      return actual === true || actual === 'true';
    case 'false':
      return actual === false || actual === 'false';
    case 'after':
      return !blank && Date.parse(String(actual)) > Date.parse(String(expected));
    case 'before':
      return !blank && Date.parse(String(actual)) < Date.parse(String(expected));
    default:
      return false;
  }
}

/**
 * Whether a trigger node fires for what happened. An event trigger compares the event's name
 * exactly, case included (event names are case-sensitive: `trial_started` does not fire a
 * `Trial_Started` trigger); an AddToListTrigger without a list of its own watches its workflow's.
 */
export function triggerFires(trigger: RunningNode, cause: TriggerCause, workflowListId: string | null): boolean {
  switch (trigger.typeName) {
    case 'SignupTrigger':
      return cause.kind === 'created';
    case 'EventTrigger':
      return cause.kind === 'event' && trigger.eventName === cause.eventName;
    case 'AddToListTrigger':
      return cause.kind === 'joinedList' && (trigger.mailingListId ?? workflowListId) === cause.mailingListId;
    case 'ContactPropertyTrigger': {
      const query = trigger.contactPropertyQuery as { key?: string; was?: Comparison; is?: Comparison } | undefined;
      return cause.kind === 'propertyChanged' && query?.key === cause.key && compares(query.was, cause.was) && compares(query.is, cause.is);
    }
    default:
      return false;
  }
}

/**
 * Why an event of this name starts nothing at this trigger, in words (the event the trigger waits
 * for), or undefined when it starts it or the trigger waits for no event at all.
 */
export function eventMismatch(trigger: RunningNode, eventName: string): string | undefined {
  if (trigger.typeName !== 'EventTrigger') return undefined;
  if (triggerFires(trigger, { kind: 'event', eventName }, null)) return undefined;
  const waited = typeof trigger.eventName === 'string' && trigger.eventName !== '' ? `the event "${trigger.eventName}"` : 'an event it does not name yet';
  const caseOnly =
    typeof trigger.eventName === 'string' && trigger.eventName.toLowerCase() === eventName.toLowerCase() ? ' (event names are case-sensitive)' : '';
  return `the trigger waits for ${waited}, not "${eventName}"${caseOnly}`;
}

/**
 * What a workflow of this status does with a contact: `sends` (Sending); `holds` (paused: "When
 * paused, email sending is stopped and contacts are queued behind their respective nodes as
 * expected", loops.so/docs/loop-builder/experiments); `stops` (a draft, or any status the platform
 * does not send in): a contact still in it leaves.
 */
export function runningMode(status: string): 'sends' | 'holds' | 'stops' {
  if (status === 'Sending') return 'sends';
  return status === 'Paused' || status === 'PausedAndQueueing' ? 'holds' : 'stops';
}

/**
 * Whether a workflow of this status lets a contact its trigger fired for in. "New contacts that
 * match the Trigger conditions while the Loop is paused will enter the Loop but only within the
 * first 24 hours" (loops.so/docs/loop-builder/pausing-loops): the sandbox keeps no time of a pause,
 * so its status says which part of it a workflow is in: `PausedAndQueueing` (the description's
 * status of a paused workflow still queueing) lets contacts in, to be held at its first email;
 * `Paused` (past those 24 hours) lets no one in.
 */
export function admitsNewContacts(status: string): boolean {
  return status === 'Sending' || status === 'PausedAndQueueing';
}

/** A contact as entry reads it. */
export interface EnteringContact {
  subscribed: boolean;
  suppressed: boolean;
  mailingLists: Record<string, boolean>;
}

/**
 * Why a contact its trigger fired for does not enter the workflow, or undefined when it enters:
 * its status must admit new contacts; its mailing list, when it has one, restricts who; an
 * unsubscribed or suppressed contact enters none. Re-entry follows `reEligible` ("If `true`, the
 * contacts will be able to enter this workflow every time the trigger is matched. If `false`,
 * contacts will only ever enter this workflow once.", WorkflowReEligible in the description):
 * where the platform is silent, a re-eligible contact triggered while still in the workflow does
 * not enter a second time; it may once its journey has ended.
 */
export function entryRefusal(
  workflow: { status: string; mailingListId: string | null },
  trigger: RunningNode,
  contact: EnteringContact,
  earlier: { ended: boolean }[],
): string | undefined {
  if (!admitsNewContacts(workflow.status)) return `the workflow is ${workflow.status.toLowerCase()}`;
  if (workflow.mailingListId !== null && contact.mailingLists[workflow.mailingListId] !== true) return "the contact is not on the workflow's mailing list";
  if (contact.suppressed) return 'the contact is suppressed';
  if (!contact.subscribed) return 'the contact is unsubscribed';
  if (earlier.length === 0) return undefined;
  if (trigger.reEligible !== true) return 'the contact entered it before, and its trigger is not re-eligible';
  return earlier.every((journey) => journey.ended) ? undefined : 'the contact is still in it';
}

/**
 * A timer's wait in milliseconds, and in words; undefined for a timer whose amount or unit is not
 * one the platform takes. An amount of 0 waits for nothing ("Set to 0 to move to the next node
 * immediately", TimerAction's amount in the description).
 */
export function timerWait(node: RunningNode): { ms: number; words: string } | undefined {
  const amount = node.amount;
  const unit = node.unit;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || !isTimerUnit(unit)) return undefined;
  return { ms: amount * TIMER_UNITS[unit].ms, words: timerWords(amount, unit) };
}

/** A segment as a filter node reads it: its name and its filter; undefined when it does not exist (deleted). */
export type SegmentLookup = (id: string) => { name: string; filter: AudienceFilter | null | undefined } | undefined;

/** A filter node's verdict on a contact: whether it matched, what it applied, and why it could not be evaluated. */
export interface FilterVerdict {
  matched: boolean;
  name: string;
  problem?: string;
}

/** Each stored filter's problem, found once: a run through 10,000 contacts checks the same filter object each time. */
const problems = new WeakMap<AudienceFilter, { problem: string | undefined }>();

function filterProblem(filter: AudienceFilter, place: string): string | undefined {
  if (filter.conditions.length === 0) return undefined;
  const known = problems.get(filter);
  if (known !== undefined) return known.problem;
  const problem = filterFaultUnder(place, filter);
  problems.set(filter, { problem });
  return problem;
}

/**
 * Whether the contact passes an AudienceFilter node: its segment's filter, and its own conditions
 * on top when it has both ("When both are provided, this filter is applied on top of the
 * segment's filter.", AudienceFilterInRequest in the description). A node with neither lets
 * everyone on; a segment deleted since, or a filter that cannot be evaluated, lets no one on and
 * says why.
 */
export function filterVerdict(node: RunningNode, segment: SegmentLookup, contact: FilteredContact): FilterVerdict {
  const applied: { filter: AudienceFilter; place: string }[] = [];
  const names: string[] = [];
  if (typeof node.audienceSegmentId === 'string' && node.audienceSegmentId !== '') {
    const found = segment(node.audienceSegmentId);
    if (found === undefined) return { matched: false, name: `segment ${node.audienceSegmentId} (deleted)` };
    names.push(`segment "${found.name}"`);
    if (found.filter !== undefined && found.filter !== null) applied.push({ filter: found.filter, place: `segment "${found.name}"` });
  }
  const own = node.audienceFilter as AudienceFilter | null | undefined;
  if (own !== undefined && own !== null) {
    names.push(names.length === 0 ? 'its filter' : 'its own filter');
    applied.push({ filter: own, place: 'audienceFilter' });
  }
  if (names.length === 0) return { matched: true, name: 'no filter' };
  const name = names.join(' and ');
  for (const { filter, place } of applied) {
    const problem = filterProblem(filter, place);
    if (problem !== undefined) return { matched: false, name, problem };
  }
  return { matched: applied.every(({ filter }) => filterMatches(filter, contact)), name };
}

/**
 * The variant of an experiment a contact is in: a hash of the contact (its email, in lower case, so
 * a contact gets the same variant in every sandbox, whatever order contacts were made in) and the
 * node puts it at a point between 0 and 1, the same on every run; below the sampling rate it is in
 * the experiment (its variants share that part evenly), above it in the control. Without a
 * control, a contact above the sampling rate is in no variant and leaves: "If you do not add a
 * control branch, only your selected sample size will be sent through the experiment node"
 * (loops.so/docs/loop-builder/experiments). An experiment of a control alone sends everyone there.
 */
export function experimentVariant<Node extends RunningNode>(node: RunningNode, variants: Node[], contactEmail: string): Node | undefined {
  const point = createHash('sha256').update(`${contactEmail.toLowerCase()}/${node.id}`).digest().readUIntBE(0, 6) / 2 ** 48;
  const control = variants.find((variant) => variant.isControl === true);
  const others = variants.filter((variant) => variant !== control);
  if (others.length === 0) return control;
  const rate = Math.min(100, Math.max(0, typeof node.samplingRate === 'number' ? node.samplingRate : 0)) / 100;
  if (point >= rate) return control;
  return others[Math.min(others.length - 1, Math.floor((point / rate) * others.length))];
}
