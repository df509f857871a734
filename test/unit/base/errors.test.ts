import { describe, expect, it } from 'vitest';
import { errorForStatus, NotFoundError, RejectedError, ServerError, withDetails } from '../../../src/base/errors.js';

describe('withDetails', () => {
  it('makes a new error of the same class, status, code and cause, leaving the original as it was', () => {
    const cause = new Error('socket');
    const original = new RejectedError('conflict', { status: 409, code: 'conflict', cause, hint: 'first' });
    const copy = withDetails(original, { message: 'conflict (gave up)', hint: 'second' });
    expect(copy).not.toBe(original);
    expect(copy).toBeInstanceOf(RejectedError);
    expect(copy).toMatchObject({ name: 'RejectedError', message: 'conflict (gave up)', hint: 'second', status: 409, code: 'conflict', exitCode: 5 });
    expect(copy.cause).toBe(cause);
    expect(original).toMatchObject({ message: 'conflict', hint: 'first' });
  });

  it('keeps what it is not told to change', () => {
    const copy = withDetails(new NotFoundError('gone', { status: 404, hint: 'list them' }), { message: 'gone!' });
    expect(copy).toMatchObject({ message: 'gone!', hint: 'list them', code: 'not_found' });
  });
});

describe('errorForStatus', () => {
  it('adds a note to the message and replaces the hint when given them', () => {
    const error = errorForStatus(503, undefined, { note: 'content-type text/html', hint: 'later' });
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ message: 'the API answered HTTP 503 (content-type text/html)', hint: 'later', status: 503 });
    expect(errorForStatus(401, 'no').hint).toContain('auth status');
  });
});
