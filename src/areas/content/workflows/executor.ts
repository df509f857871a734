/**
 * A workflow's edit script sent to the account one call at a time, each with the revision the
 * previous one returned, and what the calls reached: the revisions a stopped push names in the
 * state, so that the next one knows its own writes from anyone else's.
 */

import type { ApiClient } from '../../../api/client.js';
import { freshReads } from '../../../api/read-cache.js';
import { RejectedError } from '../../../base/errors.js';
import type { Uses } from '../../../core/capabilities.js';
import { confirm } from '../../../core/prompt.js';
import { toApiFields } from '../../../platform/workflows/file-nodes.js';
import type { ExpectedRevision } from '../../../platform/workflows/schemas.js';
import { countOf } from '../../../render/numbers.js';
import { getEmailMessage, updateEmailMessage } from '../../email-messages/client.js';
import * as api from '../../workflows/client.js';
import { type Files, parseJson } from '../shared/files.js';
import { messageFields, messageUpdate } from '../shared/message-fields.js';
import type { WorkflowStep } from './steps.js';

export interface ExecutorOptions {
  live?: boolean;
  yes?: boolean;
}

/** One step of a script sent, each with the revision the last one left. */
export class Executor {
  constructor(
    private readonly client: ApiClient,
    private readonly workflowId: string,
    private revision: ExpectedRevision,
    /** By key, the node's id: filled in as nodes are made. */
    private readonly keys: Map<string, string>,
    private readonly names: { lists: Map<string, string>; segments: Map<string, string> },
    private readonly files: Files,
    private readonly emailRevisions: Record<string, string | null>,
    private readonly options: ExecutorOptions,
    /** Asks before queued contacts are discarded; none for a run that never discards them (a plan's apply). */
    private readonly context: Uses<'prompts'> | undefined,
  ) {}

  /** By email key, the content revision each update this run sent left. */
  private readonly emailsWritten: Record<string, string | null> = {};

  /** Whether every answer so far gave the workflow's revision it left: an email's write may move it, and its answer does not say. */
  private revisionAnswered = true;

  /** The workflow's revision the calls sent so far left, as their answers gave it; undefined when one did not. */
  answeredRevision(): ExpectedRevision | undefined {
    return this.revisionAnswered ? this.revision : undefined;
  }

  /** The revisions the calls sent so far reached: the workflow's, and each email's written. */
  reached(): { workflowRevisionId: string | null; emails: Record<string, string | null> } {
    return { workflowRevisionId: this.revision, emails: { ...this.emailsWritten } };
  }

  private id(key: string): string {
    const id = this.keys.get(key);
    if (id === undefined) throw new RejectedError(`the node ${key} is not in the account's workflow`, { hint: 'pull again, then push' });
    return id;
  }

