/** The sandbox's workflows: the routes of a workflow and its nodes, and the changes to a workflow itself (create, update, delete, its mailing list). */

import * as s from '../../platform/workflows/schemas.js';
import { discardJourneys } from '../journey-records.js';
import {
  type ApiAnswer,
  answer,
  appUrl,
  badRequest,
  conflict,
  find,
  listAnswer,
  objectBody,
  type RouteContext,
  type SandboxModule,
  stringField,
} from '../module.js';
import { nameField } from './kept.js';
import { booleanField, changeBody, checkReferences, commit, contactRecords, EDITS, policyField, queuedAt, simplified } from './workflow-edits.js';
import { addBranch, createNode, deleteNode, nodeMetrics, rerouteNode, updateNode, workflowNode } from './workflow-nodes.js';
import { type StoredWorkflow, workflows } from './workflow-records.js';

function summary(workflow: StoredWorkflow): s.WorkflowSummary {
  return { id: workflow.id, url: appUrl('workflows', workflow.id), name: workflow.name, createdAt: workflow.createdAt, updatedAt: workflow.updatedAt };
}

function changeMailingList(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const fields = changeBody(context, workflow, ['mailingListId', 'dryRun', 'queuedContactPolicy'], ['mailingListId']);
  const mailingListId = fields.mailingListId === null ? null : stringField(fields, 'mailingListId');
  checkReferences(context, fields);
  const dryRun = booleanField(fields, 'dryRun') === true;
  const policy = policyField(fields);
  // The queued contacts the new list excludes: "clearing does not discard queued contacts"
  // (ChangeWorkflowMailingListRequest), nor does keeping the same list.
  const excluded = mailingListId === null || mailingListId === workflow.mailingListId ? [] : notOnList(context, queuedAt(context, workflow), mailingListId);
  const queuedContactCount = excluded.length;
  if (dryRun) return answer(s.mailingListAnswer, { status: 'dryRun', mailingListId, queuedContactCount });
  if (queuedContactCount > 0 && policy === 'fail') return answer(s.mailingListAnswer, { status: 'queuedContactsFound', mailingListId, queuedContactCount });
  workflow.mailingListId = mailingListId;
  discardJourneys(
    context.state,
    excluded,
    context.now().toISOString(),
    `discarded: the workflow's mailing list changed to ${mailingListId}, which the contact is not on`,
  );
  commit(context, workflow);
  return answer(s.mailingListAnswer, {
    status: 'updated',
    mailingListId,
    workflowRevisionId: workflow.workflowRevisionId,
    queuedContactCount,
    workflow: simplified(workflow),
  });
}

/** The journeys whose contact is not on a mailing list (a contact deleted since is on none). */
function notOnList(context: RouteContext, queued: ReturnType<typeof queuedAt>, mailingListId: string): ReturnType<typeof queuedAt> {
  if (queued.length === 0) return queued;
  const onList = new Set(
    contactRecords
      .get()
      .contacts.of(context.state)
      .flatMap((contact) => (contact.mailingLists[mailingListId] === true ? [contact.id] : [])),
  );
  return queued.filter((journey) => !onList.has(journey.contactId));
}

function createWorkflow(context: RouteContext) {
  const fields = objectBody(context.body, ['name', 'description', 'mailingListId'], ['name']);
  const name = nameField(fields);
  const description = fields.description === undefined ? '' : stringField(fields, 'description');
  const mailingListId = fields.mailingListId === undefined || fields.mailingListId === null ? null : stringField(fields, 'mailingListId');
  checkReferences(context, fields);
  const id = context.newId();
  const trigger = context.newId();
  const exit = context.newId();
  const now = context.now().toISOString();
  const created: StoredWorkflow = {
    id,
    workflowRevisionId: context.newId(),
    status: 'Draft',
    name,
    description,
    emoji: '',
    mailingListId,
    rootNodeId: trigger,
    createdAt: now,
    updatedAt: now,
    nodes: [
      { id: trigger, workflowId: id, typeName: 'BlankTrigger', nextNodeIds: [exit] },
      { id: exit, workflowId: id, typeName: 'ExitAction', nextNodeIds: [] },
    ],
  };
  workflows.of(context.state).push(created);
  context.changed();
  return answer(s.workflow, simplified(created));
}

