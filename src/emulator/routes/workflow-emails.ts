/**
 * The workflow emails the sandbox sends, for the webhooks they cause. The sandbox does not run
 * workflows over time: when the trigger of a workflow that is sending fires for a contact who can
 * get its emails (subscribed, not suppressed, on the workflow's mailing list if it has one), and
 * the trigger leads straight to a send-email node, that email is sent. Emails that come after a
 * timer, a filter, a branch or an experiment are not.
 */
import type { RouteContext } from '../module.js';
import type { StoredContact } from './contact-records.js';
import { workflows } from './workflow-records.js';

/** What happened to the contact, as workflow triggers name it. */
export type TriggerCause =
  | { kind: 'created' }
  | { kind: 'event'; eventName: string }
  | { kind: 'joinedList'; mailingListId: string }
  | { kind: 'propertyChanged'; key: string; was: unknown; is: unknown };

export interface WorkflowEmail {
  loopId: string;
  loopName: string;
  mailingListId: string | null;
  emailMessageId: string;
  /** As the contact reads it: merge tags such as {firstName} filled in. */
  subject: string;
}

type Node = Record<string, unknown> & { id: string; typeName: string; nextNodeIds: string[] };
type Comparison = { value?: unknown; operator?: string } | undefined;

/** A value against a comparison of a ContactPropertyTrigger; operators beyond these never match here. */
function compares(comparison: Comparison, actual: unknown): boolean {
  if (comparison === undefined) return true;
  const blank = actual === undefined || actual === null || actual === '';
  switch (comparison.operator) {
    case 'any':
      return true;
    case 'equal':
    case 'numeric_equal':
      return !blank && String(actual) === String(comparison.value);
    case 'not_equal':
    case 'numeric_not_equal':
      return blank || String(actual) !== String(comparison.value);
    case 'empty':
      return blank;
    case 'not_empty':
      return !blank;
    default:
      return false;
  }
}

function fires(trigger: Node, cause: TriggerCause): boolean {
  switch (trigger.typeName) {
    case 'SignupTrigger':
      return cause.kind === 'created';
    case 'EventTrigger':
      return cause.kind === 'event' && trigger.eventName === cause.eventName;
    case 'AddToListTrigger':
      return cause.kind === 'joinedList' && trigger.mailingListId === cause.mailingListId;
    case 'ContactPropertyTrigger': {
      const query = trigger.contactPropertyQuery as { key?: string; was?: Comparison; is?: Comparison } | undefined;
      return cause.kind === 'propertyChanged' && query?.key === cause.key && compares(query.was, cause.was) && compares(query.is, cause.is);
    }
    default:
      return false;
  }
}

/** A contact's field or custom property, as merge tags and property triggers read it. */
export function contactValue(contact: StoredContact, key: string): unknown {
  return Object.hasOwn(contact.properties, key) ? contact.properties[key] : (contact as unknown as Record<string, unknown>)[key];
}

/** A contact's fields and custom properties, by the names merge tags use, as they are now. */
export function contactValues(contact: StoredContact): Record<string, unknown> {
  const { properties, mailingLists: _lists, suppressed: _suppressed, ...fields } = contact;
  return { ...fields, ...properties };
}

/** The emails the workflows started by these causes send the contact at once. */
export function workflowEmails(context: RouteContext, contact: StoredContact, causes: TriggerCause[]): WorkflowEmail[] {
  if (!contact.subscribed || contact.suppressed || causes.length === 0) return [];
  const emails: WorkflowEmail[] = [];
  for (const workflow of workflows.of(context.state)) {
    if (workflow.status !== 'Sending') continue;
    if (workflow.mailingListId !== null && contact.mailingLists[workflow.mailingListId] !== true) continue;
    const nodes = workflow.nodes as Node[];
    const trigger = nodes.find((node) => node.id === workflow.rootNodeId);
    if (trigger === undefined || !causes.some((cause) => fires(trigger, cause))) continue;
    const first = nodes.find((node) => node.id === trigger.nextNodeIds[0]);
    if (first?.typeName !== 'SendEmailAction' || typeof first.emailMessageId !== 'string') continue;
    const subject = String(first.subject ?? '').replace(/\{(\w+)\}/g, (_tag, key: string) => String(contactValue(contact, key) ?? ''));
    emails.push({ loopId: workflow.id, loopName: workflow.name, mailingListId: workflow.mailingListId, emailMessageId: first.emailMessageId, subject });
  }
  return emails;
}
