/**
 * Compares the API's dedicated sending IPs with an allow-list file. The file holds one address or
 * CIDR range per line; `#` starts a comment, blank lines and order do not matter, and entries are
 * compared in canonical form. With ranges:
 *  - an API address is covered when it equals a listed address or lies inside a listed range;
 *  - `added` are the API addresses no entry covers (they must be added to the file);
 *  - `removed` are the listed entries that cover no API address any more (they can go).
 */
import { formatAddress, formatRange, type IpRange, networkOf, parseRange } from './address.js';

export interface AllowListEntry {
  range: IpRange;
  /** 1-based line number in the file, for messages. */
  line: number;
}

export class AllowListSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly text: string,
    readonly reason: string,
  ) {
    super(`line ${line}: "${text}": ${reason}`);
  }
}

export function parseAllowList(content: string): AllowListEntry[] {
  const entries: AllowListEntry[] = [];
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const text = raw.replace(/#.*$/, '').trim();
    if (text === '') continue;
    const range = /\s/.test(text) ? 'one address or range per line' : parseRange(text);
    // A line is quoted back in the error, cut short: it may be megabytes of garbage.
    if (typeof range === 'string') throw new AllowListSyntaxError(index + 1, text.length > 80 ? `${text.slice(0, 80)}…` : text, range);
    entries.push({ range, line: index + 1 });
  }
  return entries;
}

export interface DriftReport {
  inSync: boolean;
  /** In the API, covered by no entry of the file. */
  added: string[];
  /** In the file, covering no address of the API. */
  removed: string[];
}

/**
 * Linear in the addresses and entries: an address is covered when, for one of the prefix lengths
 * the file uses (at most 129), its network at that length is one of the file's; an entry covers
 * an address when its network is one of the addresses' networks at its length.
 */
export function compareAllowList(apiAddresses: bigint[], entries: AllowListEntry[]): DriftReport {
  const unique = <T>(items: T[]) => [...new Set(items)];
  const networksByPrefix = new Map<number, Set<bigint>>();
  for (const { range } of entries) {
    const networks = networksByPrefix.get(range.prefix) ?? new Set<bigint>();
    networks.add(range.network);
    networksByPrefix.set(range.prefix, networks);
  }
  const covered = (address: bigint) => [...networksByPrefix].some(([prefix, networks]) => networks.has(networkOf(address, prefix)));
  const addressNetworks = new Map([...networksByPrefix.keys()].map((prefix) => [prefix, new Set(apiAddresses.map((address) => networkOf(address, prefix)))]));
  const added = unique(apiAddresses.filter((address) => !covered(address)).map(formatAddress));
  const removed = unique(entries.filter(({ range }) => !addressNetworks.get(range.prefix)!.has(range.network)).map((entry) => formatRange(entry.range)));
  return { inSync: added.length === 0 && removed.length === 0, added, removed };
}
