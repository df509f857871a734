/**
 * A send-email node and its email message are one record on the platform: the node's `subject` is
 * its message's. The description: "Shared resources such as email messages and audience segments
 * should be updated through their own APIs", so a subject changed through the email-messages API
 * (or by `content push`) is what the node, its workflow, the journeys, the outbox and the inbox show.
 */
import { fillText } from '../../lmx/render/index.js';
import type { StateCore } from '../module.js';
import { fallbacksOf, findMessage, type StoredMessage } from './email-message-records.js';
import { workflows } from './workflow-records.js';

/** A workflow's message took a new subject: each send-email node that sends it shows that subject. */
export function shareSubject(state: StateCore, stored: StoredMessage): void {
  if (stored.parent.kind !== 'workflow') return;
  const workflow = workflows.of(state).find((candidate) => candidate.id === stored.parent.id);
  for (const node of workflow?.nodes ?? []) if (node.emailMessageId === stored.message.id) node.subject = stored.message.subject;
}

/**
 * The subject a contact reads for a send-email node: its message's (the node's own where the
 * sandbox holds no message, as in a trial of a workflow's nodes), its variables filled from the
 * contact and the event, else the message's fallbacks, as the body's are.
 */
export function sentSubject(
  state: StateCore,
  node: Record<string, unknown>,
  values: { contact: Record<string, unknown>; event?: Record<string, unknown> },
): string {
  const stored = typeof node.emailMessageId === 'string' ? findMessage(state, node.emailMessageId) : undefined;
  const subject = stored?.message.subject ?? (typeof node.subject === 'string' ? node.subject : '');
  return fillText(subject, { values, fallbacks: stored === undefined ? undefined : fallbacksOf(stored) });
}
