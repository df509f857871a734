import { createHmac } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  formatAge,
  newMessageId,
  osRandomBytes,
  secretKey,
  signHeaders,
  verdictText,
  verify,
  WebhookSecretError,
} from '../../../../src/platform/webhooks/signature.js';
import { tempDir } from '../../../support/temp.js';

// The published test vector of the Standard Webhooks specification.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MESSAGE = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: '1614265330', body: '{"test": 2432232314}' };
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const NOW = 1614265330;

const key = secretKey(SECRET);
const check = (message: Partial<typeof MESSAGE>, signature = SIGNATURE, toleranceSeconds = 0, nowSeconds = NOW) =>
  verify(key, { ...MESSAGE, ...message }, { signature, toleranceSeconds, nowSeconds });

describe('webhook signatures', () => {
  it('signs the published vector', () => {
    expect(signHeaders(key, MESSAGE)).toEqual({ 'webhook-id': MESSAGE.id, 'webhook-timestamp': MESSAGE.timestamp, 'webhook-signature': SIGNATURE });
    expect(computeSignature(key, { ...MESSAGE, body: Buffer.from(MESSAGE.body) })).toBe(SIGNATURE.slice(3));
  });

  it('accepts the published vector', () => {
    expect(check({})).toEqual({ valid: true });
  });

  it.each([
    ['body', { body: '{"test": 2432232315}' }],
    ['body with a trailing newline', { body: `${MESSAGE.body}\n` }],
    ['id', { id: 'msg_p5jXN8AQM9LWM0D4loKWxJeK' }],
    ['timestamp', { timestamp: '1614265331' }],
  ])('refuses a tampered %s', (_what, change) => {
    expect(check(change)).toEqual({ valid: false, problem: 'signature', reason: 'no signature matches the body, id and timestamp' });
  });

  it('refuses a tampered signature, and one of the wrong length', () => {
    expect(check({}, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OF=').valid).toBe(false);
    expect(check({}, 'v1,g0hM9SsE').valid).toBe(false);
  });

  it('accepts when any one of several entries matches, and ignores other versions', () => {
    expect(check({}, `v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= ${SIGNATURE}  v2,xyz`)).toEqual({ valid: true });
    expect(check({}, `v2,${SIGNATURE.slice(3)}`)).toEqual({ valid: false, problem: 'signature', reason: 'the signature header has no v1 entry' });
    expect(check({}, `v1a,${SIGNATURE.slice(3)}`).valid).toBe(false);
  });

  it('refuses a timestamp outside the tolerance, on either side', () => {
    expect(check({}, SIGNATURE, 300, NOW + 300)).toEqual({ valid: true });
    expect(check({}, SIGNATURE, 300, NOW + 301)).toEqual({
      valid: false,
      problem: 'timestamp',
      reason: 'too old (5 min): the timestamp is outside the tolerance of 300 s',
    });
    expect(check({}, SIGNATURE, 300, NOW - 400)).toEqual({
      valid: false,
      problem: 'timestamp',
      reason: 'too far in the future (7 min): the timestamp is outside the tolerance of 300 s',
    });
    expect(check({}, SIGNATURE, 0, NOW + 10_000_000)).toEqual({ valid: true });
    expect(check({ timestamp: '16142x' }).valid).toBe(false);
  });

  it('refuses a timestamp that is not a whole number of seconds, even signed correctly, whatever the tolerance', () => {
    for (const timestamp of ['soon', '1614265330.5', '-1614265330', '1e9', ' 1614265330', '']) {
      const signature = signHeaders(key, { ...MESSAGE, timestamp })['webhook-signature'];
      for (const tolerance of [0, 300]) {
        expect(check({ timestamp }, signature, tolerance)).toEqual({
          valid: false,
          problem: 'timestamp',
          reason: `the timestamp "${timestamp}" is not a whole number of seconds`,
        });
      }
    }
  });

  it('says how old or early a timestamp is as a person would', () => {
    expect(formatAge(45)).toBe('45 s');
    expect(formatAge(12 * 60)).toBe('12 min');
    expect(formatAge(5 * 3600)).toBe('5 hours');
    expect(formatAge(2 * 86_400 + 600)).toBe('2 days');
    expect(check({}, SIGNATURE, 300, NOW + 2 * 86_400)).toMatchObject({ reason: expect.stringMatching(/^too old \(2 days\)/) });
    expect(verdictText({ valid: false, problem: 'signature', reason: 'x' })).toBe('invalid signature: x');
    expect(verdictText({ valid: false, problem: 'timestamp', reason: 'too old (2 days)' })).toBe('too old (2 days)');
    expect(verdictText({ valid: true })).toBe('verified');
  });

  it('changes unit where a person would: seconds below 2 min, minutes below 2 hours', () => {
    expect([119, 120, 7199, 7200].map(formatAge)).toEqual(['119 s', '2 min', '120 min', '2 hours']);
  });

  it('quotes a bad timestamp whole up to 40 characters, and cuts a longer one short', () => {
    const forty = 'x'.repeat(40);
    expect(check({ timestamp: forty })).toMatchObject({ reason: `the timestamp "${forty}" is not a whole number of seconds` });
    expect(check({ timestamp: `${forty}y` })).toMatchObject({ reason: `the timestamp "${forty}…" (41 characters) is not a whole number of seconds` });
  });

  it('refuses a signature made with another secret', () => {
    const other = secretKey(`whsec_${Buffer.from('another secret of some length').toString('base64')}`);
    expect(verify(other, MESSAGE, { signature: SIGNATURE, toleranceSeconds: 0, nowSeconds: NOW }).valid).toBe(false);
  });

  it.each(['whsec_', 'whsec_not base64!', 'whsec_abcde', 'whsec_!!!!MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'])('refuses the malformed secret %j', (secret) => {
    expect(() => secretKey(secret)).toThrow(new WebhookSecretError('the webhook secret is not a whsec_ secret followed by base64'));
  });

  it('accepts a secret without its prefix, as the reference libraries do', () => {
    expect(secretKey(SECRET.slice('whsec_'.length))).toEqual(key);
  });

  it('makes message ids in the msg_ form, different each time', () => {
    const id = newMessageId();
    expect(id).toMatch(/^msg_[A-Za-z0-9_-]{24}$/);
    expect(newMessageId()).not.toBe(id);
  });

  it('signs as node:crypto does, for any key, id, timestamp and body', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 100 }),
        fc.string(),
        fc.string(),
        fc.uint8Array({ maxLength: 300 }),
        (keyBytes, id, timestamp, body) => {
          const keyBuffer = Buffer.from(keyBytes);
          const expected = createHmac('sha256', keyBuffer).update(`${id}.${timestamp}.`).update(body).digest('base64');
          expect(computeSignature(keyBuffer, { id, timestamp, body: Buffer.from(body) })).toBe(expected);
        },
      ),
    );
  });

  it('signs a body of several megabytes as node:crypto does', () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 7, 'loopsctl ');
    expect(computeSignature(key, { ...MESSAGE, body })).toBe(
      createHmac('sha256', key).update(`${MESSAGE.id}.${MESSAGE.timestamp}.`).update(body).digest('base64'),
    );
  });

  it('takes random bytes from the system, or from node:crypto where the device is missing', () => {
    expect(osRandomBytes(18)).toHaveLength(18);
    expect(osRandomBytes(18).equals(osRandomBytes(18))).toBe(false);
    const missing = osRandomBytes(18, join(tmpdir(), 'loopsctl-no-such-device'));
    expect(missing).toHaveLength(18);
    expect(missing.equals(Buffer.alloc(18))).toBe(false);
  });

  it('refuses a random device that runs dry rather than return fewer bytes', () => {
    const dir = tempDir('loopsctl-random-');
    try {
      writeFileSync(join(dir, 'short'), 'abc');
      expect(() => osRandomBytes(18, join(dir, 'short'))).toThrow(/ended/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
