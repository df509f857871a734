/**
 * DNS rebinding and cross-origin requests against a running sandbox: a web page that gives its own
 * name the address 127.0.0.1, or that sends a request from the browser, can neither read, reset nor
 * write the sandbox, whose key is public.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { startTestSandbox } from '../../support/main.js';

let sandbox: SandboxServer;
let port: string;
const logged: string[] = [];
beforeAll(async () => {
  sandbox = await startTestSandbox({ log: (line) => logged.push(line) });
  port = new URL(sandbox.url).port;
});
afterAll(() => sandbox.close());

/** A request to the sandbox's address with the headers a browser would send. */
function send(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(sandbox.url);
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : JSON.stringify({ email: 'rebound@example.com' }));
  });
}

describe('the sandbox refuses requests addressed to another name', () => {
  it('refuses a Host that is a name rebound to its address: nothing is read or written', async () => {
    const before = JSON.stringify(sandbox.state());
    const read = await send('GET', '/v1/lists', { host: `attacker.example:${port}` });
    expect(read).toEqual({
      status: 403,
      body: { message: `the sandbox answers only requests addressed to http://127.0.0.1:${port} (or localhost), not to "attacker.example:${port}"` },
    });
    const write = await send('POST', '/v1/contacts/create', { host: `attacker.example:${port}` });
    expect(write.status).toBe(403);
    expect(JSON.stringify(sandbox.state())).toBe(before);
    expect(logged.at(-1)).toBe(`refused: ${write.body.message}`);
  });

  it('answers requests addressed to its own address or to localhost', async () => {
    expect((await send('GET', '/v1/lists', { host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await send('GET', '/v1/lists', { host: `localhost:${port}` })).status).toBe(200);
  });

  it("refuses a browser's request from another origin, also one on localhost", async () => {
    for (const origin of ['http://attacker.example', `http://localhost:${Number(port) + 1}`, 'null', `https://127.0.0.1:${port}`]) {
      const answer = await send('POST', '/v1/contacts/create', { host: `127.0.0.1:${port}`, origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.body.message).toBe(
        `the sandbox answers no request that a web page of another origin sends from a browser (Origin ${JSON.stringify(origin)}); it serves http://127.0.0.1:${port} (or localhost)`,
      );
    }
    expect(sandbox.state().contacts).not.toContainEqual(expect.objectContaining({ email: 'rebound@example.com' }));
  });

  it('answers a request whose Origin is its own', async () => {
    expect((await send('GET', '/v1/lists', { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
  });
});
