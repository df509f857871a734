/** Answers that are not JSON, or not of the documented shape: exit 9, described, no stack trace. */
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../support/api-server.js';
import { raw, status } from '../../support/faults.js';
import { metrics } from '../../support/fixtures.js';
import { runCli } from '../../support/run-cli.js';

let server: ApiServer;
afterEach(() => server.close());

const METRICS = 'GET /v1/transactional-emails/t1/metrics';

function run(args: string[]) {
  return runCli(args, { env: { LOOPS_API_KEY: 'test-key-invalid', LOOPS_BASE_URL: server.url } });
}

describe('invalid answers', () => {
  it('an HTML page with status 200', async () => {
    server = await startApiServer({ [METRICS]: raw(200, 'text/html; charset=utf-8', '<!doctype html><title>Login</title>') });
    const result = await run(['transactional', 'metrics', 't1']);
    expect(result.code).toBe(9);
    expect(result.stderr).toBe(
      'Error: the API answered HTTP 200 with a body that is not JSON (content-type text/html; charset=utf-8, body starts "<!doctype html><title>Login</title>")\n',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('truncated JSON, with control characters in the preview escaped, C1 included', async () => {
    server = await startApiServer({ [METRICS]: raw(200, 'application/json', '{"sends": 1, "note": "\u009b31m\u001b[2J') });
    const result = await run(['transactional', 'metrics', 't1']);
    expect(result.code).toBe(9);
    expect(result.stderr).toContain('body starts "{\\"sends\\": 1, \\"note\\": \\"\\u009b31m\\u001b[2J"');
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(server.requests).toHaveLength(1);
  });

  it('a long body is cut in the preview', async () => {
    server = await startApiServer({ [METRICS]: raw(200, 'text/plain', 'x'.repeat(5_000)) });
    const result = await run(['transactional', 'metrics', 't1']);
    expect(result.code).toBe(9);
    expect(result.stderr).toContain(`body starts "${'x'.repeat(120)}…"`);
    expect(result.stderr.length).toBeLessThan(400);
  });

  it('a field of the wrong type names the field, the status, the content type and the first bytes', async () => {
    server = await startApiServer({ [METRICS]: status(200, { ...metrics, sends: 'ten' }) });
    const result = await run(['transactional', 'metrics', 't1']);
    expect(result.code).toBe(9);
    expect(result.stderr).toContain('Error: unexpected answer to GET /v1/transactional-emails/t1/metrics: field "sends"');
    expect(result.stderr).toContain('(HTTP 200, content-type application/json, body starts "{\\"sends\\":\\"ten\\"');
    expect(result.stderr).not.toContain('    at ');
  });

  it('an array where an object belongs, as JSON on stderr under --json', async () => {
    server = await startApiServer({ [METRICS]: status(200, [1, 2, 3]) });
    const result = await run(['transactional', 'metrics', 't1', '--json']);
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200, exitCode: 9 });
    expect(error.message).toContain('the body');
  });

  it('a list page without its pagination', async () => {
    server = await startApiServer({ 'GET /v1/themes': status(200, { data: [] }) });
    const result = await run(['themes', 'list']);
    expect(result.code).toBe(9);
    expect(result.stderr).toContain('field "pagination"');
  });

  it('shows an API error message with control characters escaped, and exactly under --json', async () => {
    const message = 'No such email \u001b]0;owned\u0007\u009b2J';
    server = await startApiServer({ [METRICS]: status(404, { message }) });
    const text = await run(['transactional', 'metrics', 't1']);
    expect(text.code).toBe(4);
    expect(text.stderr).toBe('Error: No such email \\x1b]0;owned\\x07\\x9b2J\nHint: see the ids with `loopsctl transactional list`\n');
    const json = await run(['transactional', 'metrics', 't1', '--json']);
    expect(json.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.parse(json.stderr).error.message).toBe(message);
  });

  it('shows no stack trace, even with --debug: the answer is at fault, not loopsctl', async () => {
    server = await startApiServer({ [METRICS]: raw(200, 'application/json', '{') });
    const plain = await run(['transactional', 'metrics', 't1']);
    const debug = await run(['transactional', 'metrics', 't1', '--debug']);
    expect(plain.stderr).not.toContain('    at ');
    expect(debug.code).toBe(9);
    expect(debug.stderr).toMatch(/^< 200 GET /m);
    expect(debug.stderr).toContain('Error: the API answered HTTP 200 with a body that is not JSON (content-type application/json, body starts "{")\n');
    expect(debug.stderr).not.toContain('    at ');
  });
});
