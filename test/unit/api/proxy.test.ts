/** Which proxy a URL gets: the variables by scheme, --proxy over them, NO_PROXY's forms, and what is shown of a proxy. */
import { describe, expect, it } from 'vitest';
import { bypasses, proxyFor, shownProxy } from '../../../src/api/proxy.js';
import { UsageError } from '../../../src/base/errors.js';

const exempt = (url: string, noProxy: string) => bypasses(new URL(url), noProxy);

describe('NO_PROXY', () => {
  it('exempts a domain and its subdomains, written bare, with a dot or with *.', () => {
    for (const entry of ['loops.so', '.loops.so', '*.loops.so', 'LOOPS.SO']) {
      expect(exempt('https://app.loops.so/api', entry), entry).toBe(true);
      expect(exempt('https://loops.so/', entry), entry).toBe(true);
      expect(exempt('https://notloops.so/', entry), entry).toBe(false);
      expect(exempt('https://loops.so.evil.example/', entry), entry).toBe(false);
    }
  });

  it('with a port exempts that port only, the scheme’s default counting', () => {
    expect(exempt('https://app.loops.so/api', 'app.loops.so:443')).toBe(true);
    expect(exempt('https://app.loops.so:8443/api', 'app.loops.so:443')).toBe(false);
    expect(exempt('http://127.0.0.1:8080/', '127.0.0.1:8080')).toBe(true);
    expect(exempt('http://127.0.0.1:8081/', '127.0.0.1:8080')).toBe(false);
    expect(exempt('http://127.0.0.1/', '127.0.0.1:80')).toBe(true);
  });

  it('matches IPv6 addresses with or without brackets, and * matches everything', () => {
    expect(exempt('http://[::1]:8080/', '::1')).toBe(true);
    expect(exempt('http://[::1]:8080/', '[::1]:8080')).toBe(true);
    expect(exempt('http://[::1]:8080/', '[::1]:9090')).toBe(false);
    expect(exempt('https://anything.example/', '*')).toBe(true);
    expect(exempt('https://anything.example/', ' , ,')).toBe(false);
  });

  it('matches an address only as a whole, never by its tail', () => {
    for (const entry of ['0.1', '.0.0.1', '*.0.0.1', '0.0.1', '7.0.0.1']) {
      expect(exempt('http://127.0.0.1:8080/', entry), entry).toBe(false);
      expect(exempt('http://10.0.0.1/', entry), entry).toBe(false);
    }
    expect(exempt('http://127.0.0.1:8080/', '127.0.0.1')).toBe(true);
    expect(exempt('http://[::1]/', '0:0:0:0:0:0:0:1')).toBe(true);
    expect(exempt('http://[::1]/', '::2')).toBe(false);
  });

  it('matches CIDR ranges as curl does, IPv4 and IPv6, never names', () => {
    expect(exempt('http://10.1.2.3/', '10.0.0.0/8')).toBe(true);
    expect(exempt('http://11.1.2.3/', '10.0.0.0/8')).toBe(false);
    expect(exempt('http://127.0.0.1:8080/', '127.0.0.0/24')).toBe(true);
    expect(exempt('http://192.168.1.7/', '192.168.1.7/32')).toBe(true);
    expect(exempt('http://192.168.1.8/', '192.168.1.7/32')).toBe(false);
    expect(exempt('http://[fd00::5]/', 'fd00::/8')).toBe(true);
    expect(exempt('http://[fe80::5]/', 'fd00::/8')).toBe(false);
    expect(exempt('http://10.0.0.1/', 'fd00::/8')).toBe(false);
    expect(exempt('http://10.0.0.1/', '10.0.0.0/40')).toBe(false);
    expect(exempt('http://localhost/', '127.0.0.0/8')).toBe(false);
  });
});

describe('proxyFor', () => {
  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, upper case first, and --proxy over both', () => {
    const env = { HTTPS_PROXY: 'http://s:1', https_proxy: 'http://lower:1', http_proxy: 'http://h:2' };
    expect(proxyFor('https://app.loops.so/api', { env }).proxy).toEqual({ url: 'http://s:1/', from: 'HTTPS_PROXY' });
    expect(proxyFor('http://127.0.0.1:9/', { env }).proxy).toEqual({ url: 'http://h:2/', from: 'http_proxy' });
    expect(proxyFor('https://app.loops.so/api', { env, flag: 'proxy.corp:3128' }).proxy).toEqual({ url: 'http://proxy.corp:3128/', from: '--proxy' });
    expect(proxyFor('https://app.loops.so/api', { env: {} })).toEqual({});
    expect(proxyFor('https://app.loops.so/api', { env: { ...env, NO_PROXY: 'loops.so' } })).toEqual({ exemptBy: 'NO_PROXY' });
  });

  it('reads a password pasted with an unencoded @, /, ? or # as a password', () => {
    for (const [written, encoded] of [
      ['http://ops:a/b@proxy:3128', 'ops:a%2Fb'],
      ['http://ops:a?b@proxy:3128', 'ops:a%3Fb'],
      ['http://ops:a#b@proxy:3128', 'ops:a%23b'],
      ['http://ops:a@b@proxy:3128', 'ops:a%40b'],
      ['ops:a/b?c#d@proxy:3128', 'ops:a%2Fb%3Fc%23d'],
    ] as const) {
      expect(proxyFor('https://app.loops.so/api', { env: {}, flag: written }).proxy?.url, written).toBe(`http://${encoded}@proxy:3128/`);
    }
  });

  it('refuses a % that starts no encoded character as a usage error, never showing the password', () => {
    for (const written of ['http://ops:%zz@proxy:3128', 'http://ops:50%off@proxy:3128', 'http://ops:100%@proxy:3128']) {
      const refusal = () => proxyFor('https://app.loops.so/api', { env: {}, flag: written });
      expect(refusal, written).toThrow(UsageError);
      expect(refusal, written).toThrow(/holds a % that does not start an encoded character/);
      expect(refusal, written).not.toThrow(/zz|off|100/);
    }
  });

  it('refuses escapes that decode to no text (half a character of UTF-8) as a usage error, never showing them', () => {
    for (const written of ['http://ops:pa%E0%A4ss@proxy:3128', 'http://%FF:secret@proxy:3128']) {
      const refusal = () => proxyFor('https://app.loops.so/api', { env: {}, flag: written });
      expect(refusal, written).toThrow(UsageError);
      expect(refusal, written).toThrow(/the user name or password in --proxy holds escapes \(%XX\) that decode to no text/);
      expect(refusal, written).not.toThrow(/E0|FF|secret/);
    }
  });
});

describe('shownProxy', () => {
  it('drops credentials, an @ in the password included', () => {
    expect(shownProxy('http://user:p%40ss@proxy:3128/')).toBe('http://proxy:3128');
    expect(shownProxy('http://user:p@ss@proxy:3128')).toBe('http://proxy:3128');
    expect(shownProxy('user:pw@proxy:3128')).toBe('proxy:3128');
    expect(shownProxy('http://proxy:3128/')).toBe('http://proxy:3128');
  });

  it('drops credentials whatever they hold, up to the last @', () => {
    expect(shownProxy('http://ops:a/b?c#d@proxy:3128')).toBe('http://proxy:3128');
    expect(shownProxy('ops:a/b@proxy:3128')).toBe('proxy:3128');
  });
});
