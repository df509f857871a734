/**
 * Which addresses a fetch of an outside address may reach (src/base/outside-address.ts): the
 * public internet's only, by IANA's special-purpose registries, IPv4 written in IPv6 judged as the
 * IPv4 address it reaches.
 */
import { describe, expect, it } from 'vitest';
import { refusedAddress, refusedAsWritten } from '../../../src/base/outside-address.js';

describe('outside addresses', () => {
  it('refuses loopback, private, shared, link-local, multicast and reserved IPv4 addresses', () => {
    const refused: [string, string][] = [
      ['0.0.0.0', 'an address of "this network" (0.0.0.0/8)'],
      ['10.1.2.3', 'a private address (10.0.0.0/8)'],
      ['100.64.0.1', 'a shared (carrier-grade NAT) address (100.64.0.0/10)'],
      ['127.0.0.1', 'a loopback address (127.0.0.0/8)'],
      ['127.255.255.254', 'a loopback address (127.0.0.0/8)'],
      ['169.254.169.254', 'a link-local address (169.254.0.0/16)'],
      ['172.16.0.9', 'a private address (172.16.0.0/12)'],
      ['172.31.255.255', 'a private address (172.16.0.0/12)'],
      ['192.0.0.8', 'a reserved address (192.0.0.0/24)'],
      ['192.0.2.1', 'a documentation address (192.0.2.0/24)'],
      ['192.168.1.1', 'a private address (192.168.0.0/16)'],
      ['198.18.0.1', 'a reserved (benchmarking) address (198.18.0.0/15)'],
      ['203.0.113.7', 'a documentation address (203.0.113.0/24)'],
      ['224.0.0.251', 'a multicast address (224.0.0.0/4)'],
      ['255.255.255.255', 'a reserved address (240.0.0.0/4)'],
    ];
    for (const [address, why] of refused) expect([address, refusedAddress(address)]).toEqual([address, why]);
    for (const address of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '169.255.0.1', '223.255.255.255'])
      expect([address, refusedAddress(address)]).toEqual([address, undefined]);
  });

  it('refuses the same in IPv6, and IPv4 written in IPv6 as the IPv4 address it reaches', () => {
    const refused: [string, RegExp][] = [
      ['::', /^the unspecified address/],
      ['::1', /^a loopback address \(::1\/128\)/],
      ['::ffff:127.0.0.1', /^a loopback address \(127\.0\.0\.0\/8\), written as ::ffff:127\.0\.0\.1$/],
      ['::ffff:7f00:1', /^a loopback address \(127\.0\.0\.0\/8\), written as ::ffff:7f00:1$/],
      ['[::ffff:a9fe:a9fe]', /^a link-local address/],
      ['64:ff9b::10.0.0.1', /^a private address \(10\.0\.0\.0\/8\)/],
      ['64:ff9b::c0a8:101', /^a private address \(192\.168\.0\.0\/16\)/],
      ['2002:7f00:1::', /^a loopback address \(127\.0\.0\.0\/8\)/],
      ['::127.0.0.1', /^a reserved address \(::\/96\)/],
      ['fd00::1', /^a private \(unique local\) address/],
      ['fe80::1', /^a link-local address \(fe80::\/10\)/],
      ['fec0::1', /^a private \(site-local\) address/],
      ['ff02::1', /^a multicast address/],
      ['2001:db8::1', /^a documentation address/],
      ['2001::1', /^a reserved address \(2001::\/23\)/],
      ['100::1', /^a reserved \(discard\) address/],
      ['4000::1', /^a reserved address \(outside 2000::\/3\)/],
    ];
    for (const [address, why] of refused) expect([address, refusedAddress(address)]).toEqual([address, expect.stringMatching(why)]);
    for (const address of ['2606:4700::1111', '[2a00:1450:4001:80b::200e]', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])
      expect([address, refusedAddress(address)]).toEqual([address, undefined]);
  });

  it('refuses localhost by its name, and judges nothing else by a name alone', () => {
    for (const name of ['localhost', 'LOCALHOST.', 'api.localhost']) expect(refusedAsWritten(name)).toBe('a loopback address (localhost)');
    for (const name of ['localhost.example.com', 'acme.example', 'mylocalhost']) expect(refusedAsWritten(name)).toBeUndefined();
    expect(refusedAsWritten('[::1]')).toMatch(/^a loopback address/);
    expect(refusedAddress('acme.example')).toBe('not an IP address');
  });
});
