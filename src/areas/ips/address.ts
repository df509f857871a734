/**
 * IP addresses and CIDR ranges in one comparable form. Every address lives in the 128-bit IPv6
 * space, IPv4 as its IPv4-mapped form (::ffff:a.b.c.d), so `192.0.2.1`, `::ffff:192.0.2.1` and
 * `192.0.2.1/32` are the same host, and containment is one rule for both families. Text is
 * printed in the canonical form of RFC 5952: lower case, no leading zeros, the longest run of
 * zero groups compressed, and mapped IPv4 in dotted form.
 */

export interface IpRange {
  /** The first address of the range, as a 128-bit number. */
  network: bigint;
  /** Prefix length in the 128-bit space: 128 for a single host. */
  prefix: number;
}

const BITS = 128;
const MAPPED_PREFIX = 96;
const MAPPED_NETWORK = 0xffffn << 32n;
const ALL_ONES = (1n << 128n) - 1n;

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // Leading zeros are refused: some tools read them as octal, so their meaning is ambiguous.
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** Colon-separated hex groups; a dotted IPv4 tail is allowed only where the address ends. */
function parseGroups(text: string, endsAddress: boolean): number[] | undefined {
  if (text === '') return [];
  const groups: number[] = [];
  const parts = text.split(':');
  for (const [index, part] of parts.entries()) {
    if (endsAddress && index === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === undefined) return undefined;
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const compressed = halves.length === 2;
  const head = parseGroups(halves[0]!, !compressed);
  const tail = compressed ? parseGroups(halves[1]!, true) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** Why a piece of text is not an address, or the address as a 128-bit number. */
export function parseAddress(text: string): bigint | string {
  if (text.includes('%')) return 'zone ids (%...) name a local interface and cannot be allow-listed';
  if (text.includes(':')) return parseIpv6(text) ?? 'not a valid IPv6 address';
  const v4 = parseIpv4(text);
  return v4 === undefined ? 'not a valid IPv4 address (or it has leading zeros)' : MAPPED_NETWORK | v4;
}

/** An address or a CIDR range; the reason it is neither when it is not. */
export function parseRange(text: string): IpRange | string {
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const network = parseAddress(addressText);
  if (typeof network === 'string') return network;
  if (slash === -1) return { network, prefix: BITS };
  const isV4 = !addressText.includes(':');
  const max = isV4 ? 32 : BITS;
  const prefixText = text.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(prefixText) || Number(prefixText) > max) return `the prefix length must be a whole number from 0 to ${max}`;
  const prefix = Number(prefixText) + (isV4 ? MAPPED_PREFIX : 0);
  const range = { network, prefix };
  if ((network & hostMask(prefix)) !== 0n) {
    return `host bits are set; the range starts at ${formatRange({ network: network & ~hostMask(prefix) & ALL_ONES, prefix })}`;
  }
  return range;
}

function hostMask(prefix: number): bigint {
  return (1n << BigInt(BITS - prefix)) - 1n;
}

/** The first address of the range of this prefix length that holds the address. */
export function networkOf(address: bigint, prefix: number): bigint {
  return address & ~hostMask(prefix) & ALL_ONES;
}

function isMapped(range: IpRange): boolean {
  return range.prefix >= MAPPED_PREFIX && range.network >> 32n === 0xffffn;
}

function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, index) => Number((value >> BigInt((7 - index) * 16)) & 0xffffn));
  // The longest run of two or more zero groups (the first on a tie) becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start += 1) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length += 1;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** The canonical text of a range: a bare address for a single host, else address/prefix. */
export function formatRange(range: IpRange): string {
  const mapped = isMapped(range);
  const address = mapped ? formatIpv4(range.network & 0xffffffffn) : formatIpv6(range.network);
  if (range.prefix === BITS) return address;
  return `${address}/${mapped ? range.prefix - MAPPED_PREFIX : range.prefix}`;
}

export function formatAddress(address: bigint): string {
  return formatRange({ network: address, prefix: BITS });
}

/** An address as a single-host CIDR: /32 for IPv4 (mapped ones included), /128 for IPv6. */
export function formatHostCidr(address: bigint): string {
  return `${formatAddress(address)}/${isMapped({ network: address, prefix: BITS }) ? 32 : BITS}`;
}
