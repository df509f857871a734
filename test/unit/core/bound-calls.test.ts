/**
 * A run made on a person's yes sends the calls approved and no other, each once: each write is
 * compared, as the transport sends it, with the calls approved it has not sent, and the first that
 * is none of them is refused (exit 5) before it is sent, saying what changed.
 */
import { describe, expect, it } from 'vitest';
import { RejectedError } from '../../../src/base/errors.js';
import { boundCall, callChange, refuseUnbound } from '../../../src/core/bound-calls.js';

const target = (path: string, search = '') => ({ path, search });
const approved = [boundCall('POST', target('/v1/transactional'), { transactionalId: 't1', email: 'ada@example.com' })];

describe('the calls a yes binds', () => {
  it('let the very call approved go, its body compared whatever the order of its keys', () => {
    expect(() => refuseUnbound(approved, new Set(), 'POST', target('/v1/transactional'), { email: 'ada@example.com', transactionalId: 't1' })).not.toThrow();
  });

  it("let an import's rows go in whatever order they are sent, each once", () => {
    const rows = ['ada', 'alan', 'grace'].map((name) => boundCall('POST', target('/v1/contacts/create'), { email: `${name}@example.com` }));
    const sent = new Set<number>();
    for (const name of ['grace', 'ada', 'alan']) refuseUnbound(rows, sent, 'POST', target('/v1/contacts/create'), { email: `${name}@example.com` });
    expect([...sent].sort()).toEqual([0, 1, 2]);
    expect(() => refuseUnbound(rows, sent, 'POST', target('/v1/contacts/create'), { email: 'ada@example.com' })).toThrow(
      'is a call more than the person approved',
    );
  });

  it('refuse another body, another target or method, and a call more than approved, exit 5', () => {
    const refused = (index: number, method: string, path: string, body: unknown) => {
      try {
        refuseUnbound(approved, new Set(index === 0 ? [] : [0]), method, target(path), body);
      } catch (error) {
        expect(error).toBeInstanceOf(RejectedError);
        return error as RejectedError;
      }
      return undefined;
    };
    expect(refused(0, 'POST', '/v1/transactional', { transactionalId: 't1', email: 'eve@example.com' })).toMatchObject({
      exitCode: 5,
      message: 'the body of POST /v1/transactional is not the one approved: what it is made from changed since; it was not sent, nor anything after it',
    });
    expect(refused(0, 'POST', '/v1/events/send', { email: 'ada@example.com' })?.message).toContain(
      'the approved POST /v1/transactional would now be POST /v1/events/send',
    );
    expect(refused(1, 'POST', '/v1/transactional', { transactionalId: 't1', email: 'ada@example.com' })?.message).toContain(
      'is a call more than the person approved',
    );
    expect(refused(0, 'POST', '/v1/transactional/', { transactionalId: 't1', email: 'ada@example.com' })?.message).toContain(
      'the approved POST /v1/transactional would now be POST /v1/transactional/',
    );
    expect(callChange(boundCall('DELETE', target('/v1/x'), undefined), boundCall('DELETE', target('/v1/x'), null))).toBeUndefined();
  });
});
