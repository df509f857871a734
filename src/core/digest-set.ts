/**
 * A set of digests (52-bit numbers) in one typed array, by open addressing: 16 bytes or less an
 * entry, where a Set of digest strings takes about 200. What lets an import remember every email it
 * has seen and keep its memory flat.
 */
import { sha256Hex } from './sha256.js';

/**
 * The digest of a text as a whole number below 2^52, never 0 (which marks an empty slot). Made
 * once a record.
 */
export function numericDigest(text: string): number {
  return Number.parseInt(sha256Hex(text).slice(0, 13), 16) || 1;
}

export class DigestSet {
  private slots = new Float64Array(1 << 12);
  private count = 0;

  /** Adds the digest; false when it was there already. */
  add(digest: number): boolean {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const added = place(this.slots, digest);
    if (added) this.count += 1;
    return added;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const digest of old) if (digest !== 0) place(this.slots, digest);
  }
}

/** Puts the digest in the first free slot from its own, unless it is found on the way. */
function place(slots: Float64Array, digest: number): boolean {
  const mask = slots.length - 1;
  // The low 32 bits, spread: digests are uniform, so their low bits make a good start.
  for (let slot = (digest % 0x100000000) & mask; ; slot = (slot + 1) & mask) {
    if (slots[slot] === digest) return false;
    if (slots[slot] === 0) {
      slots[slot] = digest;
      return true;
    }
  }
}
