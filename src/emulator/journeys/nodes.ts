/**
 * What each node of a workflow decides for a contact, as the platform documents its node types:
 * how long a timer waits, whether an audience filter lets the contact on, which child of a branch
 * it takes, and which variant of an experiment it is in.
 */
import { createHash } from 'node:crypto';
import { filterMatches, type FilteredContact } from '../../platform/segments/evaluate.js';
import { filterFaultUnder } from '../../platform/segments/filter.js';
import type { AudienceFilter } from '../../platform/segments/schemas.js';
import type { StateCore } from '../module.js';
import type { StoredContact } from '../routes/contact-records.js';
import { outbox } from '../routes/sandbox.js';
import { journeyById } from './records.js';
import { segments } from '../routes/segments.js';
import { contactValue } from '../routes/workflow-emails.js';
import type { StoredWorkflow } from '../routes/workflow-records.js';

export type WorkflowNode = StoredWorkflow['nodes'][number];

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const UNIT_WORDS: Record<string, string> = { s: 'second', m: 'minute', h: 'hour', d: 'day' };

/** A timer's wait in milliseconds, and in words; undefined for a timer whose amount or unit is not one the platform takes. */
export function timerWait(node: WorkflowNode): { ms: number; words: string } | undefined {
  const amount = node.amount;
  const unit = typeof node.unit === 'string' ? node.unit : '';
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || UNIT_MS[unit] === undefined) return undefined;
  return { ms: amount * UNIT_MS[unit]!, words: `${amount} ${UNIT_WORDS[unit]}${amount === 1 ? '' : 's'}` };
}

type AppliedFilter = { filter: AudienceFilter; name: string; place: string } | { filter: undefined; name: string };

/**
 * The filter an AudienceFilter node applies (its own, or its segment's), with a name for it and the
 * place its faults are named under; no filter, only the name, when its segment is gone; undefined
 * when it names neither.
 */
function nodeFilter(state: StateCore, node: WorkflowNode): AppliedFilter | undefined {
  if (typeof node.audienceSegmentId === 'string' && node.audienceSegmentId !== '') {
    const segment = segments.of(state).find((candidate) => candidate.id === node.audienceSegmentId);
    if (segment === undefined) return { filter: undefined, name: `segment ${node.audienceSegmentId} (deleted)` };
    return { filter: segment.filter ?? { match: 'all', conditions: [] }, name: `segment "${segment.name}"`, place: `segment "${segment.name}"` };
  }
  const filter = node.audienceFilter as AudienceFilter | undefined;
  return filter === undefined || filter === null ? undefined : { filter, name: 'its filter', place: 'audienceFilter' };
}

/**
 * Whether the contact did this with that campaign, workflow or workflow email by a time, as the
 * sandbox recorded it: a workflow's send in the outbox, and its simulated open and click (with
 * `--simulate-engagement`), each at its time on the sandbox's clock. A workflow email is named by
 * its send-email node's id or its email message's id, as segments name one. The sandbox sends no
 * campaign to contacts, so no contact did anything with a campaign.
 */
function did(state: StateCore, contact: StoredContact, at: string, action: string, target: string, id: string): boolean {
  if (target === 'campaign') return false;
  return outbox.of(state).some((entry) => {
    if (entry.kind !== 'workflow') return false;
    if (target === 'workflow' ? entry.loopId !== id : entry.nodeId !== id && entry.emailMessageId !== id) return false;
    if (!sentTo(state, entry, contact)) return false;
    const when = action === 'sent' ? entry.at : action === 'opened' ? entry.engagement?.openedAt : entry.engagement?.clickedAt;
    return when !== undefined && when <= at;
  });
}

/** Whether a workflow email went to the contact: its journey's contact, whatever its address now (by address when the journey is gone). */
function sentTo(state: StateCore, entry: { journeyId: string; to: string }, contact: StoredContact): boolean {
  const journey = journeyById(state, entry.journeyId);
  return journey === undefined ? entry.to === contact.email : journey.contactId === contact.id;
}

/** The contact as a filter reads it at a time: its values now, and what it did by then. */
function filtered(state: StateCore, contact: StoredContact, at: string): FilteredContact {
  return {
    value: (key) => contactValue(contact, key),
    optInStatus: contact.optInStatus,
    did: (action, target, id) => did(state, contact, at, action, target, id),
  };
}

/** Each stored filter's problem, found once: a run through 10,000 contacts checks the same filter object each time. */
const problems = new WeakMap<AudienceFilter, { problem: string | undefined }>();

/**
 * Why a filter cannot be evaluated (a kind of condition, operator, action or target the platform
 * does not have, named by its place), or undefined when it can. A filter without conditions can.
 */
function filterProblem(filter: AudienceFilter, place: string): string | undefined {
  if (filter.conditions.length === 0) return undefined;
  const known = problems.get(filter);
  if (known !== undefined) return known.problem;
  const problem = filterFaultUnder(place, filter);
  problems.set(filter, { problem });
  return problem;
}

/**
 * Whether the contact, as it is at a time, passes an AudienceFilter node (one without a filter lets
 * everyone on); a filter that cannot be evaluated lets no one on, and says why.
 */
export function passes(state: StateCore, node: WorkflowNode, contact: StoredContact, at: string): { matched: boolean; name: string; problem?: string } {
  const applied = nodeFilter(state, node);
  if (applied === undefined) return { matched: true, name: 'no filter' };
  // A segment deleted since lets no one on.
  if (applied.filter === undefined) return { matched: false, name: applied.name };
  const problem = filterProblem(applied.filter, applied.place);
  if (problem !== undefined) return { matched: false, name: applied.name, problem };
  return { matched: filterMatches(applied.filter, filtered(state, contact, at)), name: applied.name };
}

/**
 * The variant of an experiment a contact is in: a hash of the contact (its email, in lower case, so
 * a contact gets the same variant in every sandbox, whatever order contacts were made in) and the
 * node puts it at a point between 0 and 1, the same on every run; below the sampling rate it is in
 * the experiment (its variants share that part evenly), above it in the control.
 */
export function experimentVariant(node: WorkflowNode, variants: WorkflowNode[], contactEmail: string): WorkflowNode | undefined {
  const point = createHash('sha256').update(`${contactEmail.toLowerCase()}/${node.id}`).digest().readUIntBE(0, 6) / 2 ** 48;
  const control = variants.find((variant) => variant.isControl === true);
  const others = variants.filter((variant) => variant !== control);
  if (others.length === 0) return control;
  if (control === undefined) return others[Math.floor(point * others.length)];
  const rate = Math.min(100, Math.max(0, typeof node.samplingRate === 'number' ? node.samplingRate : 0)) / 100;
  return point < rate ? others[Math.min(others.length - 1, Math.floor((point / rate) * others.length))] : control;
}
