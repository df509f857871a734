/**
 * HMAC-SHA256 (RFC 2104 over FIPS 180-4), for webhook signatures, written for a process that signs
 * one message and ends: `webhooks sign` runs it once, before V8 has compiled any of it beyond its
 * interpreter, where every function call costs. So each round is one expression with its rotations
 * written out, and nothing is called per round. node:crypto would bring OpenSSL's set-up (about
 * 5 ms of a start); @noble/hashes, which this replaced, calls a function per rotation and took
 * about 1.2 ms for one signature there, this about 0.2 ms. test/unit/platform/webhooks/hmac-sha256.test.ts
 * checks it against node:crypto on every length around the block size and on random inputs.
 */

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const ROUND_CONSTANTS = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const BLOCK_BYTES = 64;

/** SHA-256, fed in pieces. */
class Sha256 {
  private readonly state = Int32Array.from(INITIAL_STATE);
  private readonly words = new Int32Array(64);
  /** The bytes of a block not yet full. */
  private readonly pending = new Uint8Array(BLOCK_BYTES);
  private pendingBytes = 0;
  private totalBytes = 0;

  update(data: Uint8Array): this {
    this.totalBytes += data.length;
    let at = 0;
    if (this.pendingBytes > 0) {
      at = Math.min(BLOCK_BYTES - this.pendingBytes, data.length);
      this.pending.set(data.subarray(0, at), this.pendingBytes);
      this.pendingBytes += at;
      if (this.pendingBytes < BLOCK_BYTES) return this;
      this.compress(this.pending, 0);
      this.pendingBytes = 0;
    }
    for (; at + BLOCK_BYTES <= data.length; at += BLOCK_BYTES) this.compress(data, at);
    this.pending.set(data.subarray(at));
    this.pendingBytes = data.length - at;
    return this;
  }

  digest(): Uint8Array {
    // The pending bytes, a 1 bit, zeros, and the length in bits as 64 bits: one block or two.
    const tail = new Uint8Array(this.pendingBytes + 9 <= BLOCK_BYTES ? BLOCK_BYTES : 2 * BLOCK_BYTES);
    tail.set(this.pending.subarray(0, this.pendingBytes));
    tail[this.pendingBytes] = 0x80;
    const bits = this.totalBytes * 8;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(tail.length - 4, bits >>> 0);
    for (let at = 0; at < tail.length; at += BLOCK_BYTES) this.compress(tail, at);
    const digest = new Uint8Array(32);
    const out = new DataView(digest.buffer);
    for (let index = 0; index < 8; index += 1) out.setInt32(index * 4, this.state[index]!);
    return digest;
  }

  /** One block's 64 rounds: the message schedule, then the compression into the state. */
  private compress(data: Uint8Array, at: number): void {
    const w = this.words;
    for (let i = 0; i < 16; i += 1, at += 4) w[i] = (data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!;
    for (let i = 16; i < 64; i += 1) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (s1 + w[i - 7]! + s0 + w[i - 16]!) | 0;
    }
    const state = this.state;
    let a = state[0]!;
    let b = state[1]!;
    let c = state[2]!;
    let d = state[3]!;
    let e = state[4]!;
    let f = state[5]!;
    let g = state[6]!;
    let h = state[7]!;
    for (let i = 0; i < 64; i += 1) {
      const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + sum1 + ((e & f) ^ (~e & g)) + ROUND_CONSTANTS[i]! + w[i]!) | 0;
      const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (sum0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    state[0] = (state[0]! + a) | 0;
    state[1] = (state[1]! + b) | 0;
    state[2] = (state[2]! + c) | 0;
    state[3] = (state[3]! + d) | 0;
    state[4] = (state[4]! + e) | 0;
    state[5] = (state[5]! + f) | 0;
    state[6] = (state[6]! + g) | 0;
    state[7] = (state[7]! + h) | 0;
  }
}

/** The HMAC-SHA256 of the parts, one after the other, under the key. */
export function hmacSha256(key: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const block = new Uint8Array(BLOCK_BYTES);
  block.set(key.length > BLOCK_BYTES ? new Sha256().update(key).digest() : key);
  const pad = new Uint8Array(BLOCK_BYTES);
  for (let i = 0; i < BLOCK_BYTES; i += 1) pad[i] = block[i]! ^ 0x36;
  const inner = new Sha256().update(pad);
  for (let i = 0; i < BLOCK_BYTES; i += 1) pad[i] = block[i]! ^ 0x5c;
  const outer = new Sha256().update(pad);
  for (const part of parts) inner.update(part);
  return outer.update(inner.digest()).digest();
}
