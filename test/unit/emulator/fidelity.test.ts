/**
 * The sandbox's rules where a client written against the 1.22.1 description would notice them:
 * the shape of each operation's failures, null resets of contact fields, references checked where
 * the API checks them, the email message behind every campaign, and full nextPage URLs.
 */
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../src/emulator/module.js';
import { campaigns } from '../../../src/emulator/routes/campaign-records.js';
import { type Caller, freshSandbox, SEED_IDS } from '../../support/sandbox.js';

const ADA = 'ada@example.com';
const UNKNOWN_LIST = 'cnosuchlist000000000000000';

const revisionOf = (call: Caller, workflowId: string) => call('GET', `/v1/workflows/${workflowId}`).body.workflowRevisionId as string;

describe('failures in the shape each operation documents', () => {
  it('a send of an email that does not exist: 404 with the nested error naming the field', () => {
    const { call } = freshSandbox();
    const answer = call('POST', '/v1/transactional', { body: { transactionalId: 'cnosuchemail', email: ADA } });
    expect([answer.status, answer.body]).toEqual([
      404,
      { success: false, message: 'Transactional email not found.', error: { path: 'transactionalId', message: 'Transactional email not found.' } },
    ]);
  });

  it('a send refused with 400 keeps the plain form, the one option of the 400 it fits alone', () => {
    const { call } = freshSandbox();
    const answer = call('POST', '/v1/transactional', { body: { transactionalId: SEED_IDS.draftOnlyEmail, email: ADA } });
    expect([answer.status, answer.body]).toEqual([400, { success: false, message: 'Transactional email is not published.' }]);
  });

  it('contacts and events carry success: false in every failure, the key’s included', () => {
    const { call } = freshSandbox();
    expect(call('GET', '/v1/contacts/find', { key: null, query: { email: ADA } }).body).toEqual({
      success: false,
      message: expect.stringContaining('Missing API key'),
    });
    expect(call('POST', '/v1/events/send', { key: 'wrong', body: { eventName: 'x', email: ADA } }).body).toEqual({
      success: false,
      message: 'Invalid API key',
    });
    expect(call('POST', '/v1/contacts/delete', { body: { email: 'nobody@example.com' } }).body).toEqual({ success: false, message: 'Contact not found.' });
  });

  it('the key test repeats the message in error, which the SDKs read; other operations answer {message}', () => {
    const { call } = freshSandbox();
    expect(call('GET', '/v1/api-key', { key: 'wrong' }).body).toEqual({ success: false, message: 'Invalid API key', error: 'Invalid API key' });
    expect(call('GET', '/v1/themes/cnosuchtheme').body).toEqual({ message: 'theme cnosuchtheme not found' });
  });
});

