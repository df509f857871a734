/**
 * The rule of what can email people now (src/platform/liveness.ts): each record's state as the
 * API's answers give it, what holds an email message as its read and its holder's say, and how
 * many reads a judgement costs.
 */
import { describe, expect, it } from 'vitest';
import { WriteGate } from '../../../src/core/gate.js';
import { campaignLive, type Holder, holdersIn, type RecordTarget, whyLive, workflowLive } from '../../../src/platform/liveness.js';
import { publishedDescriptionAsWritten, type Schema } from '../../support/openapi.js';

const SENDING = {
  id: 'w1',
  name: 'Welcome series',
  status: 'Sending',
  nodes: { t: { typeName: 'SignupTrigger', nextNodeIds: ['e'] }, e: { typeName: 'SendEmailAction', nextNodeIds: [], emailMessageId: 'm-w1' } },
};
const DRAFT_WORKFLOW = { id: 'w2', name: 'Win-back', status: 'Draft', nodes: { e: { typeName: 'SendEmailAction', nextNodeIds: [], emailMessageId: 'm-w2' } } };
const SCHEDULED = {
  id: 'c1',
  name: 'November',
  status: 'Scheduled',
  emailMessageId: 'm-c1',
  scheduling: { method: 'schedule', timestamp: '2030-01-06T09:00:00.000Z' },
};
const DRAFT_CAMPAIGN = { id: 'c2', name: 'Spring', status: 'Draft', emailMessageId: 'm-c2', scheduling: { method: 'now', timestamp: null } };
const PUBLISHED = { id: 't1', name: 'Welcome', draftEmailMessageId: 'm-t1-draft', publishedEmailMessageId: 'm-t1' };

/** An account of these records, whose reads are counted; a path it does not hold answers undefined (404). */
function account() {
  const records: Record<string, unknown> = {
    '/v1/workflows/w1': SENDING,
    '/v1/workflows/w2': DRAFT_WORKFLOW,
    '/v1/workflows?perPage=50': { pagination: { nextCursor: 'p2' }, data: [{ id: 'w2' }] },
    '/v1/workflows?perPage=50&cursor=p2': { pagination: { nextCursor: null }, data: [{ id: 'w1' }] },
    '/v1/campaigns/c1': SCHEDULED,
    '/v1/campaigns/c2': DRAFT_CAMPAIGN,
    '/v1/transactional-emails/t1': PUBLISHED,
    '/v1/email-messages/m-w1': { id: 'm-w1', subject: 'Welcome' },
    '/v1/email-messages/m-w2': { id: 'm-w2', subject: 'Come back' },
    '/v1/email-messages/m-c1': { id: 'm-c1', campaignId: 'c1' },
    '/v1/email-messages/m-c2': { id: 'm-c2', campaignId: 'c2' },
    '/v1/email-messages/m-t1': { id: 'm-t1', transactionalId: 't1' },
    '/v1/email-messages/m-t1-draft': { id: 'm-t1-draft', transactionalId: 't1' },
  };
  const read: string[] = [];
  const holders = new Map<string, Holder>();
  return {
    records,
    read,
    holders,
    judge: (target: RecordTarget) =>
      whyLive(target, {
        read: async (path) => {
          read.push(path);
          return records[path];
        },
        holders,
      }),
  };
}