  async apply(step: WorkflowStep): Promise<void> {
    const { client, workflowId } = this;
    switch (step.op) {
      case 'updateWorkflowProperties': {
        const { op: _op, ...fields } = step;
        const answered = (await api.updateWorkflow(client, workflowId, this.revision, fields)).workflowRevisionId;
        if (answered === undefined) this.revisionAnswered = false;
        this.revision = answered ?? null;
        return;
      }
      case 'changeWorkflowMailingList': {
        const listId = step.mailingList === null ? null : this.names.lists.get(step.mailingList)!;
        const answer = await this.withQueued(`change the mailing list to ${step.mailingList ?? 'none'}`, (policy) =>
          api.changeMailingList(client, workflowId, this.revision, listId, policy),
        );
        this.revision = answer;
        return;
      }
      case 'deleteWorkflowNode': {
        const nodeId = this.id(step.key);
        this.revision = await this.withQueued(`delete ${step.removes.join(', ')}`, (policy) =>
          api.deleteNode(client, workflowId, nodeId, this.revision, { ...policy, recursive: step.recursive }),
        );
        for (const key of step.removes) this.keys.delete(key);
        return;
      }
      case 'createWorkflowNode': {
        const answer = await api.createNode(client, workflowId, this.revision, step.nodeTypeName, {
          insertMode: 'between',
          fromNodeId: this.id(step.from),
          toNodeId: this.id(step.to),
        });
        this.keys.set(step.key, answer.node.id);
        const children = answer.node.createdChildNodes ?? [];
        // The paths a branch brings: the control is the file's control, the others go in order.
        const controls = children.filter((child) => child.isControl === true);
        const others = children.filter((child) => child.isControl !== true);
        for (const [index, key] of step.children.entries()) {
          const child = step.nodeTypeName === 'ExperimentBranchNode' && index === step.children.length - 1 ? controls[0] : others[index];
          if (child !== undefined) this.keys.set(key, child.id);
        }
        this.revision = answer.node.workflowRevisionId;
        return;
      }
      case 'addWorkflowBranch': {
        const answer = await api.addBranch(client, workflowId, this.id(step.branch), this.revision);
        this.keys.set(step.key, answer.node.id);
        this.revision = answer.node.workflowRevisionId;
        return;
      }
      case 'updateWorkflowNode': {
        const payload = toApiFields(step.payload, step.key, { segmentId: (name) => this.names.segments.get(name) });
        this.revision = (await api.updateNode(client, workflowId, this.id(step.key), this.revision, payload)).workflowRevisionId;
        return;
      }
      case 'rerouteNodeConnection':
        this.revision = (await api.rerouteNode(client, workflowId, this.id(step.key), this.revision, this.id(step.to))).workflowRevisionId;
        return;
      case 'updateEmailMessage':
        await this.updateEmail(step.key, step.email);
        return;
    }
  }

  /** An email's fields and LMX sent to its message, guarded by the content revision it was pulled at. */
  private async updateEmail(key: string, email: string): Promise<void> {
    const node = await api.getWorkflowNode(this.client, this.workflowId, this.id(key));
    const messageId = node.emailMessageId;
    if (typeof messageId !== 'string') throw new RejectedError(`the send-email node ${key} has no email message in the account`);
    // Without the revision it was pulled at, the one read now guards the write: read from the API, never kept.
    const pulled = Object.hasOwn(this.emailRevisions, key);
    const current = await getEmailMessage(pulled ? this.client : freshReads(this.client), messageId);
    const fieldsFile = email;
    const lmxFile = email.replace(/email\.json$/, 'email.lmx');
    const fields = parseJson(fieldsFile, this.files.get(fieldsFile) ?? '{}', messageFields);
    const body = messageUpdate(fields, this.files.get(lmxFile), current);
    if (Object.keys(body).length === 0) return;
    const expected = pulled ? this.emailRevisions[key]! : current.contentRevisionId;
    const updated = await updateEmailMessage(this.client, messageId, expected === null ? body : { expectedRevisionId: expected, ...body });
    this.emailsWritten[key] = updated.contentRevisionId;
    this.revisionAnswered = false;
  }

  /**
   * A change that can remove queued contacts: sent as is (the API holds it back when contacts are
   * queued); on a live workflow, with --live, what the API says would happen is asked first.
   */
  private async withQueued(
    what: string,
    send: (policy: {
      dryRun?: boolean;
      queuedContactPolicy?: 'fail' | 'discard';
    }) => Promise<{ status: string; queuedContactCount: number; workflowRevisionId?: string }>,
  ): Promise<ExpectedRevision> {
    const first = await send({ queuedContactPolicy: 'fail' });
    if (first.status !== 'queuedContactsFound') return first.workflowRevisionId ?? this.revision;
    if (!this.options.live)
      throw new RejectedError(`${what}: ${countOf(first.queuedContactCount, 'contact')} queued would be discarded; nothing of it was sent`, {
        hint: 'push with --live to be asked (or --yes) to discard them',
      });
    if (this.context === undefined)
      throw new RejectedError(`${what}: ${countOf(first.queuedContactCount, 'contact')} queued would be discarded; nothing of it was sent`);
    await confirm(this.context.runtime, `${what} discards ${countOf(first.queuedContactCount, 'queued contact')}: go ahead?`, this.options.yes);
    const answer = await send({ queuedContactPolicy: 'discard' });
    return answer.workflowRevisionId ?? this.revision;
  }
}
