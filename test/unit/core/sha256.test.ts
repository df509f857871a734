import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/sha256.js';

// SHA-256 of "abc" (FIPS 180-2, appendix B.1).
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

describe('sha256Hex', () => {
  it('is SHA-256 in hexadecimal', () => {
    expect(sha256Hex('abc')).toBe(ABC);
  });
});
