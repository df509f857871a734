/** Which requests an Idempotency-Key makes safe to send again: only the two sends, however their path is written. */
import { describe, expect, it } from 'vitest';
import { honoursIdempotencyKey } from '../../../src/api/idempotency.js';

describe('honoursIdempotencyKey', () => {
  it('knows the event and transactional sends, with a trailing slash, a query or a lower-case method', () => {
    expect(honoursIdempotencyKey('POST', '/v1/events/send')).toBe(true);
    expect(honoursIdempotencyKey('POST', '/v1/events/send/')).toBe(true);
    expect(honoursIdempotencyKey('POST', '/v1/transactional//?dry=1')).toBe(true);
    expect(honoursIdempotencyKey('post', '/v1/transactional')).toBe(true);
  });

  it('knows no other request, nor another method on those paths', () => {
    expect(honoursIdempotencyKey('POST', '/v1/contacts/create')).toBe(false);
    expect(honoursIdempotencyKey('PUT', '/v1/events/send')).toBe(false);
    expect(honoursIdempotencyKey('POST', '/v1/events/send/x')).toBe(false);
    expect(honoursIdempotencyKey('POST', '/v1/events')).toBe(false);
  });
});
