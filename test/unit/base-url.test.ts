import { describe, expect, it } from 'vitest';
import { parseBaseUrl, redactUserinfo } from '../../src/api/base-url.js';
import { UsageError } from '../../src/api/errors.js';

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
    expect(refusal('https://user:hunter2@example.test/?q').message).not.toContain('hunter2');
    expect(refusal('ftp://x\u001b[2J').message).toContain('\\u001b[2J');
  });
});

describe('redactUserinfo', () => {
  it('hides user and password, and leaves other URLs alone', () => {
    expect(redactUserinfo('https://user:pw@example.test/a?b=c@d')).toBe('https://[redacted]@example.test/a?b=c@d');
    expect(redactUserinfo('https://example.test/a?b=c@d')).toBe('https://example.test/a?b=c@d');
    expect(redactUserinfo('user:pw@example.test:1')).toBe('[redacted]@example.test:1');
  });
});
