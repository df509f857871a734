/**
 * interceptLoops: the official `loops` SDK, constructed with no base URL, sends into the
 * in-process sandbox; undici's own fetch and request are answered too; other hosts pass through;
 * close() puts fetch back.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LoopsClient } from 'loops';
import { fetch as undiciFetch, request as undiciRequest } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { interceptLoops, type Sandbox } from '../../../src/emulator/public.js';

const FIXTURES = {
  contactProperties: [{ name: 'plan', type: 'string' as const }],
  transactionalEmails: [{ id: 'welcome_tx', name: 'Welcome', subject: 'Welcome, {data.name}', lmx: '<Paragraph>Hi {data.name}</Paragraph>' }],
  workflows: [{ id: 'wf_signup', name: 'On sign-up', eventName: 'signup' }],
};

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const each of open.splice(0).reverse()) await each.close();
});

async function intercepted(): Promise<Sandbox> {
  const sandbox = await interceptLoops({ fixtures: FIXTURES, rateLimit: false });
  open.push(sandbox);
  return sandbox;
}

/** A server on another host (127.0.0.1), which requests must still reach. */
async function otherHost(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('the real one'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const running = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  open.push(running);
  return running;
}

describe('interceptLoops', () => {
  it('answers the official SDK, made with no base URL: a transactional email and an event reach the sandbox', async () => {
    const sandbox = await intercepted();
    const loops = new LoopsClient(sandbox.apiKey);
    expect(await loops.sendTransactionalEmail({ transactionalId: 'welcome_tx', email: 'ada@example.com', dataVariables: { name: 'Ada' } })).toEqual({
      success: true,
    });
    expect(await loops.sendEvent({ email: 'ada@example.com', eventName: 'signup', eventProperties: { plan: 'pro' } })).toEqual({ success: true });
    expect(sandbox.outbox().map((entry) => [entry.kind, entry.kind === 'transactional' ? entry.to : entry.kind === 'event' ? entry.eventName : ''])).toEqual([
      ['transactional', 'ada@example.com'],
      ['event', 'signup'],
    ]);
    // The sandbox's own refusals reach the SDK as the API's would.
    await expect(new LoopsClient('not-a-key').sendEvent({ email: 'ada@example.com', eventName: 'signup' })).rejects.toMatchObject({ statusCode: 401 });
  });

  it("answers undici's own fetch and request too, and lets other hosts through", async () => {
    const sandbox = await intercepted();
    const headers = { authorization: `Bearer ${sandbox.apiKey}` };
    const viaFetch = await undiciFetch('https://app.loops.so/api/v1/api-key', { headers });
    expect(viaFetch.status).toBe(200);
    expect(await viaFetch.json()).toMatchObject({ success: true });
    const viaRequest = await undiciRequest('https://app.loops.so/api/v1/contacts/find?email=nobody%40example.com', { headers });
    expect(viaRequest.statusCode).toBe(200);
    expect(await viaRequest.body.json()).toEqual([]);
    const other = await otherHost();
    expect(await (await fetch(other.url)).text()).toBe('the real one');
    expect(await (await undiciFetch(other.url)).text()).toBe('the real one');
  });

  it('puts fetch back on close(), and takes one sandbox at a time', async () => {
    const before = globalThis.fetch;
    const sandbox = await intercepted();
    expect(globalThis.fetch).not.toBe(before);
    await expect(interceptLoops()).rejects.toThrow('already intercepted');
    await sandbox.close();
    open.splice(open.indexOf(sandbox), 1);
    expect(globalThis.fetch).toBe(before);
  });
});
