/**
 * The one fetcher for outside addresses (src/api/fetcher.ts), against hosts on loopback and a
 * public internet of the test's own (test/support/link-hosts.ts: public addresses that stand for
 * loopback hosts, and a resolver whose answers the test writes): a name judged once a run and
 * connected to at the address judged (a second DNS answer reaches nothing), refused addresses never
 * reached, each redirect judged, and slow, endless and huge answers bounded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, Fetcher, type FetcherSettings, failureOf, RefusedAddressError, walkRedirects } from '../../../src/api/fetcher.js';
import { ConnectionPool } from '../../../src/base/node-http.js';
import { endless, type LinkHost, page, publicNetwork, redirect, silent, startLinkHost, testResolver } from '../../support/link-hosts.js';

const SETTINGS: FetcherSettings = { userAgent: 'loopsctl/test', timeoutMs: 5_000, allowPrivate: false };
const PUBLIC = '93.184.216.34';
const OTHER_PUBLIC = '151.101.1.69';

describe('the fetcher for outside addresses', () => {
  const closing: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const each of closing.splice(0).reverse()) await each.close();
  });
  const host = async () => {
    const started = await startLinkHost();
    closing.push(started);
    return started;
  };
  const fetcher = (settings: Partial<FetcherSettings>) => {
    const made = new Fetcher({ ...SETTINGS, ...settings });
    closing.push(made);
    return made;
  };
  const get = (through: Fetcher, url: string, limit = 64 * 1024) => through.send(url, { method: 'GET', limit });
  const port = (linkHost: LinkHost) => new URL(linkHost.origin).port;

  it('connects to the address it judged, never to a second DNS answer (DNS rebinding)', async () => {
    const outside = await host();
    outside.route('/news', page);
    const inside = await host();
    inside.route('/news', page);
    // The name's first answer is public; every later one is the machine itself.
    const dns = testResolver({ 'rebind.example': [[PUBLIC], ['127.0.0.1']] });
    const network = publicNetwork({ [PUBLIC]: outside });
    const run = fetcher({ resolve: dns.resolve, pool: network.pool });
    // The address names the inside host's port: a connection to 127.0.0.1 would reach it.
    const address = `http://rebind.example:${port(inside)}/news`;
    for (let time = 0; time < 3; time += 1) expect((await get(run, address)).status).toBe(200);
    expect(dns.asked.get('rebind.example')).toBe(1);
    expect(network.connected).toEqual([PUBLIC, PUBLIC, PUBLIC]);
    expect(outside.requests.map((request) => request.headers.host)).toEqual(Array(3).fill(`rebind.example:${port(inside)}`));
    expect(inside.requests).toEqual([]);
    // The next run resolves it again, and refuses what it now answers.
    const next = fetcher({ resolve: dns.resolve, pool: network.pool });
    await expect(get(next, address)).rejects.toThrow(
      new RefusedAddressError(`http://rebind.example:${port(inside)}/news`, 'a loopback address (127.0.0.0/8), which rebind.example resolves to'),
    );
    expect(inside.requests).toEqual([]);
  });

  it('refuses a name when any address it resolves to is not public', async () => {
    const inside = await host();
    inside.route('/', page);
    const dns = testResolver({ 'mixed.example': [[PUBLIC, '10.1.2.3']], 'v6.example': [['fd00::5']], 'mapped.example': [['::ffff:169.254.169.254']] });
    const network = publicNetwork({ [PUBLIC]: inside, '10.1.2.3': inside, 'fd00::5': inside, '::ffff:169.254.169.254': inside });
    const run = fetcher({ resolve: dns.resolve, pool: network.pool });
    expect(await run.judge('http://mixed.example/')).toEqual({ refused: 'a private address (10.0.0.0/8), which mixed.example resolves to' });
    expect(await run.judge('https://v6.example/')).toEqual({ refused: 'a private (unique local) address (fc00::/7), which v6.example resolves to' });
    expect(await run.judge('https://mapped.example/')).toEqual({
      refused: 'a link-local address (169.254.0.0/16), written as ::ffff:169.254.169.254, which mapped.example resolves to',
    });
    for (const name of ['mixed', 'v6', 'mapped']) await expect(get(run, `http://${name}.example/`)).rejects.toThrow(RefusedAddressError);
    expect(network.connected).toEqual([]);
    expect(inside.requests).toEqual([]);
  });

  it('refuses loopback written every way a URL can write it, and fetches it only when allowed', async () => {
    const inside = await host();
    inside.route('/admin', page);
    const at = port(inside);
    const run = fetcher({});
    for (const address of [
      `http://127.0.0.1:${at}/admin`,
      `http://2130706433:${at}/admin`,
      `http://0x7f.1:${at}/admin`,
      `http://127.1:${at}/admin`,
      `http://[::ffff:127.0.0.1]:${at}/admin`,
      `http://[::1]:${at}/admin`,
      `http://localhost:${at}/admin`,
      `http://api.localhost:${at}/admin`,
    ])
      await expect(get(run, address), address).rejects.toThrow(RefusedAddressError);
    expect(inside.requests).toEqual([]);
    const allowed = fetcher({ allowPrivate: true });
    expect((await get(allowed, `http://127.0.0.1:${at}/admin`)).status).toBe(200);
    expect((await get(allowed, `http://[::ffff:127.0.0.1]:${at}/admin`)).status).toBe(200);
    expect(inside.requests).toHaveLength(2);
  });

  it("judges each redirect's target: a public page sent on to a private name or address is not followed", async () => {
    const outside = await host();
    const inside = await host();
    inside.route('/admin', page);
    outside.route('/to-name', redirect(`http://intranet.example:${port(inside)}/admin`));
    outside.route('/to-address', redirect(`http://127.0.0.1:${port(inside)}/admin`));
    outside.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/'));
    outside.route('/to-public', redirect(`http://cdn.example:${port(inside)}/admin`));
    const dns = testResolver({ 'news.example': [[PUBLIC]], 'intranet.example': [['10.0.0.8']], 'cdn.example': [[OTHER_PUBLIC]] });
    const network = publicNetwork({ [PUBLIC]: outside, '10.0.0.8': inside, [OTHER_PUBLIC]: inside });
    const run = fetcher({ resolve: dns.resolve, pool: network.pool });
    const walk = (path: string) =>
      walkRedirects(run, `http://news.example:${port(outside)}${path}`, async (url) => {
        const answer = await get(run, url);
        return { answer, status: answer.status, location: answer.headers.location };
      });
    expect(await walk('/to-name')).toMatchObject({
      kind: 'unsafe-redirect',
      to: `http://intranet.example:${port(inside)}`,
      reason: 'a private address (10.0.0.0/8), which intranet.example resolves to, which a public address must never lead to',
    });
    expect(await walk('/to-address')).toMatchObject({ kind: 'unsafe-redirect', reason: expect.stringMatching(/^a loopback address/) });
    expect(await walk('/to-metadata')).toMatchObject({ kind: 'unsafe-redirect', reason: expect.stringMatching(/^a link-local address/) });
    expect(inside.requests).toEqual([]);
    // A redirect to another public host is followed, and judged there too.
    expect(await walk('/to-public')).toMatchObject({ kind: 'answered', url: `http://cdn.example:${port(inside)}/admin` });
    expect(inside.requests).toHaveLength(1);
    expect(network.connected.filter((address) => address !== PUBLIC)).toEqual([OTHER_PUBLIC]);
  });

  it('bounds a slow answer, a body that trickles, an endless body and a huge one', async () => {
    const web = await host();
    const huge = endless();
    web.route('/silent', silent);
    web.route('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      // A byte every 50 ms: each pause is short, the whole never ends.
      const timer = setInterval(() => res.write('x'), 50);
      res.once('close', () => clearInterval(timer));
    });
    web.route('/endless', huge.route);
    web.route('/announced', (_req, res) => res.writeHead(200, { 'content-length': String(50 * 1024 ** 3) }).end());
    const run = fetcher({ allowPrivate: true, timeoutMs: 400 });
    expect(failureOf(await get(run, `${web.origin}/silent`).catch((error: unknown) => error))).toMatchObject({ failure: 'timeout' });
    expect(failureOf(await get(run, `${web.origin}/trickle`).catch((error: unknown) => error))).toMatchObject({ failure: 'timeout' });
    const endlessAnswer: Answer = await get(run, `${web.origin}/endless`, 1024 * 1024);
    expect([endlessAnswer.status, endlessAnswer.body]).toEqual([200, undefined]);
    await huge.ended;
    expect(huge.sent()).toBeLessThan(64 * 1024 * 1024);
    const announced = await get(run, `${web.origin}/announced`);
    expect([announced.status, announced.body]).toEqual([200, undefined]);
  });

  it('gives up on a name that does not resolve in time', async () => {
    const run = fetcher({ timeoutMs: 200, resolve: () => new Promise(() => undefined) });
    expect(failureOf(await get(run, 'http://never.example/').catch((error: unknown) => error))).toMatchObject({ failure: 'timeout' });
  });
});

describe('a connection to the address judged', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    server = undefined;
  });

  it('reaches the address given whatever the name, which is sent but never looked up', async () => {
    const hosts: string[] = [];
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port: at } = server.address() as AddressInfo;
    const pool = new ConnectionPool({ connections: 1, keepAliveTimeout: 1_000, connectTimeout: 5_000 });
    let closed = 0;
    try {
      // `.invalid` never resolves (RFC 6761): only the address given can be reached.
      const response = await pool.request(`http://pinned.invalid:${at}/`, {
        method: 'GET',
        headers: {},
        connectTo: [{ address: '127.0.0.1', family: 4 }],
        onClose: () => (closed += 1),
      });
      expect(await response.text(100)).toBe('ok');
      await expect.poll(() => closed).toBe(1);
      // Each address judged is tried in turn: nothing listens on ::1 here, the next answers (a new
      // pool, whose connection is new).
      await pool.close();
      const next = await pool.request(`http://pinned.invalid:${at}/`, {
        method: 'GET',
        headers: {},
        connectTo: [
          { address: '::1', family: 6 },
          { address: '127.0.0.1', family: 4 },
        ],
      });
      expect(await next.text(100)).toBe('ok');
      expect(hosts).toEqual([`pinned.invalid:${at}`, `pinned.invalid:${at}`]);
    } finally {
      await pool.close();
    }
  });
});
