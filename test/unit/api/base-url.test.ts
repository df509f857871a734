import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../../src/api/base-url.js';
import { UsageError } from '../../../src/base/errors.js';

function refusal(raw: string): UsageError {
  try {
    parseBaseUrl(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return error as UsageError;
  }
  throw new Error(`"${raw}" was accepted`);
}

describe('parseBaseUrl', () => {
  it('accepts http and https URLs, without the trailing slash', () => {
    expect(parseBaseUrl('https://app.loops.so/api')).toBe('https://app.loops.so/api');
    expect(parseBaseUrl('https://app.loops.so/api/')).toBe('https://app.loops.so/api');
    expect(parseBaseUrl(' http://127.0.0.1:5150 ')).toBe('http://127.0.0.1:5150');
    expect(parseBaseUrl('HTTP://[::1]:8080/')).toBe('http://[::1]:8080');
  });

  it('refuses other schemes', () => {
    for (const raw of ['ftp://example.test', 'file:///etc/passwd', 'javascript:alert(1)', '']) {
      expect(refusal(raw).message).toMatch(/is not an http or https URL/);
    }
  });

  it('suggests http:// for a host and port given without a scheme', () => {
    for (const raw of ['127.0.0.1:5150', 'localhost:5150', 'app.loops.so/api']) {
      const error = refusal(raw);
      expect(error.message).toBe(`the base URL "${raw}" is not an http or https URL`);
      expect(error.hint).toBe(`add the scheme: http://${raw} for a local server, https://${raw} otherwise`);
    }
  });

  it('refuses a query or a fragment, even an empty one', () => {
    for (const raw of ['https://app.loops.so/api?x=1', 'https://app.loops.so/api#top', 'https://app.loops.so/api?']) {
      expect(refusal(raw).message).toMatch(/has a query or a fragment/);
    }
  });

  it('never quotes a password, and escapes control characters', () => {
    const error = refusal('ftp://user:hunter2@example.test');
    expect(error.message).toBe('the base URL "ftp://[redacted]@example.test" is not an http or https URL');
    expect(refusal('https://user:hunter2@example.test/?q').message).toBe(
      'the base URL "https://[redacted]@example.test/?q" has a query or a fragment, which request paths cannot be appended to',
    );
    expect(refusal('ftp://x\u001b[2J').message).toContain('\\u001b[2J');
  });
});

describe('a base URL with a user name and password', () => {
  it('refuses escapes that decode to no text, before a request is made, quoting neither', () => {
    for (const written of ['http://ops:pa%E0%A4ss@127.0.0.1:5150', 'http://%FF@127.0.0.1:5150']) {
      const refusal = () => parseBaseUrl(written, '--base-url');
      expect(refusal, written).toThrow(UsageError);
      expect(refusal, written).toThrow('the user name or password in --base-url holds escapes (%XX) that decode to no text');
    }
    expect(parseBaseUrl('http://ops:caf%C3%A9@127.0.0.1:5150', '--base-url')).toBe('http://ops:caf%C3%A9@127.0.0.1:5150');
  });
});

describe('a base URL with the wrong path', () => {
  it('refuses one that ends in /v1, which every request path starts with', () => {
    for (const raw of ['https://app.loops.so/api/v1', 'http://127.0.0.1:5150/v1/', 'https://proxy.example.test/loops/api/v1']) {
      const error = refusal(raw);
      expect(error.message).toBe(`the base URL "${raw}" ends in /v1, which loopsctl adds to every request path`);
      expect(error.hint).toBe(`give ${raw.replace(/\/v1\/?$/, '')}`);
    }
  });

  it('refuses a doubled /api', () => {
    const error = refusal('https://proxy.example.test/api/api');
    expect(error.message).toBe('the base URL "https://proxy.example.test/api/api" has /api twice');
    expect(error.hint).toBe('give https://proxy.example.test/api');
  });

  it('names the Loops API when its host is given without /api, or with another path', () => {
    expect(refusal('https://app.loops.so').message).toBe('the base URL "https://app.loops.so" has no /api path: the Loops API is at https://app.loops.so/api');
    expect(refusal('https://app.loops.so/').hint).toBe('give https://app.loops.so/api, or leave the base URL out');
    expect(refusal('https://app.loops.so/v2/api').message).toContain('has the path /v2/api, not /api');
    expect(refusal('https://loops.so/').message).toContain('the Loops API is at https://app.loops.so/api');
    expect(parseBaseUrl('https://APP.loops.so/API/')).toBe('https://app.loops.so/API');
  });

  it('names where the URL came from', () => {
    try {
      parseBaseUrl('https://app.loops.so/api/v1', 'LOOPS_BASE_URL');
    } catch (error) {
      expect((error as UsageError).message).toBe('LOOPS_BASE_URL "https://app.loops.so/api/v1" ends in /v1, which loopsctl adds to every request path');
      return;
    }
    throw new Error('accepted');
  });
});
