/**
 * The write gate's judgement of a write by its target's state (src/core/gate.ts): read from the
 * account each time a write is judged, never kept; and a read that fails is no answer, so the
 * target may be live and the write needs a yes.
 */
import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError, NotFoundError, RateLimitError, ServerError } from '../../../src/base/errors.js';
import { LIVE_SINCE_YES } from '../../../src/core/bound-calls.js';
import { passGate, WriteGate, type RunYes } from '../../../src/core/gate.js';

const NODE_EDIT = ['POST', '/v1/workflows/w1/nodes/n1', { expectedRevisionId: 'r', payload: { amount: 2 } }] as const;

/** A gate over an account holding one workflow, whose reads are counted and answered by `answer`. */
function gateOf(answer: (path: string) => unknown) {
  const read: string[] = [];
  const gate = new WriteGate(async (path) => {
    read.push(path);
    return answer(path);
  });
  return { gate, read };
}

describe('the write gate', () => {
  it("reads the workflow's status at each write: one started between two writes is judged live", async () => {
    let status = 'Draft';
    const { gate, read } = gateOf(() => ({ id: 'w1', status, nodes: {} }));
    expect(await gate.needsYes(...NODE_EDIT)).toBeUndefined();
    status = 'Sending';
    expect(await gate.needsYes(...NODE_EDIT)).toBe('edits a workflow that is Sending: contacts move through it');
    expect(read).toEqual(['/v1/workflows/w1', '/v1/workflows/w1']);
  });

  it.each([
    ['a server error (500)', new ServerError('the API answered 500: Internal Server Error', { status: 500 })],
    ['the rate limit (429)', new RateLimitError('rate limited (429): slow down', { status: 429 })],
    ['the network', new NetworkError('could not reach app.loops.so: ECONNRESET')],
  ])('takes a status it could not read because of %s for one that may be live, never for a draft', async (_what, error) => {
    const { gate } = gateOf(() => {
      throw error;
    });
    expect(await gate.needsYes(...NODE_EDIT)).toBe(`edits a workflow that may be live: whether it is could not be read (${error.message})`);
    expect(await gate.needsYes('POST', '/v1/email-messages/m1', { subject: 'x' })).toMatch(/^edits an email message that may be live: /);
    expect(await gate.needsYes('POST', '/v1/campaigns/c1', { mailingListId: null })).toMatch(/^changes the audience of a campaign that may be live: /);
  });

  it('takes a target the account does not hold for one that reaches no one, and passes a refused key on', async () => {
    const gone = gateOf(() => {
      throw new NotFoundError('not found');
    });
    expect(await gone.gate.needsYes(...NODE_EDIT)).toBeUndefined();
    const refused = gateOf(() => {
      throw new AuthError('the API refused the key');
    });
    await expect(refused.gate.needsYes(...NODE_EDIT)).rejects.toThrow('the API refused the key');
  });

  it('asks nothing of a write whose reach does not depend on its target, and reads nothing for it', async () => {
    const { gate, read } = gateOf(() => ({}));
    expect(await gate.needsYes('POST', '/v1/transactional-emails/t1/publish', {})).toBe('publishes a transactional email (the next sends use it)');
    expect(await gate.needsYes('POST', '/v1/campaigns/c1', { name: 'Renamed' })).toBeUndefined();
    expect(await gate.needsYes('POST', '/v1/themes/t1', { name: 'Dark' })).toBeUndefined();
    expect(read).toEqual([]);
  });

  it('judges a message by one read of its holder once an answer of the run named the holder', async () => {
    const { gate, read } = gateOf((path) =>
      path === '/v1/transactional-emails/t1' ? { id: 't1', name: 'Welcome', draftEmailMessageId: 'm-draft', publishedEmailMessageId: 'm-live' } : undefined,
    );
    gate.learn('/v1/transactional-emails?perPage=50', { data: [{ id: 't1', draftEmailMessageId: 'm-draft', publishedEmailMessageId: 'm-live' }] });
    expect(await gate.needsYes('POST', '/v1/email-messages/m-draft', { subject: 'x' })).toBeUndefined();
    expect(await gate.needsYes('POST', '/v1/email-messages/m-live', { subject: 'x' })).toBe(
      'edits an email message that is the published email of transactional email "Welcome" (t1): every send of it uses it',
    );
    expect(read).toEqual(['/v1/transactional-emails/t1', '/v1/transactional-emails/t1']);
  });
});

describe("a person's yes and what was live when it was given", () => {
  /** A node edit of w1 and an edit of the message m1 its send-email node sends, as the transport sends them. */
  const nodeEdit = { method: 'POST', target: { path: '/v1/workflows/w1/nodes/n1', search: '' }, body: { payload: { amount: 2 } } };
  const messageEdit = { method: 'POST', target: { path: '/v1/email-messages/m1', search: '' }, body: { subject: 'x' } };
  const account = (status: () => string) =>
    gateOf((path) => (path === '/v1/workflows/w1' ? { id: 'w1', status: status(), nodes: { n1: { emailMessageId: 'm1' } } } : { id: 'm1' }));

  it('keeps, for a question put to a person, the records found live: a workflow, and the workflow that sends a message', async () => {
    const { gate } = account(() => 'Sending');
    const capture: RunYes = { tier: 'destructive', capture: true };
    await passGate(capture, gate, nodeEdit);
    gate.learn('/v1/workflows/w1', { id: 'w1', nodes: { n1: { emailMessageId: 'm1' } } });
    await passGate(capture, gate, messageEdit);
    expect([...gate.foundLive]).toEqual(['workflow w1']);
    expect(gate.liveKey({ kind: 'email message', id: 'm1' })).toBe('workflow w1');
    expect(gate.liveKey({ kind: 'email message', id: 'unknown' })).toBe('email message unknown');
  });

  it('lets a yes through to what was live when it was given, and refuses, exit 5, a write to what went live since', async () => {
    let status = 'Sending';
    const { gate } = account(() => status);
    await passGate({ approved: true, liveAtYes: ['workflow w1'] }, gate, nodeEdit);
    await passGate({ approved: true, liveAtYes: ['workflow w1'] }, gate, messageEdit);
    const since = passGate({ approved: true, liveAtYes: [] }, gate, messageEdit);
    await expect(since).rejects.toMatchObject({ code: LIVE_SINCE_YES, exitCode: 5 });
    await expect(since).rejects.toThrow(
      'POST /v1/email-messages/m1 edits an email message that workflow w1 sends, while it is Sending: contacts move through it, which it was not when the person said yes; nothing more was sent',
    );
    // A draft still, or a yes with no record kept: judged as before.
    status = 'Draft';
    await passGate({ approved: true, liveAtYes: [] }, gate, nodeEdit);
    status = 'Sending';
    await passGate({ approved: true }, gate, nodeEdit);
  });

  it('takes a state it could not read, under a yes given to a draft, for one gone live', async () => {
    const { gate } = gateOf(() => {
      throw new ServerError('the API answered 500', { status: 500 });
    });
    await expect(passGate({ approved: true, liveAtYes: [] }, gate, nodeEdit)).rejects.toMatchObject({
      code: LIVE_SINCE_YES,
      message: expect.stringContaining('edits a workflow that may be live: whether it is could not be read (the API answered 500)'),
    });
  });
});
