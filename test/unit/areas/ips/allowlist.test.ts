import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAddress, formatHostCidr, formatRange, type IpRange, networkOf, parseAddress, parseRange } from '../../../../src/areas/ips/address.js';
import { AllowListSyntaxError, compareAllowList, parseAllowList } from '../../../../src/areas/ips/allowlist.js';

function canonical(text: string): string {
  const range = parseRange(text);
  if (typeof range === 'string') throw new Error(`${text}: ${range}`);
  return formatRange(range);
}

function address(text: string): bigint {
  const parsed = parseAddress(text);
  if (typeof parsed === 'string') throw new Error(`${text}: ${parsed}`);
  return parsed;
}

const range = (text: string) => parseRange(text) as IpRange;

/** The plain definition of coverage, which the comparison's faster way must agree with. */
const contains = (range: IpRange, address: bigint) => networkOf(address, range.prefix) === range.network;

describe('canonical addresses', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:0201', '192.0.2.1'],
    ['::192.0.2.1', '::c000:201'],
    ['192.0.2.1/32', '192.0.2.1'],
    ['2001:db8::1/128', '2001:db8::1'],
    ['192.0.2.0/24', '192.0.2.0/24'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['::ffff:192.0.2.0/120', '192.0.2.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
  ])('%s is %s', (input, expected) => {
    expect(canonical(input)).toBe(expected);
  });

  it.each([
    ['fe80::1%eth0', /zone/],
    ['192.0.2.256', /IPv4/],
    ['192.0.2', /IPv4/],
    ['192.0.02.1', /leading zeros/],
    ['1::2::3', /IPv6/],
    ['1:2:3:4:5:6:7:8:9', /IPv6/],
    ['1:2:3:4:5:6:7:8::', /IPv6/],
    ['12345::', /IPv6/],
    ['192.0.2.1::', /IPv6/],
    ['g::1', /IPv6/],
    ['192.0.2.0/33', /0 to 32/],
    ['2001:db8::/129', /0 to 128/],
    ['192.0.2.0/', /prefix/],
    ['192.0.2.0/024', /prefix/],
    ['192.0.2.1/24', /host bits are set; the range starts at 192.0.2.0\/24/],
    ['example.com', /IPv4/],
  ])('%s is refused', (input, reason) => {
    expect(parseRange(input)).toMatch(reason);
  });

  it('prints host CIDRs as /32 for IPv4 and /128 for IPv6', () => {
    expect(formatHostCidr(address('192.0.2.1'))).toBe('192.0.2.1/32');
    expect(formatHostCidr(address('::ffff:192.0.2.1'))).toBe('192.0.2.1/32');
    expect(formatHostCidr(address('2001:0DB8::0001'))).toBe('2001:db8::1/128');
  });

  it('checks containment in both families', () => {
    expect(contains(range('192.0.2.0/24'), address('192.0.2.200'))).toBe(true);
    expect(contains(range('192.0.2.0/24'), address('192.0.3.1'))).toBe(false);
    expect(contains(range('2001:db8::/32'), address('2001:db8:ffff::1'))).toBe(true);
    expect(contains(range('2001:db8::/32'), address('2001:db9::1'))).toBe(false);
    expect(contains(range('0.0.0.0/0'), address('2001:db8::1'))).toBe(false);
    expect(contains(range('::/0'), address('192.0.2.1'))).toBe(true);
  });

  it('reads back every canonical IPv6 text as the same address (property)', () => {
    const value = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(value, (groups) => {
        const number = groups.reduce((acc, group) => (acc << 16n) | BigInt(group), 0n);
        const text = formatAddress(number);
        expect(parseAddress(text)).toBe(number);
        expect(parseAddress(groups.map((group) => group.toString(16).toUpperCase()).join(':'))).toBe(number);
        expect(canonical(text)).toBe(text);
        expect(text).not.toMatch(/(^|:)0[0-9a-f]/);
        // The WHATWG URL parser compresses the same way; it keeps mapped IPv4 in hex, we print it dotted.
        if (!text.includes('.')) expect(new URL(`http://[${groups.map((group) => group.toString(16)).join(':')}]/`).hostname).toBe(`[${text}]`);
      }),
    );
  });
});

describe('allow-list files', () => {
  it('ignores comments, blank lines, CRLF and a byte-order mark', () => {
    const entries = parseAllowList('\uFEFF# sending IPs\r\n\r\n192.0.2.1  # first\r\n  2001:DB8::1\n\n192.0.2.0/24\n');
    expect(entries.map((entry) => [formatRange(entry.range), entry.line])).toEqual([
      ['192.0.2.1', 3],
      ['2001:db8::1', 4],
      ['192.0.2.0/24', 6],
    ]);
  });

  it('names the line of the first malformed entry', () => {
    const error = (() => {
      try {
        parseAllowList('192.0.2.1\n# ok\n192.0.2.999\n');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(AllowListSyntaxError);
    expect(error).toMatchObject({ line: 3, text: '192.0.2.999' });
    expect(() => parseAllowList('192.0.2.1 192.0.2.2')).toThrow(/one address or range per line/);
  });
});

describe('comparing an allow-list with the API', () => {
  const compare = (api: string[], file: string) => compareAllowList(api.map(address), parseAllowList(file));

  it('is in sync whatever the order and notation', () => {
    expect(compare(['192.0.2.1', '2001:db8::1'], '2001:0DB8:0:0:0:0:0:1/128\n192.0.2.1/32\n')).toEqual({ inSync: true, added: [], removed: [] });
  });

  it('lists API addresses the file lacks as added and stale entries as removed', () => {
    expect(compare(['192.0.2.1', '192.0.2.7', '2001:db8::2'], '192.0.2.1\n198.51.100.4\n2001:db8::1\n')).toEqual({
      inSync: false,
      added: ['192.0.2.7', '2001:db8::2'],
      removed: ['198.51.100.4', '2001:db8::1'],
    });
  });

  it('counts addresses inside a listed range as covered, and a range covering none as removed', () => {
    expect(compare(['192.0.2.7', '192.0.2.9'], '192.0.2.0/24\n203.0.113.0/24\n')).toEqual({ inSync: false, added: [], removed: ['203.0.113.0/24'] });
  });

  it('reports duplicates once', () => {
    expect(compare(['192.0.2.1', '192.0.2.1'], '10.0.0.1\n10.0.0.1/32\n')).toEqual({ inSync: false, added: ['192.0.2.1'], removed: ['10.0.0.1'] });
  });
});

describe('compareAllowList, against the plain definition', () => {
  it('finds the same additions and removals as checking every address against every entry', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 30 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 24, max: 32 })), { maxLength: 30 }),
        (hosts, ranges) => {
          const addresses = hosts.map((host) => address(`192.0.2.${host}`));
          const entries = ranges.map(([host, bits], index) => {
            const exact = range(`192.0.2.${host}/32`);
            const prefix = exact.prefix - (32 - bits);
            return { range: { network: networkOf(exact.network, prefix), prefix }, line: index + 1 };
          });
          const report = compareAllowList(addresses, entries);
          const added = [...new Set(addresses.filter((a) => !entries.some((entry) => contains(entry.range, a))).map(formatAddress))];
          const removed = [...new Set(entries.filter((entry) => !addresses.some((a) => contains(entry.range, a))).map((entry) => formatRange(entry.range)))];
          expect(report.added).toEqual(added);
          expect(report.removed).toEqual(removed);
        },
      ),
    );
  });

  it('quotes a bad line of an allow-list cut short', () => {
    expect(() => parseAllowList(`${'x'.repeat(10_000)}\n`)).toThrow(/"x{80}…"/);
  });
});
