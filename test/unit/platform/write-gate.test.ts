import { describe, expect, it } from 'vitest';
import { DRY_RUNS } from '../../../src/platform/configuration-writes.js';
import { judgeWrite } from '../../../src/platform/write-gate.js';
import { publishedDescription } from '../../support/openapi.js';

describe('what a write needs', () => {
  const writes = Object.entries(publishedDescription().paths).flatMap(([path, item]) =>
    ['post', 'put', 'patch', 'delete'].flatMap((method) => {
      const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
      return operation === undefined || operation.operationId!.startsWith('webhook')
        ? []
        : [{ method: method.toUpperCase(), path, operationId: operation.operationId! }];
    }),
  );
  const judged = (operationId: string, body?: unknown) => {
    const { method, path } = writes.find((write) => write.operationId === operationId)!;
    return judgeWrite(
      method,
      path.replace(/\{(\w+)\}/g, (_whole, name: string) => `${name}-1`),
      body,
    );
  };

  it('judges every write of the published description, and a yes for each that sends, publishes, deletes or writes a person', () => {
    expect(writes.length).toBeGreaterThan(30);
    const yes = writes.filter(({ operationId }) => judged(operationId).needs === 'yes').map(({ operationId }) => operationId);
    expect(yes.sort()).toEqual(
      [
        'createContact',
        'deleteContact',
        'deleteWorkflow',
        'previewEmailMessage',
        'publishTransactionalEmail',
        'removeContactSuppression',
        'sendEvent',
        'sendTransactionalEmail',
        'updateContact',
      ].sort(),
    );
  });

  it("needs a yes for a workflow's edit only when the workflow is live, and names the workflow", () => {
    for (const operationId of [
      'createWorkflowNode',
      'addWorkflowBranch',
      'updateWorkflowNode',
      'rerouteNodeConnection',
      'deleteWorkflowNode',
      'deleteWorkflowNodeRecursively',
      'changeWorkflowMailingList',
    ])
      expect(judged(operationId), operationId).toEqual({ needs: 'live', target: { kind: 'workflow', id: 'workflowId-1' }, does: 'edits a workflow' });
    expect(judged('updateWorkflowProperties').needs).toBe('nothing');
  });

  it("needs a yes for an email message's edit when what sends it is live, and for a campaign's audience when it is scheduled", () => {
    expect(judged('updateEmailMessage', { subject: 'Hi' })).toEqual({
      needs: 'live',
      target: { kind: 'email message', id: 'emailMessageId-1' },
      does: 'edits an email message',
    });
    for (const field of ['mailingListId', 'audienceSegmentId', 'audienceFilter'])
      expect(judged('updateCampaign', { [field]: null }), field).toEqual({
        needs: 'live',
        target: { kind: 'campaign', id: 'campaignId-1' },
        does: 'changes the audience of a campaign',
      });
    // Its name and group reach no one, whatever its state.
    expect(judged('updateCampaign', { name: 'x', campaignGroupId: 'g' }).needs).toBe('nothing');
  });

  it('needs a yes for a schedule and for contacts discarded, and none for a dry run, an upload or a read', () => {
    expect(judged('updateCampaign', { scheduling: { method: 'now' } })).toMatchObject({
      needs: 'yes',
      does: 'schedules a campaign (it sends to its audience)',
    });
    expect(judged('createCampaign', { name: 'x', scheduling: { method: 'schedule', timestamp: '2031-01-01T00:00:00Z' } }).needs).toBe('yes');
    expect(judged('updateCampaign', { name: 'x' }).needs).toBe('nothing');
    expect(judged('updateCampaign', { name: 'x', scheduling: null }).needs).toBe('nothing');
    expect(judged('updateWorkflowNode', { queuedContactPolicy: 'discard' })).toMatchObject({
      needs: 'yes',
      does: 'discards the contacts queued in a workflow',
    });
    expect(judged('deleteWorkflowNode', { dryRun: true }).needs).toBe('nothing');
    expect(judged('createUpload').needs).toBe('nothing');
    expect(judged('completeUpload').needs).toBe('nothing');
    expect(judgeWrite('GET', '/v1/contacts/find').needs).toBe('nothing');
    expect(judgeWrite('POST', '/v1/somewhere-new', {})).toEqual({ needs: 'yes', does: 'POST /v1/somewhere-new, a write this loopsctl does not know' });
  });

  it('takes `dryRun: true` for a dry run only of the writes that take one, and a forged one, or `dryRun: false`, for the write it is', () => {
    // The writes whose request body has `dryRun`, as the published description says, and no other.
    const description = publishedDescription() as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
    const takesDryRun = writes
      .filter(({ method, path }) => {
        const schema = description.paths[path]![method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
        const resolved = schema?.$ref === undefined ? schema : description.components.schemas[schema.$ref.split('/').pop()];
        return resolved?.properties?.dryRun !== undefined;
      })
      .map(({ operationId }) => operationId);
    expect([...DRY_RUNS].sort()).toEqual(takesDryRun.sort());
    for (const operationId of DRY_RUNS) expect(judged(operationId, { dryRun: true }).needs, operationId).toBe('nothing');
    for (const operationId of DRY_RUNS) expect(judged(operationId, { dryRun: false }).needs, operationId).toBe('live');
    expect(judged('deleteWorkflowNode', { dryRun: 'true' }).needs).toBe('live');
    for (const operationId of ['publishTransactionalEmail', 'deleteWorkflow', 'sendTransactionalEmail', 'deleteContact'])
      expect(judged(operationId, { dryRun: true }).needs, operationId).toBe('yes');
    expect(judged('updateCampaign', { dryRun: true, scheduling: { method: 'now' } }).needs).toBe('yes');
  });
});
