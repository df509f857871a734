/**
 * interceptLoops leaves the rest of the app alone: a request it does not take reaches its host as
 * it was made, whatever its form; an aborted request is not answered; close() puts back every
 * dispatcher it replaced; only the API's operations (`https://app.loops.so/api/v1/…`) are taken.
 * A real server on 127.0.0.1 stands in for the other host, and, behind a dispatcher that sends it
 * what was addressed to app.loops.so, for the platform itself.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, setGlobalDispatcher, fetch as undiciFetch, request as undiciRequest } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { interceptLoops, type Sandbox } from '../../../src/emulator/public.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const each of open.splice(0).reverse()) await each.close();
});

async function intercepted(): Promise<Sandbox> {
  const sandbox = await interceptLoops({ rateLimit: false });
  open.push(sandbox);
  return sandbox;
}

interface Seen {
  method: string;
  path: string;
  host: string;
  contentType: string | null;
  body: string;
}

async function seenOf(request: IncomingMessage): Promise<Seen> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return {
    method: request.method ?? '',
    path: request.url ?? '',
    host: request.headers.host ?? '',
    contentType: request.headers['content-type'] ?? null,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

/** A server on another host, which answers each request with what it received. */
async function echoServer(): Promise<{ url: string; origin: string; received: Seen[]; close(): Promise<void> }> {
  const received: Seen[] = [];
  const server: Server = createServer((request, response) => {
    void seenOf(request).then((seen) => {
      received.push(seen);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const running = { url: `${origin}/echo`, origin, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  open.push(running);
  return running;
}

/** What the other host saw of a request, with the multipart boundary (random per request) made plain. */
async function echoed(response: Response | Promise<Response>): Promise<Seen> {
  const seen = (await (await response).json()) as Seen;
  const boundary = /boundary=(.+)$/.exec(seen.contentType ?? '')?.[1];
  if (boundary === undefined) return seen;
  return { ...seen, contentType: seen.contentType?.replace(boundary, 'B') ?? null, body: seen.body.replaceAll(boundary, 'B') };
}

/** Every form a fetch can be made in, made fresh each time it is called (a body is read once). */
function forms(url: string): [string, () => Parameters<typeof fetch>][] {
  const form = () => {
    const data = new FormData();
    data.set('name', 'Ada');
    return data;
  };
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('a stream, '));
        controller.enqueue(new TextEncoder().encode('in two chunks'));
        controller.close();
      },
    });
  return [
    ['a string', () => [url]],
    ['a URL object', () => [new URL(url)]],
    ['a Request with a body', () => [new Request(url, { method: 'POST', body: 'from the Request' })]],
    ['a Request and an init that overrides it', () => [new Request(url, { method: 'POST', body: 'old' }), { method: 'PUT', body: 'new' }]],
    ['a Request with a stream', () => [new Request(url, { method: 'POST', body: stream(), duplex: 'half' } as RequestInit)]],
    ['a string body', () => [url, { method: 'POST', body: 'plain text' }]],
    ['bytes', () => [url, { method: 'POST', body: new TextEncoder().encode('bytes') }]],
    ['an ArrayBuffer', () => [url, { method: 'POST', body: new TextEncoder().encode('a buffer').buffer as ArrayBuffer }]],
    ['a Blob', () => [url, { method: 'POST', body: new Blob(['a blob'], { type: 'text/x-blob' }) }]],
    ['form data', () => [url, { method: 'POST', body: form() }]],
    ['URL search params', () => [url, { method: 'POST', body: new URLSearchParams({ q: 'a b' }) }]],
    ['a stream', () => [url, { method: 'POST', body: stream(), duplex: 'half' } as RequestInit]],
  ];
}

describe('interceptLoops leaves other hosts alone', () => {
  it('passes every form of fetch to another host as fetch itself would send it', async () => {
    const other = await echoServer();
    const expected: Record<string, Seen> = {};
    for (const [name, make] of forms(other.url)) expected[name] = await echoed(fetch(...make()));
    await intercepted();
    for (const [name, make] of forms(other.url)) expect({ name, seen: await echoed(fetch(...make())) }).toEqual({ name, seen: expected[name] });
    // The case that threw before: a Request with a body, its body read once, by the fetch that sends it.
    expect(await echoed(fetch(new Request(other.url, { method: 'POST', body: 'once' })))).toMatchObject({ method: 'POST', body: 'once' });
  });

  it("passes undici's fetch and request to another host, with streamed and iterated bodies", async () => {
    const other = await echoServer();
    await intercepted();
    expect(await echoed(undiciFetch(new URL(other.url), { method: 'POST', body: 'undici fetch' }) as unknown as Promise<Response>)).toMatchObject({
      method: 'POST',
      body: 'undici fetch',
    });
    const streamed = await undiciRequest(other.url, { method: 'POST', body: Readable.from(['a ', 'readable']) });
    expect(await streamed.body.json()).toMatchObject({ method: 'POST', body: 'a readable' });
    async function* chunks() {
      yield 'an ';
      yield 'iterable';
    }
    const iterated = await undiciRequest(other.url, { method: 'PUT', body: chunks() as unknown as Readable });
    expect(await iterated.body.json()).toMatchObject({ method: 'PUT', body: 'an iterable' });
  });
});

describe('interceptLoops and an aborted request', () => {
  it('rejects a fetch aborted while the sandbox works on it, with the reason it was aborted with', async () => {
    const sandbox = await intercepted();
    const controller = new AbortController();
    const pending = fetch('https://app.loops.so/api/v1/api-key', { headers: { authorization: `Bearer ${sandbox.apiKey}` }, signal: controller.signal });
    controller.abort(new Error('the test gave up'));
    await expect(pending).rejects.toThrow('the test gave up');
    const before = new AbortController();
    before.abort();
    await expect(fetch('https://app.loops.so/api/v1/api-key', { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("rejects undici's request aborted while the sandbox works on it", async () => {
    const sandbox = await intercepted();
    const controller = new AbortController();
    const pending = undiciRequest('https://app.loops.so/api/v1/api-key', { headers: { authorization: `Bearer ${sandbox.apiKey}` }, signal: controller.signal });
    controller.abort(new Error('the test gave up'));
    await expect(pending).rejects.toThrow('the test gave up');
  });
});

const DISPATCHER_1 = Symbol.for('undici.globalDispatcher.1');
const DISPATCHER_2 = Symbol.for('undici.globalDispatcher.2');
const store = globalThis as unknown as Record<symbol, Dispatcher | undefined>;

/**
 * Sets, for one test, a process dispatcher that sends whatever is addressed to app.loops.so to
 * `origin` instead (as the platform would receive it), under both of undici's symbols.
 */
function platformAt(origin: string): void {
  const saved = [store[DISPATCHER_1], store[DISPATCHER_2]];
  class ToTheStandIn extends Agent {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const to = String(options.origin) === 'https://app.loops.so' ? origin : options.origin;
      return super.dispatch({ ...options, origin: to }, handler);
    }
  }
  const standIn = new ToTheStandIn();
  setGlobalDispatcher(standIn);
  open.push({
    close: async () => {
      store[DISPATCHER_1] = saved[0];
      store[DISPATCHER_2] = saved[1];
      await standIn.close();
    },
  });
}

describe("interceptLoops takes only the API's operations", () => {
  it('lets through what app.loops.so serves besides /api/v1/, by fetch and by dispatch', async () => {
    const platform = await echoServer();
    platformAt(platform.origin);
    const sandbox = await intercepted();
    const headers = { authorization: `Bearer ${sandbox.apiKey}` };
    expect((await fetch('https://app.loops.so/api/v1/api-key', { headers })).status).toBe(200);
    expect((await undiciRequest('https://app.loops.so/api/v1/api-key', { headers })).statusCode).toBe(200);
    expect(platform.received).toEqual([]);
    for (const path of ['/login', '/api', '/api/_sandbox/clock', '/api/v2/contacts', '/v1/api-key']) {
      expect(await echoed(fetch(`https://app.loops.so${path}`))).toMatchObject({ path });
      expect(await (await undiciRequest(`https://app.loops.so${path}`)).body.json()).toMatchObject({ path });
    }
    expect(platform.received).toHaveLength(10);
  });
});

describe('interceptLoops and the process dispatchers', () => {
  it("stands in front of each of undici's two dispatchers where they differ, and close() puts both back", async () => {
    const platform = await echoServer();
    platformAt(platform.origin);
    // A later undici reads the second symbol; a dispatcher kept there alone is answered too.
    const second = new Agent();
    store[DISPATCHER_2] = second;
    const before = [store[DISPATCHER_1], store[DISPATCHER_2]];
    const sandbox = await intercepted();
    expect(store[DISPATCHER_1]).not.toBe(before[0]);
    expect(store[DISPATCHER_2]).not.toBe(before[1]);
    const viaSecond = await (store[DISPATCHER_2] as Dispatcher).request({
      origin: 'https://app.loops.so',
      path: '/api/v1/api-key',
      method: 'GET',
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    expect([viaSecond.statusCode, await viaSecond.body.json()]).toEqual([200, expect.objectContaining({ success: true })]);
    await sandbox.close();
    open.splice(open.indexOf(sandbox), 1);
    expect([store[DISPATCHER_1], store[DISPATCHER_2]]).toEqual(before);
    expect(store[DISPATCHER_1]).toBe(before[0]);
    expect(store[DISPATCHER_2]).toBe(second);
    await second.close();
  });
});
