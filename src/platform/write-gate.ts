/**
 * What a write of the API does, as far as a person's yes is concerned: whether it reaches people
 * or cannot be taken back (a send, a publish, a schedule, a delete, a contact written, contacts
 * discarded from a workflow), which needs one; or whether that depends on the state of its target
 * (liveness.ts: a workflow's edit, an email message's, a campaign's audience, each of which reaches
 * people when its record is live; a component's or a theme's, which reaches the live emails that use
 * it, used-liveness.ts). Judged from the request itself, never from a label a caller
 * gives it: the one rule book that `loopsctl`'s runs, its plans and its MCP tools are held to
 * (src/core/gate.ts).
 *
 * Every write of the API's published description is judged here (test/unit/platform/write-gate.test.ts
 * reads the contract); a write this loopsctl does not know needs a yes.
 */
import { CAMPAIGN } from './campaigns/resource.js';
import { type ConfigurationOperation, configurationWrite, isDryRun } from './configuration-writes.js';
import { CONTACT } from './contacts/resource.js';
import { EMAIL_MESSAGE } from './email-messages/resource.js';
import { EVENT_SEND } from './events/resource.js';
import type { LiveTarget, UsedTarget } from './liveness.js';
import { idsAt, type Operation } from './operation-row.js';
import { TRANSACTIONAL_SEND } from './transactional/resource.js';
import { UPLOAD } from './uploads/resource.js';

/** The configuration writes that need a person's yes whatever their target, and what each does in words. */
const ALWAYS: Partial<Record<ConfigurationOperation, string>> = {
  publishTransactionalEmail: 'publishes a transactional email (the next sends use it)',
  deleteWorkflow: 'deletes a workflow',
};

/**
 * The edits of a workflow's graph and audience, which move the contacts of a workflow that is not
 * a draft (a draft holds none: its edits reach nobody).
 */
export const WORKFLOW_EDITS: ReadonlySet<ConfigurationOperation> = new Set([
  'createWorkflowNode',
  'addWorkflowBranch',
  'updateWorkflowNode',
  'rerouteNodeConnection',
  'deleteWorkflowNode',
  'deleteWorkflowNodeRecursively',
  'changeWorkflowMailingList',
]);

/**
 * The writes of what emails use, which reach every email that uses it, live ones included
 * (used-liveness.ts): "When the `lmx` body changes, the update cascades to every email using this
 * component"; "When `styles` change, the update cascades to every email using this theme" (the
 * API's reference). Its name reaches no one; any other field is judged as content.
 */
const USED_EDITS: Partial<Record<ConfigurationOperation, UsedTarget['kind']>> = { updateComponent: 'component', updateTheme: 'theme' };

/** A path of a row's operation, as the tables below test one. */
const pathOf = (operation: Operation) => ({ test: (path: string) => idsAt(operation, path) !== undefined });

/** The writes that are neither configuration nor reach anyone: an uploaded image, which nothing uses yet. */
const QUIET_WRITES = [pathOf(UPLOAD.operations.createUpload), pathOf(UPLOAD.operations.completeUpload)];

/** The writes of people and the sends, in words, by path (the API's other writes: configuration-writes.ts, OTHER_WRITES). */
const PEOPLE_WRITES: [{ test(path: string): boolean }, string][] = [
  [pathOf(TRANSACTIONAL_SEND.operations.sendTransactionalEmail), 'sends a transactional email'],
  [pathOf(EVENT_SEND.operations.sendEvent), 'sends an event (it can start workflows that email the contact)'],
  [pathOf(EMAIL_MESSAGE.operations.previewEmailMessage), 'sends a preview email'],
  [pathOf(CONTACT.operations.removeContactSuppression), "lifts a contact's suppression"],
  [pathOf(CONTACT.operations.deleteContact), 'deletes a contact'],
  [pathOf(CONTACT.operations.createContact), 'writes a contact (it can start workflows that email the contact)'],
  [pathOf(CONTACT.operations.updateContact), 'writes a contact (it can start workflows that email the contact)'],
];

/**
 * A campaign's fields that say to whom it sends: changed on a campaign that is scheduled, they
 * change who gets it ("The audience (mailing list, segment, or filter) ... can be set on create or
 * later via update", the API's reference): the ids of a list and a segment its update carries
 * (its row's), and its own filter. Its name and group reach no one.
 */
const CAMPAIGN_AUDIENCE = [
  ...Object.entries(CAMPAIGN.operations.updateCampaign.bodyIds).flatMap(([field, names]) => (names === 'mailing list' || names === 'segment' ? [field] : [])),
  'audienceFilter',
];

/** What a write does: nothing to ask about; a yes needed, and why; or a yes needed only if its target is live now (liveness.ts). */
export type WriteJudgement = { needs: 'nothing' } | { needs: 'yes'; does: string } | { needs: 'live'; target: LiveTarget; does: string };

export function judgeWrite(method: string, pathWithQuery: string, body?: unknown): WriteJudgement {
  if (method === 'GET') return { needs: 'nothing' };
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const path = pathWithQuery.split('?')[0]!;
  // "Make a dry run request using `dryRun: true`" (the API's reference, of the writes that take it):
  // it changes nothing. Any other write is made whatever its body says, and judged as made.
  if (isDryRun(method, path, body)) return { needs: 'nothing' };
  const write = configurationWrite(method, path, body);
  if (write === undefined) {
    if (QUIET_WRITES.some((pattern) => pattern.test(path))) return { needs: 'nothing' };
    const people = PEOPLE_WRITES.find(([pattern]) => pattern.test(path));
    return { needs: 'yes', does: people?.[1] ?? `${method} ${path}, a write this loopsctl does not know` };
  }
  const always = ALWAYS[write.operation];
  if (always !== undefined) return { needs: 'yes', does: always };
  if (fields.queuedContactPolicy === 'discard') return { needs: 'yes', does: 'discards the contacts queued in a workflow' };
  if ((write.operation === 'updateCampaign' || write.operation === 'createCampaign') && fields.scheduling !== undefined && fields.scheduling !== null)
    return { needs: 'yes', does: 'schedules a campaign (it sends to its audience)' };
  if (WORKFLOW_EDITS.has(write.operation)) return { needs: 'live', target: { kind: 'workflow', id: write.ids.workflowId! }, does: 'edits a workflow' };
  if (write.operation === 'updateEmailMessage')
    return { needs: 'live', target: { kind: 'email message', id: write.ids.emailMessageId! }, does: 'edits an email message' };
  const used = USED_EDITS[write.operation];
  if (used !== undefined && Object.keys(fields).some((field) => field !== 'name'))
    return { needs: 'live', target: { kind: used, id: Object.values(write.ids)[0]! }, does: `edits a ${used}` };
  if (write.operation === 'updateCampaign' && CAMPAIGN_AUDIENCE.some((field) => fields[field] !== undefined))
    return { needs: 'live', target: { kind: 'campaign', id: write.ids.campaignId! }, does: 'changes the audience of a campaign' };
  return { needs: 'nothing' };
}