describe('what can email people now', () => {
  it("reads each record's state from its answer", () => {
    expect(workflowLive(SENDING)).toBe('is Sending: contacts move through it');
    expect(workflowLive({ status: 'PausedAndQueueing' })).toBe('is PausedAndQueueing: contacts move through it');
    expect(workflowLive(DRAFT_WORKFLOW)).toBeUndefined();
    expect(campaignLive(SCHEDULED)).toBe('is Scheduled to send at 2030-01-06T09:00:00.000Z: it sends to its audience');
    expect(campaignLive({ status: 'Sending' })).toBe('is Sending: it sends to its audience');
    // A draft sends nothing until it is scheduled; a sent one nothing more. A status loopsctl does not know may send.
    expect([campaignLive(DRAFT_CAMPAIGN), campaignLive({ status: 'Sent' })]).toEqual([undefined, undefined]);
    expect(campaignLive({ status: 'Paused' })).toBe('is Paused: it sends to its audience');
  });

  it('takes a draft campaign whose scheduling names a time for one that sends then', () => {
    // "scheduling: When the campaign is scheduled to send" (CampaignResponse), set "on create or
    // later via update": nothing says its status then moves to Scheduled, so its time is what counts.
    const setToSend = { ...DRAFT_CAMPAIGN, scheduling: { method: 'schedule', timestamp: '2030-02-01T08:00:00.000Z' } };
    expect(campaignLive(setToSend)).toBe('is a draft set to send at 2030-02-01T08:00:00.000Z: it sends to its audience then');
    // A draft set to send "now" has sent nothing while it is a draft; a sent campaign sends nothing more, whatever its scheduling says.
    expect(campaignLive({ ...DRAFT_CAMPAIGN, scheduling: { method: 'now', timestamp: null } })).toBeUndefined();
    expect(campaignLive({ ...setToSend, status: 'Sent' })).toBeUndefined();
  });

  it('judges a workflow and a campaign by one read of each, every time', async () => {
    const { judge, read } = account();
    expect(await judge({ kind: 'workflow', id: 'w1' })).toBe('that is Sending: contacts move through it');
    expect(await judge({ kind: 'workflow', id: 'w1' })).toBe('that is Sending: contacts move through it');
    expect(await judge({ kind: 'campaign', id: 'c1' })).toContain('that is Scheduled to send at 2030-01-06');
    expect(await judge({ kind: 'campaign', id: 'c2' })).toBeUndefined();
    // A record the account does not hold cannot email anyone (its write is refused, 404).
    expect(await judge({ kind: 'workflow', id: 'gone' })).toBeUndefined();
    expect(read).toEqual(['/v1/workflows/w1', '/v1/workflows/w1', '/v1/campaigns/c1', '/v1/campaigns/c2', '/v1/workflows/gone']);
  });

  it("judges a campaign's and a transactional email's message by its holder, the published message alone being live", async () => {
    const { judge, read } = account();
    expect(await judge({ kind: 'email message', id: 'm-c1' })).toBe(
      'that campaign "November" (c1) sends, while it is Scheduled to send at 2030-01-06T09:00:00.000Z: it sends to its audience',
    );
    expect(await judge({ kind: 'email message', id: 'm-c2' })).toBeUndefined();
    expect(await judge({ kind: 'email message', id: 'm-t1' })).toBe(
      'that is the published email of transactional email "Welcome" (t1): every send of it uses it',
    );
    expect(await judge({ kind: 'email message', id: 'm-t1-draft' })).toBeUndefined();
    expect(read.slice(0, 2)).toEqual(['/v1/email-messages/m-c1', '/v1/campaigns/c1']);
    // Once what holds a message is known, one read of the holder judges it; its state is read again each time.
    read.length = 0;
    expect(await judge({ kind: 'email message', id: 'm-c1' })).toContain('Scheduled');
    expect(read).toEqual(['/v1/campaigns/c1']);
  });

  it("finds a workflow's message by reading the workflows until one names it, and then knows where it is", async () => {
    const { judge, read } = account();
    expect(await judge({ kind: 'email message', id: 'm-w1' })).toBe('that workflow "Welcome series" (w1) sends, while it is Sending: contacts move through it');
    expect(read).toEqual(['/v1/email-messages/m-w1', '/v1/workflows?perPage=50', '/v1/workflows?perPage=50&cursor=p2', '/v1/workflows/w2', '/v1/workflows/w1']);
    read.length = 0;
    // The draft workflow read on the way: its message is judged by one read.
    expect(await judge({ kind: 'email message', id: 'm-w2' })).toBeUndefined();
    expect(read).toEqual(['/v1/workflows/w2']);
  });

  it("takes a caller's word for what holds a message only when the holder, read now, names it", async () => {
    const { judge, read } = account();
    // A unit that says the campaign's message is its transactional email's: the holder does not name it, so it is looked up.
    expect(await judge({ kind: 'email message', id: 'm-c1', heldBy: { kind: 'transactional', id: 't1' } })).toContain('campaign "November"');
    expect(read).toEqual(['/v1/transactional-emails/t1', '/v1/email-messages/m-c1', '/v1/campaigns/c1']);
    read.length = 0;
    expect(await judge({ kind: 'email message', id: 'm-w1', heldBy: { kind: 'workflow', id: 'w1' } })).toContain('is Sending');
    expect(read).toEqual(['/v1/workflows/w1']);
  });

  it('judges a workflow by its state now: one that turned live since it was last read is live', async () => {
    const { judge, records } = account();
    expect(await judge({ kind: 'email message', id: 'm-w2' })).toBeUndefined();
    records['/v1/workflows/w2'] = { ...DRAFT_WORKFLOW, status: 'Sending' };
    expect(await judge({ kind: 'email message', id: 'm-w2' })).toContain('while it is Sending');
    expect(await judge({ kind: 'workflow', id: 'w2' })).toContain('is Sending');
  });

  it('learns what holds each message from any answer of the account', () => {
    expect(holdersIn('/v1/workflows/w1', SENDING)).toEqual([['m-w1', { kind: 'workflow', id: 'w1' }]]);
    expect(holdersIn('/v1/campaigns?perPage=50', { data: [SCHEDULED, DRAFT_CAMPAIGN] })).toEqual([
      ['m-c1', { kind: 'campaign', id: 'c1' }],
      ['m-c2', { kind: 'campaign', id: 'c2' }],
    ]);
    expect(holdersIn('/v1/transactional-emails/t1', PUBLISHED)).toEqual([
      ['m-t1-draft', { kind: 'transactional', id: 't1' }],
      ['m-t1', { kind: 'transactional', id: 't1' }],
    ]);
    expect(holdersIn('/v1/email-messages/m-c1', { id: 'm-c1', campaignId: 'c1' })).toEqual([['m-c1', { kind: 'campaign', id: 'c1' }]]);
    // A workflow's message names nothing: it is learned from the workflow.
    expect(holdersIn('/v1/email-messages/m-w1', { id: 'm-w1' })).toEqual([]);
    expect(holdersIn('/v1/themes', { data: [{ id: 'x', emailMessageId: 'y' }] })).toEqual([]);
  });
});

