/** What a URL shows of its secrets: nothing, whether in its user part or in its parameters. */
import { describe, expect, it } from 'vitest';
import { isSecretParameter, redactUrl } from '../../../src/base/redact-url.js';

describe('redactUrl', () => {
  it('hides user and password, and leaves other URLs alone', () => {
    expect(redactUrl('https://user:pw@example.test/a?b=c@d')).toBe('https://[redacted]@example.test/a?b=c@d');
    expect(redactUrl('https://example.test/a?b=c@d')).toBe('https://example.test/a?b=c@d');
    expect(redactUrl('user:pw@example.test:1')).toBe('[redacted]@example.test:1');
  });

  it("hides a PostgreSQL password given in libpq's URI form, and the other secrets libpq and pg read", () => {
    expect(redactUrl('postgres://app@db.example/deliveries?password=s3cret&sslmode=require')).toBe(
      'postgres://[redacted]@db.example/deliveries?password=[redacted]&sslmode=require',
    );
    expect(
      redactUrl(
        'postgresql://db.example/d?sslpassword=k3y-pass&sslkey=/home/app/client.key&passfile=/home/app/.pgpass&oauth_client_secret=shh&application_name=app',
      ),
    ).toBe('postgresql://db.example/d?sslpassword=[redacted]&sslkey=[redacted]&passfile=[redacted]&oauth_client_secret=[redacted]&application_name=app');
    // A name spelled with escapes is read as pg reads it.
    expect(redactUrl('postgres://db.example/d?pass%77ord=s3cret')).toBe('postgres://db.example/d?pass%77ord=[redacted]');
  });

  it("hides a webhook URL's token, key or signature, in its query or its fragment", () => {
    expect(redactUrl('https://hooks.example/in?token=abc&team=t1#sig=xyz')).toBe('https://hooks.example/in?token=[redacted]&team=t1#sig=[redacted]');
    expect(redactUrl('https://hooks.example/in?API_KEY=abc')).toBe('https://hooks.example/in?API_KEY=[redacted]');
  });

  it('judges a parameter by its name', () => {
    expect(['password', 'sslpassword', 'sslkey', 'passfile', 'oauth_client_secret', 'access_token', 'Authorization'].every(isSecretParameter)).toBe(true);
    expect(['sslmode', 'host', 'user', 'dbname', 'application_name', 'connect_timeout'].some(isSecretParameter)).toBe(false);
  });
});
