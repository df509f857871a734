/**
 * The sandbox as an app's local Loops: a client that knows the API only from the published 1.22.1
 * description (test/support/described-client.ts) works through every operation the description
 * has, over HTTP, under the base URL an app would configure (`<sandbox>/api`, as the description's
 * server is `https://app.loops.so/api`), following nextPage links as given, and finds every answer
 * as the description says it would be. The description is the contract it derives (test/contract).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { DescribedClient } from '../../support/described-client.js';
import { startTestSandbox } from '../../support/main.js';
import { publishedDescription } from '../../support/openapi.js';

const description = publishedDescription();
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('a client built from the 1.22.1 description alone', () => {
  let sandbox: SandboxServer;
  let loops: DescribedClient;
  beforeAll(async () => {
    // This client does not pace itself, as loopsctl does: the rate limit would refuse its bursts.
    sandbox = await startTestSandbox();
    loops = new DescribedClient(description, `${sandbox.url}/api`, 'sandbox-key');
  });
  afterAll(() => sandbox.close());

  /** Calls an operation and expects a status; returns the body. */
  async function expectStatus(status: number, operationId: string, input: Parameters<DescribedClient['call']>[1] = {}): Promise<any> {
    const answer = await loops.call(operationId, input);
    expect(answer.status, `${operationId} ${JSON.stringify(input)} → ${JSON.stringify(answer.body)}`).toBe(status);
    return answer.body;
  }

  /** Every item of a list, page by page, following nextPage as the API gives it. */
  async function everyItem(operationId: string): Promise<any[]> {
    let page = await expectStatus(200, operationId, { query: { perPage: '10' } });
    const items = [...page.data];
    while (page.pagination.nextPage !== null) {
      const next = await loops.follow(operationId, page.pagination.nextPage);
      expect(next.status).toBe(200);
      page = next.body;
      items.push(...page.data);
    }
    expect(items).toHaveLength(page.pagination.totalResults);
    return items;
  }

  it('the key, themes, segments and groups', async () => {
    expect(await expectStatus(200, 'testApiKey')).toEqual({ success: true, teamName: 'Acme Sandbox' });
    const themes = await everyItem('listThemes');
    await expectStatus(200, 'getTheme', { path: { themeId: themes[0].id } });
    const theme = await expectStatus(201, 'createTheme', { body: { name: 'Dark mode', styles: { backgroundColor: '#111827', bodyColor: '#1f2937' } } });
    await expectStatus(200, 'updateTheme', { path: { themeId: theme.id }, body: { name: 'Dark mode, softer' } });

    const segments = await everyItem('listAudienceSegments');
    await expectStatus(200, 'getAudienceSegment', { path: { audienceSegmentId: segments[0].id } });
    await expectStatus(200, 'createAudienceSegment', {
      body: { name: 'Pro plan', filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] } },
    });

    for (const [kind, param] of [
      ['Transactional', 'transactionalGroupId'],
      ['Campaign', 'campaignGroupId'],
    ] as const) {
      const groups = await everyItem(`list${kind}Groups`);
      await expectStatus(200, `get${kind}Group`, { path: { [param]: groups[0].id } });
      const created = await expectStatus(200, `create${kind}Group`, { body: { name: `${kind} news`, description: 'From the app' } });
      await expectStatus(200, `update${kind}Group`, { path: { [param]: created.id }, body: { description: 'Renamed by the app' } });
    }
    await expectStatus(404, 'getTransactionalGroup', { path: { transactionalGroupId: 'cnosuchgroup' } });
  });

  it('transactional emails: create, edit the draft, preview, publish, send, metrics', async () => {
    const emails = await everyItem('listTransactionalEmails');
    expect(emails[0].url).toBe(`https://app.loops.so/transactional/${emails[0].id}`);
    await expectStatus(200, 'listPublishedTransactionalEmails');
    const created = await expectStatus(201, 'createTransactionalEmail', { body: { name: 'Order shipped' } });
    const draft = await expectStatus(200, 'getEmailMessage', { path: { emailMessageId: created.draftEmailMessageId } });
    expect(draft.contentRevisionId).toBe(created.draftEmailMessageContentRevisionId);
    await expectStatus(200, 'updateEmailMessage', {
      path: { emailMessageId: created.draftEmailMessageId },
      body: {
        expectedRevisionId: draft.contentRevisionId,
        subject: 'Your order shipped',
        lmx: '<Paragraph>Order {data.orderNumber} is on its way.</Paragraph>\n',
      },
    });
    await expectStatus(409, 'updateEmailMessage', {
      path: { emailMessageId: created.draftEmailMessageId },
      body: { expectedRevisionId: draft.contentRevisionId, subject: 'Stale' },
    });
    await expectStatus(200, 'previewEmailMessage', {
      path: { emailMessageId: created.draftEmailMessageId },
      body: { emails: ['dev@example.com'], dataVariables: { orderNumber: '1001' } },
    });
    await expectStatus(200, 'getEmailMessageGuardian', { path: { emailMessageId: created.draftEmailMessageId } });
    const published = await expectStatus(200, 'publishTransactionalEmail', { path: { transactionalId: created.id } });
    expect(published.dataVariables).toEqual(['orderNumber']);
    await expectStatus(200, 'ensureTransactionalDraft', { path: { transactionalId: created.id } });
    await expectStatus(200, 'updateTransactionalEmail', { path: { transactionalId: created.id }, body: { name: 'Order shipped (v2)' } });
    await expectStatus(200, 'getTransactionalEmail', { path: { transactionalId: created.id } });

    const send = { transactionalId: created.id, email: 'dev@example.com', dataVariables: { orderNumber: '1001' } };
    await expectStatus(200, 'sendTransactionalEmail', { body: send, headers: { 'Idempotency-Key': 'order-1001-shipped' } });
    await expectStatus(409, 'sendTransactionalEmail', { body: send, headers: { 'Idempotency-Key': 'order-1001-shipped' } });
    const missing = await expectStatus(404, 'sendTransactionalEmail', { body: { ...send, transactionalId: 'cnosuchemail' } });
    expect(missing.error).toEqual({ path: 'transactionalId', message: missing.message });
    expect(await expectStatus(200, 'getTransactionalEmailMetrics', { path: { transactionalId: created.id } })).toMatchObject({ sends: 1 });
  });

  it('campaigns and their email messages, and components', async () => {
    const campaigns = await everyItem('listCampaigns');
    const sent = campaigns.find((campaign) => campaign.status === 'Sent');
    await expectStatus(200, 'getCampaignMetrics', { path: { campaignId: sent.id } });
    await expectStatus(200, 'getCampaign', { path: { campaignId: sent.id } });
    // Every campaign's email message can be read.
    for (const campaign of campaigns) await expectStatus(200, 'getEmailMessage', { path: { emailMessageId: campaign.emailMessageId } });
    const lists = await expectStatus(200, 'listMailingLists');
    const created = await expectStatus(201, 'createCampaign', { body: { name: 'Spring launch', mailingListId: lists[2].id } });
    const message = await expectStatus(200, 'getEmailMessage', { path: { emailMessageId: created.emailMessageId } });
    expect(message.campaignId).toBe(created.id);
    await expectStatus(200, 'updateEmailMessage', {
      path: { emailMessageId: created.emailMessageId },
      body: { expectedRevisionId: created.emailMessageContentRevisionId, subject: 'Spring is here' },
    });
    await expectStatus(200, 'updateCampaign', { path: { campaignId: created.id }, body: { name: 'Spring launch 2025' } });
    await expectStatus(400, 'getCampaignMetrics', { path: { campaignId: created.id } });
    await expectStatus(404, 'createCampaign', { body: { name: 'Nowhere', mailingListId: 'cnosuchlist' } });

    const components = await everyItem('listComponents');
    await expectStatus(200, 'getComponent', { path: { componentId: components[0].id } });
    const component = await expectStatus(201, 'createComponent', { body: { name: 'Header', lmx: '<Paragraph>Welcome to Acme</Paragraph>' } });
    await expectStatus(200, 'updateComponent', { path: { componentId: component.id }, body: { name: 'Header (dark)' } });
  });

  it('contacts, their properties, events and event patterns, sending IPs and uploads', async () => {
    await expectStatus(200, 'createContact', { body: { email: 'dev@example.com', firstName: 'Dev' } });
    await expectStatus(409, 'createContact', { body: { email: 'dev@example.com' } });
    await expectStatus(200, 'updateContact', { body: { email: 'dev@example.com', lastName: 'Eloper' } });
    expect(await expectStatus(200, 'findContact', { query: { email: 'dev@example.com' } })).toMatchObject([{ firstName: 'Dev', lastName: 'Eloper' }]);
    await expectStatus(200, 'createContactProperty', { body: { name: 'favoriteColor', type: 'string' } });
    await expectStatus(200, 'listContactProperties', { query: { list: 'custom' } });
    const lists = await expectStatus(200, 'listMailingLists');
    await expectStatus(200, 'sendEvent', {
      body: { email: 'dev@example.com', eventName: 'trial_started', mailingLists: { [lists[0].id]: true } },
      headers: { 'Idempotency-Key': 'dev-trial' },
    });
    await expectStatus(400, 'sendEvent', { body: { email: 'dev@example.com', eventName: 'trial_started', mailingLists: { cnosuchlist: true } } });
    await expectStatus(200, 'getContactSuppression', { query: { email: 'linus@example.com' } });
    await expectStatus(200, 'removeContactSuppression', { query: { email: 'linus@example.com' } });
    await expectStatus(200, 'deleteContact', { body: { email: 'dev@example.com' } });
    await expectStatus(404, 'deleteContact', { body: { email: 'dev@example.com' } });

    const patterns = await everyItem('listEventPatterns');
    await expectStatus(200, 'getEventPattern', { path: { eventPatternId: patterns[0].id } });
    await expectStatus(200, 'getEventPatternByName', { path: { eventName: patterns[0].eventName } });
    await expectStatus(200, 'listDedicatedSendingIps');

    const upload = await expectStatus(200, 'createUpload', { body: { contentType: 'image/png', contentLength: PNG.length } });
    // The presigned URL is storage's, not the API's: a plain PUT, as the description says.
    const stored = await fetch(upload.presignedUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: PNG });
    expect(stored.status).toBe(200);
    await expectStatus(200, 'completeUpload', { path: { emailAssetId: upload.emailAssetId } });
  });

  it('workflows: create, edit node by node, metrics, and delete with the confirmation', async () => {
    const workflows = await everyItem('listWorkflows');
    const lists = await expectStatus(200, 'listMailingLists');
    let workflow = await expectStatus(200, 'createWorkflow', { body: { name: 'Onboarding', mailingListId: lists[0].id } });
    expect(workflow.url).toBe(`https://app.loops.so/workflows/${workflow.id}`);
    workflow = await expectStatus(200, 'updateWorkflowProperties', {
      path: { workflowId: workflow.id },
      body: { expectedRevisionId: workflow.workflowRevisionId, name: 'Onboarding v2' },
    });
    await expectStatus(400, 'changeWorkflowMailingList', {
      path: { workflowId: workflow.id },
      body: { expectedRevisionId: workflow.workflowRevisionId, mailingListId: 'cnosuchlist' },
    });
    const listChanged = await expectStatus(200, 'changeWorkflowMailingList', {
      path: { workflowId: workflow.id },
      body: { expectedRevisionId: workflow.workflowRevisionId, mailingListId: lists[1].id },
    });
    let revision: string = listChanged.workflowRevisionId;
    const trigger = workflow.rootNodeId;
    const timer = await expectStatus(200, 'createWorkflowNode', {
      path: { workflowId: workflow.id },
      body: { expectedRevisionId: revision, insertMode: 'after', nodeTypeName: 'TimerAction', fromNodeId: trigger },
    });
    revision = timer.node.workflowRevisionId;
    await expectStatus(200, 'getWorkflowNode', { path: { workflowId: workflow.id, nodeId: timer.node.id } });
    const updated = await expectStatus(200, 'updateWorkflowNode', {
      path: { workflowId: workflow.id, nodeId: timer.node.id },
      body: { expectedRevisionId: revision, payload: { amount: 2, unit: 'd' } },
    });
    revision = updated.workflowRevisionId;
    const removed = await expectStatus(200, 'deleteWorkflowNode', {
      path: { workflowId: workflow.id, nodeId: timer.node.id },
      body: { expectedRevisionId: revision },
    });
    expect(removed.status).toBe('deleted');

    // The seeded draft experiment: a new branch, a reroute to the offer, and a subtree removed.
    const winBack = await expectStatus(200, 'getWorkflow', { path: { workflowId: workflows.find((candidate) => candidate.name === 'Win-back (draft)').id } });
    const nodeOf = (typeName: string, test: (node: any) => boolean = () => true) =>
      Object.entries<any>(winBack.nodes).find(([, node]) => node.typeName === typeName && test(node))![0];
    const experiment = nodeOf('ExperimentBranchNode');
    const branched = await expectStatus(200, 'addWorkflowBranch', {
      path: { workflowId: winBack.id, nodeId: experiment },
      body: { expectedRevisionId: winBack.workflowRevisionId },
    });
    const rerouted = await expectStatus(200, 'rerouteNodeConnection', {
      path: { workflowId: winBack.id, nodeId: nodeOf('VariantNode', (node) => node.isControl === true) },
      body: { expectedRevisionId: branched.workflow.workflowRevisionId, newTargetNodeId: nodeOf('SendEmailAction') },
    });
    await expectStatus(200, 'deleteWorkflowNodeRecursively', {
      path: { workflowId: winBack.id, nodeId: experiment },
      body: { expectedRevisionId: rerouted.workflowRevisionId },
    });

    // A sending workflow: its emails' metrics, then a delete that needs confirming.
    const welcome = await expectStatus(200, 'getWorkflow', { path: { workflowId: workflows.find((candidate) => candidate.name === 'Welcome series').id } });
    const email = Object.entries<any>(welcome.nodes).find(([, node]) => node.typeName === 'SendEmailAction')![0];
    await expectStatus(200, 'getWorkflowNodeMetrics', { path: { workflowId: welcome.id, nodeId: email } });
    await expectStatus(400, 'getWorkflowNodeMetrics', { path: { workflowId: welcome.id, nodeId: welcome.rootNodeId } });
    await expectStatus(409, 'deleteWorkflow', { path: { workflowId: welcome.id }, body: { expectedRevisionId: welcome.workflowRevisionId } });
    await expectStatus(204, 'deleteWorkflow', {
      path: { workflowId: welcome.id },
      body: { expectedRevisionId: welcome.workflowRevisionId, confirmDelete: true },
    });
    await expectStatus(404, 'getWorkflow', { path: { workflowId: welcome.id } });
  });

  it('called every operation of the description, and every answer was as the description says', () => {
    expect(loops.operationIds().filter((operationId) => !loops.called.has(operationId))).toEqual([]);
    expect(loops.problems).toEqual([]);
  });
});