describe('null resets a contact field', () => {
  it('names become null, source and user group empty, a custom property null; other fields refuse it', () => {
    const { call } = freshSandbox();
    const reset = call('PUT', '/v1/contacts/update', { body: { email: ADA, firstName: null, lastName: null, userGroup: null, source: null, plan: null } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const [found] = call('GET', '/v1/contacts/find', { query: { email: ADA } }).body;
    expect(found).toMatchObject({ firstName: null, lastName: null, userGroup: '', source: '', plan: null, seats: 12 });
    expect(call('PUT', '/v1/contacts/update', { body: { email: ADA, firstName: 'Ada' } }).status).toBe(200);
    expect(call('GET', '/v1/contacts/find', { query: { email: ADA } }).body[0].firstName).toBe('Ada');
    expect(call('PUT', '/v1/contacts/update', { body: { email: ADA, subscribed: null } }).status).toBe(400);
    expect(call('PUT', '/v1/contacts/update', { body: { email: ADA, firstName: 5 } }).body).toEqual({
      success: false,
      message: 'firstName must be a string, or null to reset it.',
    });
  });
});

describe('references checked where the API checks them', () => {
  it('a workflow cannot be sent to a mailing list that does not exist, and nothing changes', () => {
    const { call } = freshSandbox();
    const revision = revisionOf(call, SEED_IDS.trialWorkflow);
    const refused = call('POST', `/v1/workflows/${SEED_IDS.trialWorkflow}/mailing-list`, {
      body: { expectedRevisionId: revision, mailingListId: UNKNOWN_LIST },
    });
    expect([refused.status, refused.body]).toEqual([400, { message: `Mailing list ${UNKNOWN_LIST} not found.` }]);
    expect(revisionOf(call, SEED_IDS.trialWorkflow)).toBe(revision);
    const events = seedId('mailing-list/Event invitations');
    expect(
      call('POST', `/v1/workflows/${SEED_IDS.trialWorkflow}/mailing-list`, {
        body: { expectedRevisionId: revision, mailingListId: events, queuedContactPolicy: 'discard' },
      }).status,
    ).toBe(200);
    expect(call('POST', '/v1/workflows', { body: { name: 'Listed', mailingListId: UNKNOWN_LIST } }).status).toBe(400);
  });

  it('a filter node cannot name a segment that does not exist', () => {
    const { call } = freshSandbox();
    const node = seedId('workflow/Welcome series/paying');
    const body = { expectedRevisionId: revisionOf(call, SEED_IDS.welcomeWorkflow), payload: { audienceSegmentId: 'cnosuchsegment' } };
    const refused = call('POST', `/v1/workflows/${SEED_IDS.welcomeWorkflow}/nodes/${node}`, { body });
    expect([refused.status, refused.body]).toEqual([400, { message: 'Audience segment cnosuchsegment not found.' }]);
  });

  it('a campaign may go to any of the team’s lists, and not to one it does not have (404)', () => {
    const { call } = freshSandbox();
    expect(call('POST', '/v1/campaigns', { body: { name: 'Invite', mailingListId: seedId('mailing-list/Event invitations') } }).status).toBe(201);
    expect(call('POST', '/v1/campaigns', { body: { name: 'Nowhere', mailingListId: UNKNOWN_LIST } }).status).toBe(404);
  });
});

describe('the email message behind every campaign', () => {
  it('each seeded campaign’s message is readable, names its campaign, and a draft’s previews and takes revisions', () => {
    const { call } = freshSandbox();
    for (const campaign of call('GET', '/v1/campaigns').body.data) {
      const message = call('GET', `/v1/email-messages/${campaign.emailMessageId}`);
      expect(message.status, campaign.name).toBe(200);
      expect(message.body.campaignId).toBe(campaign.id);
    }
    const november = call('GET', `/v1/campaigns/${seedId('campaign/November newsletter')}`).body;
    const before = call('GET', `/v1/email-messages/${november.emailMessageId}`).body;
    const edited = call('POST', `/v1/email-messages/${november.emailMessageId}`, {
      body: { expectedRevisionId: before.contentRevisionId, subject: 'November, shipped' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.contentRevisionId).not.toBe(before.contentRevisionId);
    expect(
      call('POST', `/v1/email-messages/${november.emailMessageId}`, { body: { expectedRevisionId: before.contentRevisionId, subject: 'Stale' } }).status,
    ).toBe(409);
    expect(
      call('POST', `/v1/email-messages/${november.emailMessageId}/preview`, { body: { emails: [ADA], contactProperties: { firstName: 'Ada' } } }).status,
    ).toBe(200);
    expect(call('GET', `/v1/email-messages/${november.emailMessageId}/guardian`).status).toBe(200);
  });

  it('a sent campaign’s message can no longer change', () => {
    const { call } = freshSandbox();
    const october = call('GET', `/v1/campaigns/${seedId('campaign/October newsletter')}`).body;
    const message = call('GET', `/v1/email-messages/${october.emailMessageId}`).body;
    const refused = call('POST', `/v1/email-messages/${october.emailMessageId}`, {
      body: { expectedRevisionId: message.contentRevisionId, subject: 'Too late' },
    });
    expect([refused.status, refused.body.message]).toEqual([409, 'Campaign has been sent: its email message can no longer be edited']);
  });

  it('a scheduled campaign takes a new audience, not yet sent, and refuses an edit of its message, not a draft', () => {
    const { api, call } = freshSandbox();
    const id = seedId('campaign/November newsletter');
    // Scheduled in the app: the API has no write that moves a campaign out of Draft ("always `Draft` for new campaigns").
    const stored = campaigns.of(api.state).find((each) => each.id === id)!;
    Object.assign(stored, { status: 'Scheduled', scheduling: { method: 'schedule', timestamp: '2030-01-06T09:00:00.000Z' } });
    const moved = call('POST', `/v1/campaigns/${id}`, { body: { mailingListId: null } });
    expect([moved.status, moved.body.status, moved.body.mailingListId]).toEqual([200, 'Scheduled', null]);
    const message = call('GET', `/v1/email-messages/${stored.emailMessageId}`).body;
    const refused = call('POST', `/v1/email-messages/${stored.emailMessageId}`, { body: { expectedRevisionId: message.contentRevisionId, subject: 'Later' } });
    expect([refused.status, refused.body.message]).toEqual([
      409,
      'Campaign is not in draft status (Scheduled): its email message cannot be edited until it is a draft again',
    ]);
  });

  it('a new campaign gets an empty message whose revision is the one create answers with', () => {
    const { call } = freshSandbox();
    const created = call('POST', '/v1/campaigns', { body: { name: 'Spring launch' } }).body;
    const message = call('GET', `/v1/email-messages/${created.emailMessageId}`).body;
    expect(message).toMatchObject({
      id: created.emailMessageId,
      campaignId: created.id,
      subject: '',
      lmx: '',
      contentRevisionId: created.emailMessageContentRevisionId,
    });
    const first = call('POST', `/v1/email-messages/${created.emailMessageId}`, {
      body: { expectedRevisionId: created.emailMessageContentRevisionId, lmx: '<Paragraph>Hello</Paragraph>\n' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
  });
});

describe('the email message behind every workflow email', () => {
  it('a new send-email node names a message that can be read and edited', () => {
    const { call } = freshSandbox();
    const workflow = call('GET', `/v1/workflows/${SEED_IDS.trialWorkflow}`).body;
    const body = { expectedRevisionId: workflow.workflowRevisionId, insertMode: 'after', nodeTypeName: 'SendEmailAction', fromNodeId: workflow.rootNodeId };
    const { node } = call('POST', `/v1/workflows/${workflow.id}/nodes`, { body }).body;
    const message = call('GET', `/v1/email-messages/${node.emailMessageId}`);
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ id: node.emailMessageId, subject: '', lmx: '' });
    const edited = call('POST', `/v1/email-messages/${node.emailMessageId}`, {
      body: { expectedRevisionId: message.body.contentRevisionId, subject: 'Hello {contact.firstName}' },
    });
    expect(edited.status).toBe(200);
  });
});

describe('pagination.nextPage', () => {
  it('is a full URL of the same list, whose cursor is nextCursor', () => {
    const { call } = freshSandbox();
    const { pagination } = call('GET', '/v1/themes', { query: { perPage: '10' } }).body;
    const next = new URL(pagination.nextPage);
    expect(`${next.origin}${next.pathname}`).toBe('http://127.0.0.1/v1/themes');
    expect(Object.fromEntries(next.searchParams)).toEqual({ cursor: pagination.nextCursor, perPage: '10' });
    const following = call('GET', '/v1/themes', { query: Object.fromEntries(next.searchParams) });
    expect(following.status).toBe(200);
  });
});

describe('a workflow write with a stale revision', () => {
  // "`expectedRevisionId` is stale." (the API's reference: the 409 of each operation that takes it.)
  it('is refused with 409 by every operation that takes one, and changes nothing', () => {
    const { call } = freshSandbox();
    const workflowId = SEED_IDS.welcomeWorkflow;
    const workflow = call('GET', `/v1/workflows/${workflowId}`).body;
    const [first, second] = Object.keys(workflow.nodes as Record<string, unknown>).filter((id) => id !== workflow.rootNodeId);
    const node = `/v1/workflows/${workflowId}/nodes/${first}`;
    const stale = { expectedRevisionId: 'cstalerevision000000000000' };
    const writes: [string, 'POST' | 'DELETE', string, Record<string, unknown>][] = [
      ['updateWorkflowProperties', 'POST', `/v1/workflows/${workflowId}`, { name: 'Stale' }],
      ['deleteWorkflow', 'DELETE', `/v1/workflows/${workflowId}`, { confirmDelete: true }],
      ['changeWorkflowMailingList', 'POST', `/v1/workflows/${workflowId}/mailing-list`, { mailingListId: seedId('mailing-list/Product updates') }],
      ['createWorkflowNode', 'POST', `/v1/workflows/${workflowId}/nodes`, { insertMode: 'after', nodeTypeName: 'TimerAction', fromNodeId: first }],
      ['addWorkflowBranch', 'POST', `${node}/add-branch`, {}],
      ['updateWorkflowNode', 'POST', node, { payload: { typeName: 'TimerAction' } }],
      ['rerouteNodeConnection', 'POST', `${node}/reroute`, { newTargetNodeId: second }],
      ['deleteWorkflowNode', 'DELETE', node, {}],
      ['deleteWorkflowNodeRecursively', 'DELETE', `${node}/recursive`, {}],
    ];
    for (const [operation, method, path, body] of writes) {
      const refused = call(method, path, { body: { ...stale, ...body } });
      expect([operation, refused.status]).toEqual([operation, 409]);
    }
    expect(call('GET', `/v1/workflows/${workflowId}`).body).toEqual(workflow);
  });
});