describe("each workflow status the API's published description lists", () => {
  const statuses = (publishedDescriptionAsWritten().components.schemas.SimplifiedWorkflow as Schema).properties.status.enum as string[];

  it('is read from the committed contract, a draft among them', () => {
    expect(statuses).toContain('Draft');
    expect(statuses.length).toBeGreaterThan(1);
  });

  // A status the description gains is judged live until loopsctl is told it reaches no one.
  it.each(statuses.filter((status) => status !== 'Draft'))('%s is live: a node edit of it needs a yes at the gate', async (status) => {
    expect(workflowLive({ ...SENDING, status })).toBe(`is ${status}: contacts move through it`);
    const gate = new WriteGate(async () => ({ ...SENDING, status }));
    expect(await gate.needsYes('POST', '/v1/workflows/w1/nodes/e', { payload: {} })).toBe(`edits a workflow that is ${status}: contacts move through it`);
  });

  it('Draft is not: its edits reach no one', async () => {
    expect(workflowLive({ ...SENDING, status: 'Draft' })).toBeUndefined();
    const gate = new WriteGate(async () => ({ ...SENDING, status: 'Draft' }));
    expect(await gate.needsYes('POST', '/v1/workflows/w1/nodes/e', { payload: {} })).toBeUndefined();
  });

  it('a status it does not list is live', () => {
    expect(workflowLive({ ...SENDING, status: 'Archived' })).toBe('is Archived: contacts move through it');
  });
});
