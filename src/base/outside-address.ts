/**
 * Which addresses a fetch of an address that came from content or a user may reach (a link an
 * email holds, an image a template names): only the public internet's. Loopback, private,
 * shared (carrier-grade NAT), link-local, multicast and reserved addresses are refused, IPv4 and
 * IPv6 alike, an IPv4 address written in IPv6 (`::ffff:127.0.0.1`, NAT64's `64:ff9b::/96`, 6to4's
 * `2002::/16`) judged as the IPv4 address it reaches, and `localhost` by its name. The ranges are
 * IANA's special-purpose registries (RFC 6890 and its updates): an address none of them marks
 * globally reachable is one a recipient's mail client could never load either.
 */
import type { BlockList } from 'node:net';
import { builtinModule } from './builtin.js';

/** What kind of address a refused one is, in words: `a loopback address (127.0.0.0/8)`. */
type Range = readonly [network: string, prefix: number, kind: string];

const IPV4: readonly Range[] = [
  ['0.0.0.0', 8, 'an address of "this network"'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a reserved address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved (benchmarking) address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const IPV6: readonly Range[] = [
  ['::', 128, 'the unspecified address'],
  ['::1', 128, 'a loopback address'],
  // IPv4-compatible addresses, deprecated (RFC 4291); the mapped ones are judged as IPv4 before these.
  ['::', 96, 'a reserved address'],
  ['64:ff9b:1::', 48, 'a private (local NAT64) address'],
  ['100::', 64, 'a reserved (discard) address'],
  ['2001::', 23, 'a reserved address'],
  ['2001:db8::', 32, 'a documentation address'],
  ['3fff::', 20, 'a documentation address'],
  ['fc00::', 7, 'a private (unique local) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a private (site-local) address'],
  ['ff00::', 8, 'a multicast address'],
];

const isIP = (address: string) => builtinModule('node:net').isIP(address);

function listOf(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): { list: BlockList; kind: string; shown: string }[] {
  return ranges.map(([network, prefix, kind]) => {
    const list = new (builtinModule('node:net').BlockList)();
    list.addSubnet(network, prefix, family);
    return { list, kind, shown: `${network}/${prefix}` };
  });
}

/** The ranges, made on first use; with the global unicast range, outside which an IPv6 address is unassigned or special. */
let lists: { v4: ReturnType<typeof listOf>; v6: ReturnType<typeof listOf>; globalUnicast: BlockList } | undefined;
const ranges = () => (lists ??= { v4: listOf(IPV4, 'ipv4'), v6: listOf(IPV6, 'ipv6'), globalUnicast: listOf([['2000::', 3, '']], 'ipv6')[0]!.list });

/** The IPv4 address an IPv6 one reaches, where it embeds one: mapped, NAT64's well-known prefix, 6to4. */
function embeddedIpv4(address: string): string | undefined {
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return mapped;
  const words = expandIpv6(address);
  if (words === undefined) return undefined;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  // ::ffff:7f00:1 is the mapped form written in hexadecimal.
  if (words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((word) => word === 0)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return undefined;
}

/** An IPv6 address as its eight 16-bit words (a dotted IPv4 tail taken as two). */
function expandIpv6(address: string): number[] | undefined {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail !== null) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const part = (side: string) => (side === '' ? [] : side.split(':').map((word) => Number.parseInt(word, 16)));
  const left = part(head);
  const right = rest === undefined ? [] : part(rest);
  const words = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.length === 8 && words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : undefined;
}

/**
 * Why an IP address may not be fetched (`a loopback address (127.0.0.0/8)`), or undefined for a
 * public one. An address that is no IP address is refused too: the judgement is of addresses only.
 */
export function refusedAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== undefined) {
      const refused = refusedAddress(v4);
      return refused === undefined ? undefined : `${refused}, written as ${bare}`;
    }
    const found = ranges().v6.find(({ list }) => list.check(bare, 'ipv6'));
    if (found !== undefined) return `${found.kind} (${found.shown})`;
    return ranges().globalUnicast.check(bare, 'ipv6') ? undefined : 'a reserved address (outside 2000::/3)';
  }
  const found = ranges().v4.find(({ list }) => list.check(bare, 'ipv4'));
  return found === undefined ? undefined : `${found.kind} (${found.shown})`;
}

/** Why a host's name alone is refused (`localhost` and its subdomains, RFC 6761), or undefined. */
export function refusedName(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') ? 'a loopback address (localhost)' : undefined;
}

/** Whether a URL's host, as written (an IP address or a name), is one to refuse without resolving it. */
export function refusedAsWritten(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) === 0 ? refusedName(bare) : refusedAddress(bare);
}
