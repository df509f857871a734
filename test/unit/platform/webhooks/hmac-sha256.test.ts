/** The webhook signatures' HMAC-SHA256, against node:crypto's. */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from '../../../../src/platform/webhooks/hmac-sha256.js';

const reference = (key: Uint8Array, parts: Uint8Array[]) => parts.reduce((mac, part) => mac.update(part), createHmac('sha256', key)).digest('hex');
const ours = (key: Uint8Array, parts: Uint8Array[]) => Buffer.from(hmacSha256(key, ...parts)).toString('hex');
const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, index) => (index * 31 + seed * 17 + 7) & 0xff);

describe('hmacSha256', () => {
  it('gives RFC 4231 test case 2', () => {
    expect(ours(Buffer.from('Jefe'), [Buffer.from('what do ya want for nothing?')])).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it("is node:crypto's for every message length around one and two blocks, and keys shorter, as long as and longer than a block", () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 100, 200]) {
      for (let length = 0; length <= 200; length += 1) {
        const key = bytes(keyLength, 1);
        const message = bytes(length, 2);
        expect(ours(key, [message]), `key ${keyLength} bytes, message ${length} bytes`).toBe(reference(key, [message]));
      }
    }
  });

  it("is node:crypto's for any key and message, however split into parts", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.array(fc.uint8Array({ maxLength: 150 }), { maxLength: 5 }), (key, parts) => {
        expect(ours(key, parts)).toBe(reference(key, parts));
      }),
      { numRuns: 500 },
    );
  });

  it("is node:crypto's for a message of many blocks", () => {
    const message = bytes(1_000_003, 3);
    expect(ours(bytes(32, 4), [message.subarray(0, 70_001), message.subarray(70_001)])).toBe(reference(bytes(32, 4), [message]));
  });
});
