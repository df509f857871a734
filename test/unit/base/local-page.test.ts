/**
 * The guard every local page shares (the sandbox, its inbox, `content preview`): a request must be
 * addressed to the server's address or localhost, and a browser's must come from its own origin.
 */
import { describe, expect, it } from 'vitest';
import { emailPolicy, foreignRequest, pagePolicy } from '../../../src/base/local-page.js';

const at = new URL('http://127.0.0.1:4000');

describe('foreignRequest', () => {
  it('lets requests addressed to the address or to localhost through, with or without their own Origin', () => {
    expect(foreignRequest({ host: '127.0.0.1:4000' }, at, 'this preview')).toBeUndefined();
    expect(foreignRequest({ host: 'localhost:4000', origin: 'http://localhost:4000' }, at, 'this preview')).toBeUndefined();
    expect(foreignRequest({}, at, 'this preview')).toBeUndefined();
  });

  it('refuses a name rebound to the address, naming the server', () => {
    expect(foreignRequest({ host: 'attacker.example:4000' }, at, 'this preview')).toBe(
      'this preview answers only requests addressed to http://127.0.0.1:4000 (or localhost), not to "attacker.example:4000"',
    );
  });

  it('refuses an Origin of another site, another port, another scheme, or none readable', () => {
    for (const origin of ['http://attacker.example', 'http://localhost:4001', 'https://127.0.0.1:4000', 'null']) {
      expect(foreignRequest({ host: '127.0.0.1:4000', origin }, at, 'the sandbox'), origin).toMatch(
        /^the sandbox answers no request that a web page of another origin/,
      );
    }
  });

  it('listening on every interface, takes any address but never a name', () => {
    const every = new URL('http://0.0.0.0:4000');
    expect(foreignRequest({ host: '192.168.1.9:4000' }, every, 'the sandbox')).toBeUndefined();
    expect(foreignRequest({ host: '[::1]:4000' }, every, 'the sandbox')).toBeUndefined();
    expect(foreignRequest({ host: 'box.local:4000' }, every, 'the sandbox')).toBeDefined();
  });
});

describe('the policies', () => {
  it('let a page post forms only where it says, and frame nothing but its own emails', () => {
    expect(pagePolicy("'none'")).toContain("form-action 'none'");
    expect(pagePolicy("'self'")).toContain("form-action 'self'");
    expect(pagePolicy("'self'")).toContain("frame-ancestors 'none'");
    expect(emailPolicy("'self'")).toContain("frame-ancestors 'self'");
    expect(emailPolicy("'self'")).not.toContain('script-src');
    // An email's images come from the server's own route, or are placeholders: never from the web.
    expect(emailPolicy('data:')).toContain("default-src 'none'; img-src data:;");
  });
});
