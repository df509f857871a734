/**
 * The bounds of fetching links (src/areas/check/links/probe.ts), counted at hosts on loopback: at
 * most 2 requests at a time to a host and the bound in all; an https link that lands on http; a public link
 * redirected to a private address, through a proxy, not followed; addresses private by name.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Prober, type ProbeSettings } from '../../../../src/areas/check/links/probe.js';
import { ConnectionPool } from '../../../../src/base/node-http.js';
import { refusedAsWritten } from '../../../../src/base/outside-address.js';
import { InFlight, type LinkHost, page, publicNetwork, type Route, redirect, silent, startLinkHost, testResolver } from '../../../support/link-hosts.js';
import { hasOpenssl, selfSigned } from '../../../support/tls.js';

const SETTINGS: ProbeSettings = { userAgent: 'loopsctl/test', timeoutMs: 5_000, allowPrivate: true };

describe('fetching links, bounded', () => {
  const closing: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const each of closing.splice(0)) await each.close();
  });
  const host = async (inFlight?: InFlight, tls?: { key: string; cert: string }) => {
    const started = await startLinkHost({ ...(inFlight === undefined ? {} : { inFlight }), ...(tls === undefined ? {} : { tls }) });
    closing.push(started);
    return started;
  };

  it('never has more than 2 requests in flight at a host, nor the bound in all, counted at the hosts', async () => {
    const inFlight = new InFlight();
    const hosts: LinkHost[] = [];
    for (let index = 0; index < 5; index += 1) hosts.push(await host(inFlight));
    // Each answer is held a moment (or until all 50 have come): requests pile up as far as the prober lets them.
    const held: (() => void)[] = [];
    let arrived = 0;
    const release = () => held.splice(0).forEach((answer) => answer());
    for (const each of hosts)
      for (let path = 0; path < 10; path += 1)
        each.route(`/page/${path}`, (req, res) => {
          held.push(() => page(req, res));
          arrived += 1;
          if (arrived === 50) release();
          else setTimeout(release, 30);
        });
    // A bound in all under the 10 the five hosts would take together.
    const prober = new Prober({ ...SETTINGS, inAll: 6 });
    closing.push(prober);
    const verdicts = await Promise.all(hosts.flatMap((each) => Array.from({ length: 10 }, (_, path) => prober.verdict(`${each.origin}/page/${path}`, 'link'))));
    expect(verdicts.every((verdict) => verdict.kind === 'answered' && verdict.status === 200)).toBe(true);
    for (const each of hosts) expect(each.most).toBeLessThanOrEqual(2);
    expect(inFlight.most).toBeLessThanOrEqual(6);
    // Requests did run side by side: the bounds were met, not a queue of one.
    expect(inFlight.most).toBeGreaterThan(2);
  });

  it('counts a host by its address: the names and ports that lead to it share its 2, redirects and HEAD-then-GET among them', async () => {
    const site = await host();
    const held: (() => void)[] = [];
    const hold =
      (answer: Route): Route =>
      (req, res) => {
        held.push(() => answer(req, res));
        setTimeout(() => held.splice(0).forEach((each) => each()), 20);
      };
    for (let path = 0; path < 8; path += 1) {
      site.route(`/page/${path}`, hold(page));
      site.route(`/moved/${path}`, hold(redirect(`http://www.acme.example:8080/page/${path}`)));
      site.route(
        `/no-head/${path}`,
        hold((req, res) => (req.method === 'HEAD' ? res.writeHead(405).end() : page(req, res))),
      );
    }
    // One public address behind three names; the host is reached at it whatever port the address names.
    const dns = testResolver({ 'acme.example': [['93.184.216.34']], 'www.acme.example': [['93.184.216.34']], 'news.acme.example': [['93.184.216.34']] });
    const prober = new Prober({ ...SETTINGS, allowPrivate: false, resolve: dns.resolve, pool: publicNetwork({ '93.184.216.34': site }).pool });
    closing.push(prober);
    const addresses = Array.from({ length: 8 }, (_, path) => [
      `http://acme.example/page/${path}`,
      `http://www.acme.example:8080/moved/${path}`,
      `http://news.acme.example:8443/no-head/${path}`,
    ]).flat();
    const verdicts = await Promise.all(addresses.map((address) => prober.verdict(address, 'link')));
    expect(verdicts.map((verdict) => [verdict.kind, (verdict as { status?: number }).status])).toEqual(addresses.map(() => ['answered', 200]));
    expect(site.requests.length).toBeGreaterThan(addresses.length);
    expect(site.most).toBe(2);
  });

  it('asks an address once, however many emails hold it, and goes on past a host that never answers', async () => {
    const web = await host();
    web.route('/ok', page);
    web.route('/silent', silent);
    const prober = new Prober({ ...SETTINGS, timeoutMs: 300 });
    closing.push(prober);
    const [first, second, quiet] = await Promise.all([
      prober.verdict(`${web.origin}/ok`, 'link'),
      prober.verdict(`${web.origin}/ok`, 'link'),
      prober.verdict(`${web.origin}/silent`, 'link'),
    ]);
    expect(first).toBe(second);
    expect(quiet).toMatchObject({ kind: 'failed', failure: 'timeout' });
    expect(web.requests.filter((request) => request.path === '/ok')).toHaveLength(1);
  });

  it.skipIf(!hasOpenssl)('tells an https link that lands on http; a host whose certificate is not trusted is a TLS failure', async () => {
    const tls = selfSigned();
    const web = await host();
    web.route('/plain', page);
    const secure = await host(undefined, tls);
    secure.route('/moved', redirect(`${web.origin}/plain`));
    // A pool that trusts the test's certificate, as a machine trusts a real one.
    const trusting = new Prober({
      ...SETTINGS,
      pool: () =>
        new ConnectionPool(
          { connections: 2, keepAliveTimeout: 1_000, connectTimeout: 5_000 },
          {
            agent: (protocol, options) => (protocol === 'https:' ? new HttpsAgent({ ...options, ca: tls.cert }) : new HttpAgent(options)),
            close: () => undefined,
          },
        ),
    });
    closing.push(trusting);
    expect(await trusting.verdict(`${secure.origin}/moved`, 'link')).toMatchObject({
      kind: 'answered',
      status: 200,
      url: `${web.origin}/plain`,
      downgraded: true,
    });
    const untrusting = new Prober(SETTINGS);
    closing.push(untrusting);
    expect(await untrusting.verdict(`${secure.origin}/moved`, 'link')).toMatchObject({ kind: 'failed', failure: 'tls' });
  });

  it('does not follow a public link redirected to a private address, through the proxy settings', async () => {
    const web = await host();
    web.route('/go', redirect(`${web.origin}/admin`));
    web.route('/admin', page);
    web.route('/fine', page);
    // A proxy that tunnels every CONNECT to the web host, as if it were news.example.
    const tunnels: string[] = [];
    const proxy: Server = createServer((client) => {
      client.once('data', (head) => {
        tunnels.push(head.toString('latin1').split('\r\n')[0]!);
        const { port } = new URL(web.origin);
        const upstream = connect(Number(port), '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection established\r\n\r\n');
          client.pipe(upstream).pipe(client);
        });
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    closing.push({ close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) });
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const prober = new Prober({ ...SETTINGS, allowPrivate: false, proxy: { flag: proxyUrl, env: {} } });
    closing.push(prober);
    expect(await prober.verdict('http://news.example/go', 'link')).toMatchObject({ kind: 'unsafe-redirect', to: web.origin });
    expect(await prober.verdict('http://news.example/fine', 'link')).toMatchObject({ kind: 'answered', status: 200 });
    expect(tunnels[0]).toBe('CONNECT news.example:80 HTTP/1.1');
    expect(web.requests.map((request) => request.path).sort()).toEqual(['/fine', '/go']);
    for (const request of web.requests) expect(request.headers.authorization).toBeUndefined();
  });

  it('knows private addresses by name and by range', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.1',
      '169.254.169.254',
      '[::1]',
      'fd00::1',
      '::ffff:10.0.0.1',
      'localhost',
      'api.localhost',
    ])
      expect([address, refusedAsWritten(address) !== undefined]).toEqual([address, true]);
    for (const address of ['8.8.8.8', '172.32.0.1', '[2606:4700::1111]', 'acme.example', 'localhost.example.com'])
      expect([address, refusedAsWritten(address) !== undefined]).toEqual([address, false]);
  });
});