function updateWorkflow(context: RouteContext) {
  const workflow = find(workflows.of(context.state), context.params.workflowId!, 'workflow');
  const fields = changeBody(context, workflow, ['name', 'description'], []);
  if (fields.name === undefined && fields.description === undefined) throw badRequest('give at least one of name and description');
  if (fields.name !== undefined) workflow.name = nameField(fields);
  if (fields.description !== undefined) workflow.description = stringField(fields, 'description');
  commit(context, workflow);
  return answer(s.workflow, simplified(workflow));
}

/**
 * Deleting a workflow that is sending, or has contacts queued, needs a second request with
 * confirmDelete: the 409 says what would stop, in the API's words.
 */
function deleteWorkflow(context: RouteContext): ApiAnswer {
  const all = workflows.of(context.state);
  const workflow = find(all, context.params.workflowId!, 'workflow');
  const fields = objectBody(context.body, ['expectedRevisionId', 'confirmDelete'], ['expectedRevisionId']);
  const expected = fields.expectedRevisionId;
  if (typeof expected !== 'string' && expected !== null) throw badRequest('expectedRevisionId must be a string, or null for a workflow without a revision');
  if (expected !== workflow.workflowRevisionId)
    throw conflict(`workflowRevisionId mismatch. Latest workflowRevisionId is ${workflow.workflowRevisionId}. Refetch and retry.`);
  const confirmed = booleanField(fields, 'confirmDelete') === true;
  const sending = workflow.status === 'Sending';
  const queued = queuedAt(context, workflow);
  if (!confirmed && (sending || queued.length > 0)) throw conflict(confirmationMessage(sending, queued.length));
  discardJourneys(context.state, queued, context.now().toISOString(), 'cancelled: the workflow was deleted');
  all.splice(all.indexOf(workflow), 1);
  context.changed();
  return { status: 204, body: undefined };
}

/** The API's 409 for a delete that needs confirming, as its description words each case. */
function confirmationMessage(sending: boolean, queued: number): string {
  const contacts = `${queued} queued contact${queued === 1 ? '' : 's'}`;
  const confirm = 'Confirm deletion by sending a second request with confirmDelete: true.';
  if (sending && queued > 0)
    return `This workflow is currently sending and has ${contacts}. Deleting it will stop sending it and cancel those queued contacts. ${confirm}`;
  if (sending) return `This workflow is currently sending. Deleting it will stop sending it. ${confirm}`;
  return `This workflow has ${contacts}. Deleting it will cancel those queued contacts. ${confirm}`;
}

export const sandbox: SandboxModule = {
  slices: [workflows],
  routes: [
    {
      operation: 'listWorkflows',
      needs: 'workflows',
      run: (context) => listAnswer(s.workflowSummary, workflows.of(context.state).map(summary), context),
    },
    { operation: 'createWorkflow', needs: 'workflows', uses: EDITS, run: createWorkflow },
    {
      operation: 'getWorkflow',
      needs: 'workflows',
      run: ({ params, state }) => answer(s.workflow, simplified(find(workflows.of(state), params.workflowId!, 'workflow'))),
    },
    { operation: 'updateWorkflowProperties', needs: 'workflows', uses: EDITS, run: updateWorkflow },
    { operation: 'deleteWorkflow', needs: 'workflows', uses: EDITS, run: deleteWorkflow },
    { operation: 'changeWorkflowMailingList', needs: 'workflows', uses: EDITS, run: changeMailingList },
    { operation: 'createWorkflowNode', needs: 'workflows', uses: EDITS, run: createNode },
    {
      operation: 'getWorkflowNode',
      needs: 'workflows',
      run: ({ params, state }) => answer(s.workflowNode, workflowNode(workflows.of(state), params.workflowId!, params.nodeId!)),
    },
    { operation: 'updateWorkflowNode', needs: 'workflows', uses: EDITS, run: updateNode },
    { operation: 'deleteWorkflowNode', needs: 'workflows', uses: EDITS, run: deleteNode(false) },
    { operation: 'deleteWorkflowNodeRecursively', needs: 'workflows', uses: EDITS, run: deleteNode(true) },
    { operation: 'rerouteNodeConnection', needs: 'workflows', uses: EDITS, run: rerouteNode },
    { operation: 'addWorkflowBranch', needs: 'workflows', uses: EDITS, run: addBranch },
    { operation: 'getWorkflowNodeMetrics', needs: 'metrics', run: nodeMetrics },
  ],
};
