/**
 * A run made on a person's yes sends the calls approved and no other: each write is compared, as
 * the transport sends it, with the next call approved, and the first that differs is refused
 * (exit 5) before it is sent, saying what changed.
 */
import { describe, expect, it } from 'vitest';
import { RejectedError } from '../../../src/base/errors.js';
import { boundCall, callChange, refuseUnbound } from '../../../src/core/bound-calls.js';

const target = (path: string, search = '') => ({ path, search });
const approved = [boundCall('POST', target('/v1/transactional'), { transactionalId: 't1', email: 'ada@example.com' })];

describe('the calls a yes binds', () => {
  it('let the very call approved go, its body compared whatever the order of its keys', () => {
    expect(() => refuseUnbound(approved, 0, 'POST', target('/v1/transactional'), { email: 'ada@example.com', transactionalId: 't1' })).not.toThrow();
  });

  it('refuse another body, another target or method, and a call more than approved, exit 5', () => {
    const refused = (index: number, method: string, path: string, body: unknown) => {
      try {
        refuseUnbound(approved, index, method, target(path), body);
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
    expect(callChange(boundCall('DELETE', target('/v1/x'), undefined), boundCall('DELETE', target('/v1/x'), null))).toBeUndefined();
  });
});
