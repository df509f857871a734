import { afterEach, describe, expect, it, vi } from 'vitest';

// SHA-256 of "abc" (FIPS 180-2, appendix B.1).
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

afterEach(() => {
  vi.doUnmock('node:crypto');
  vi.resetModules();
});

describe('sha256Hex', () => {
  it('is SHA-256 in hexadecimal', async () => {
    const { sha256Hex } = await import('../../../src/core/sha256.js');
    expect(sha256Hex('abc')).toBe(ABC);
  });

  it('gives the same digest on a Node without crypto.hash', async () => {
    vi.doMock('node:crypto', async (original) => ({ ...(await original<typeof import('node:crypto')>()), hash: undefined }));
    const { sha256Hex } = await import('../../../src/core/sha256.js');
    expect(sha256Hex('abc')).toBe(ABC);
  });
});
