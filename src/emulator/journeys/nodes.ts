/**
 * What a filter node reads of the sandbox: the team's segments, and what each contact did (its
 * workflow emails in the outbox, their simulated opens and clicks), for the running rules of
 * src/platform/workflows/running.ts, which decide.
 */

import type { FilteredContact } from '../../platform/segments/evaluate.js';
import { type FilterVerdict, filterVerdict } from '../../platform/workflows/running.js';
import { journeyById, journeysOf } from '../journey-records.js';
import type { StateCore } from '../module.js';
import type { StoredContact } from '../routes/contact-records.js';
import { outboxEntriesFor } from '../routes/sandbox.js';
import { segments } from '../routes/segments.js';
import { contactValue } from '../routes/workflow-emails.js';
import type { StoredWorkflow } from '../routes/workflow-records.js';

export type WorkflowNode = StoredWorkflow['nodes'][number];

/**
 * Whether the contact did this with that campaign, workflow or workflow email by a time, as the
 * sandbox recorded it: a workflow's send in the outbox, and its simulated open and click (with
 * `--simulate-engagement`), each at its time on the sandbox's clock. A workflow email is named by
 * its send-email node's id or its email message's id, as segments name one. The sandbox keeps no
 * record of a campaign's sends per contact (`sandbox send-campaign` counts them and reports them
 * as webhooks), so no contact did anything with a campaign.
 */
function did(state: StateCore, contact: StoredContact, at: string, action: string, target: string, id: string): boolean {
  if (target === 'campaign') return false;
  const journeyIds = journeysOf(state, contact.id).map((journey) => journey.id);
  return outboxEntriesFor(state, journeyIds, contact.email).some((entry) => {
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
export function filteredContact(state: StateCore, contact: StoredContact, at: string): FilteredContact {
  return {
    value: (key) => contactValue(contact, key),
    optInStatus: contact.optInStatus,
    did: (action, target, id) => did(state, contact, at, action, target, id),
  };
}

/**
 * Whether the contact, as it is at a time, passes an AudienceFilter node (see filterVerdict): the
 * team's segments by id, and what the contact did by then.
 */
export function passes(state: StateCore, node: WorkflowNode, contact: StoredContact, at: string): FilterVerdict {
  const lookup = (id: string) => segments.of(state).find((candidate) => candidate.id === id);
  return filterVerdict(node, lookup, filteredContact(state, contact, at));
}
