/**
 * The write gate's judgement of a write by its target's state (src/core/gate.ts): read from the
 * account each time a write is judged, never kept; and a read that fails is no answer, so the
 * target may be live and the write needs a yes.
 */
import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError, NotFoundError, RateLimitError, ServerError } from '../../../src/base/errors.js';
import { WriteGate } from '../../../src/core/gate.js';

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
