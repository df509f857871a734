/**
 * Requests through a real HTTP proxy started here (the `proxy` package: CONNECT tunnels, optional
 * Basic credentials): HTTPS_PROXY/HTTP_PROXY and --proxy, NO_PROXY for the API and, on its own, for
 * an upload's storage; a proxy that wants credentials, one whose CONNECT fails, one that is not there.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../support/api-server.js';
import { type FixtureSandbox, KEYS, startFixtureSandbox } from '../../support/fixture-sandbox.js';
import { run, tempDir } from '../../support/main.js';
import { spawnCli } from '../../support/run-cli.js';
import { hasOpenssl, selfSigned } from '../../support/tls.js';

interface TestProxy {
  url: string;
  /** The targets of the CONNECT requests it received, as host:port. */
  connects: string[];
  /** The Proxy-Authorization headers it received. */
  credentials: (string | undefined)[];
  close(): Promise<void>;
}

/** A proxy on loopback; with `user:password`, it answers 407 to any request without them. */
async function startProxy(userAndPassword?: string): Promise<TestProxy> {
  const proxy: ProxyServer = createProxy(createServer());
  const connects: string[] = [];
  const credentials: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  proxy.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  proxy.on('connect', (req) => {
    connects.push(req.url ?? '');
    credentials.push(req.headers['proxy-authorization']);
  });
  if (userAndPassword !== undefined) {
    proxy.authenticate = (req) => req.headers['proxy-authorization'] === `Basic ${Buffer.from(userAndPassword).toString('base64')}`;
  }
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    credentials,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

/** A port with nothing listening on it: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let api: FixtureSandbox;
let apiHost: string;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  api = await startFixtureSandbox();
  apiHost = new URL(api.url).host;
});
afterAll(() => api.close());
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function proxyFor(userAndPassword?: string): Promise<TestProxy> {
  const proxy = await startProxy(userAndPassword);
  closers.push(() => proxy.close());
  return proxy;
}

/**
 * `ips list` against the fixture sandbox, with the key in LOOPS_API_KEY. Retried as usual: the
 * sandbox keeps the API's rate limit, which runs this quick in a row can reach.
 */
function ipsList(env: Record<string, string>, flags: string[] = []) {
  return run([...flags, 'ips', 'list', '--plain'], { env: { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid, ...env } });
}

const IPS = '52.21.45.123\n2600:1f18:4a3::10\n';

describe('a proxy', () => {
  it('named by HTTP_PROXY (the API is http here) carries the requests, through a CONNECT tunnel', async () => {
    const proxy = await proxyFor();
    const result = await ipsList({ HTTP_PROXY: proxy.url });
    expect(result).toMatchObject({ code: 0, stdout: IPS, stderr: '' });
    expect(proxy.connects).toEqual([apiHost]);
  });

  it('named by the lower-case http_proxy, or by --proxy over the variables, carries them too', async () => {
    const lower = await proxyFor();
    expect(await ipsList({ http_proxy: lower.url })).toMatchObject({ code: 0, stdout: IPS });
    expect(lower.connects).toEqual([apiHost]);

    const flagged = await proxyFor();
    const result = await ipsList({ HTTP_PROXY: lower.url }, ['--proxy', flagged.url]);
    expect(result).toMatchObject({ code: 0, stdout: IPS });
    expect(flagged.connects).toEqual([apiHost]);
    expect(lower.connects).toEqual([apiHost]);
  });

  it('for https only (HTTPS_PROXY) leaves an http API direct', async () => {
    const proxy = await proxyFor();
    expect(await ipsList({ HTTPS_PROXY: proxy.url })).toMatchObject({ code: 0, stdout: IPS });
    expect(proxy.connects).toEqual([]);
  });

  it.each([
    ['the host', () => '127.0.0.1'],
    ['host and port', () => apiHost],
    ['a list with spaces', () => `example.com, ${apiHost}`],
    ['*', () => '*'],
  ])('is skipped for the API when NO_PROXY names it (%s)', async (_what, noProxy) => {
    const proxy = await proxyFor();
    const result = await ipsList({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy() }, ['--debug']);
    expect(result).toMatchObject({ code: 0, stdout: IPS });
    expect(result.stderr).toContain(`* ${apiHost}: direct, no proxy (NO_PROXY)`);
    expect(proxy.connects).toEqual([]);
  });

  it('is used when NO_PROXY names another port or host', async () => {
    const proxy = await proxyFor();
    expect(await ipsList({ HTTP_PROXY: proxy.url, no_proxy: '127.0.0.1:1,example.com' })).toMatchObject({ code: 0, stdout: IPS });
    expect(proxy.connects).toEqual([apiHost]);
  });

  it('that wants credentials gets them from its URL; --debug shows the proxy, never them', async () => {
    const proxy = await proxyFor('ops:s3cr%t');
    const result = await ipsList({ HTTP_PROXY: proxy.url.replace('//', '//ops:s3cr%25t@') }, ['--debug']);
    expect(result).toMatchObject({ code: 0, stdout: IPS });
    expect(proxy.credentials).toEqual([`Basic ${Buffer.from('ops:s3cr%t').toString('base64')}`]);
    expect(result.stderr).toContain(`* ${apiHost}: through the proxy ${proxy.url} (HTTP_PROXY)`);
    expect(result.stderr).not.toMatch(/s3cr|ops:/);
  });

  it('that wants credentials and gets none is exit 10, naming the proxy and what to do', async () => {
    const proxy = await proxyFor('ops:right');
    const result = await ipsList({ HTTP_PROXY: proxy.url });
    expect(result).toMatchObject({ code: 10, stdout: '' });
    expect(result.stderr).toBe(
      `Error: GET /v1/dedicated-sending-ips: the proxy ${proxy.url} (HTTP_PROXY) asks for credentials (HTTP 407 Proxy Authentication Required)\n` +
        "Hint: put them in the proxy's URL in HTTP_PROXY: http://user:password@host:port\n",
    );
  });

  it('that refuses the credentials given is exit 10, without printing them, also as JSON', async () => {
    const proxy = await proxyFor('ops:right');
    const result = await ipsList({ HTTP_PROXY: proxy.url.replace('//', '//ops:wrong-pass@') }, ['--json']);
    expect(result.code).toBe(10);
    expect(result.stderr).not.toContain('wrong-pass');
    expect(JSON.parse(result.stderr)).toMatchObject({
      error: {
        code: 'proxy',
        status: 407,
        message: expect.stringContaining('asks for credentials (HTTP 407 Proxy Authentication Required) and refused the ones given'),
        // A password is taken as written (see the test of one pasted unencoded): the hint asks to encode only what must be.
        hint: 'check the user name and password in HTTP_PROXY (they are taken as written, / and @ included; only a : in the user name needs encoding, as %3A)',
      },
    });
  });

  it('whose CONNECT to the API fails is exit 10, saying the proxy would not open the connection', async () => {
    const proxy = await proxyFor();
    const port = await closedPort();
    const result = await run(['ips', 'list', '--retries', '0'], {
      env: { LOOPS_BASE_URL: `http://127.0.0.1:${port}`, LOOPS_API_KEY: KEYS.valid, HTTP_PROXY: proxy.url },
    });
    expect(result.code).toBe(10);
    expect(result.stderr).toContain(`the proxy ${proxy.url} (HTTP_PROXY) would not open a connection to http://127.0.0.1:${port} (HTTP 500 to CONNECT)`);
    expect(result.stderr).toContain("Hint: ask the proxy's administrator to allow 127.0.0.1");
    expect(proxy.connects).toEqual([`127.0.0.1:${port}`]);
  });

  it('that is not there is exit 10, naming it and where it was set', async () => {
    const port = await closedPort();
    // --debug prints the stack traces too: the credentials are in none of them.
    const result = await ipsList({}, ['--debug', '--retries', '0', '--proxy', `http://user:hidden@127.0.0.1:${port}`]);
    expect(result.code).toBe(10);
    expect(result.stderr).toContain(`could not connect to the proxy http://127.0.0.1:${port} (--proxy)`);
    expect(result.stderr).toContain("Hint: check the proxy's address in --proxy, or unset it to connect directly");
    expect(result.stderr).not.toContain('hidden');
  });

  it('of a scheme loopsctl cannot use, or no URL at all, is a usage error before any request', async () => {
    const socks = await ipsList({ HTTP_PROXY: 'socks5://user:pw@127.0.0.1:1080' });
    expect(socks).toMatchObject({ code: 2, stderr: expect.stringContaining('HTTP_PROXY names a socks5 proxy') });
    expect(socks.stderr).not.toContain('pw');
    const broken = await ipsList({}, ['--proxy', 'http://[::1']);
    expect(broken).toMatchObject({ code: 2, stderr: expect.stringContaining('--proxy is not a URL') });
  });

  it('with a password pasted unencoded (/, ?, #, @) uses it, and prints it nowhere, --debug included', async () => {
    const proxy = await proxyFor('ops:a/b?c#d@e');
    const right = await ipsList({ HTTP_PROXY: proxy.url.replace('//', '//ops:a/b?c#d@e@') }, ['--debug']);
    expect(right).toMatchObject({ code: 0, stdout: IPS });
    expect(proxy.credentials).toEqual([`Basic ${Buffer.from('ops:a/b?c#d@e').toString('base64')}`]);
    expect(right.stderr).toContain(`through the proxy ${proxy.url} (HTTP_PROXY)`);
    expect(right.stderr).not.toMatch(/a\/b|ops:|c#d/);

    const wrong = await ipsList({ HTTP_PROXY: proxy.url.replace('//', '//ops:x/y?z#w@') }, ['--debug']);
    expect(wrong.code).toBe(10);
    expect(wrong.stderr).toContain(
      `the proxy ${proxy.url} (HTTP_PROXY) asks for credentials (HTTP 407 Proxy Authentication Required) and refused the ones given`,
    );
    expect(wrong.stderr).not.toMatch(/x\/y|z#w|ops:/);
  });

  it.each(['%zz', '50%off', '100%'])(
    'with a percent sign that starts no encoded character in the password (%s) is a usage error, nothing sent',
    async (password) => {
      const proxy = await proxyFor();
      const result = await ipsList({}, ['--debug', '--proxy', proxy.url.replace('//', `//ops:${password}@`)]);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toContain('Error: the user name or password in --proxy holds a % that does not start an encoded character (such as %40)');
      expect(result.stderr).toContain('Hint: percent-encode the % itself as %25');
      expect(result.stderr).not.toContain(password);
      expect(proxy.connects).toEqual([]);
    },
  );

  it('is never used for the built-in sandbox, which runs in this process', async () => {
    const proxy = await proxyFor();
    const result = await run(['--sandbox', 'ips', 'list', '--plain'], { env: { HTTP_PROXY: proxy.url } });
    expect(result.code).toBe(0);
    expect(proxy.connects).toEqual([]);
  });
});

/** A server on loopback that accepts connections and never answers, and says when one arrives. */
async function startSilentProxy(): Promise<{ url: string; connected: Promise<void> }> {
  const sockets = new Set<Socket>();
  let arrived!: () => void;
  const connected = new Promise<void>((resolve) => (arrived = resolve));
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connected };
}

describe('a proxy that accepts the connection and never answers CONNECT', () => {
  it('ends the run at --timeout, saying no answer came', async () => {
    const silent = await startSilentProxy();
    const result = await ipsList({}, ['--proxy', silent.url, '--timeout', '1', '--retries', '0']);
    expect(result).toMatchObject({ code: 7, stdout: '' });
    expect(result.stderr).toContain('Error: GET /v1/dedicated-sending-ips: no answer within the 1 s timeout (--timeout)');
    expect(result.stderr).toContain(`Hint: the API, or the proxy ${silent.url} (--proxy), may be slow or unreachable`);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('ends the process on %s while it waits', async (signal) => {
    const silent = await startSilentProxy();
    const result = await spawnCli(['ips', 'list', '--proxy', silent.url, '--timeout', '600', '--retries', '0'], {
      env: { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid },
      onSpawn: (child) => void silent.connected.then(() => child.kill(signal)),
    });
    expect(result).toMatchObject({ code: 130, stdout: '', stderr: 'Error: interrupted\n' });
  });
});

describe('an upload through a proxy', () => {
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

  /** An API whose presigned URLs point at a storage server of their own, on another port. */
  async function apiWithStorage() {
    const storage = await startApiServer({ 'PUT /bucket/:id': (_req, res) => json(res, 200, {}) });
    const apiServer = await startApiServer({
      'POST /v1/uploads': (_req, res) => json(res, 200, { emailAssetId: 'asset1', presignedUrl: `${storage.url}/bucket/asset1?signature=abc` }),
      'POST /v1/uploads/:id/complete': (_req, res) => json(res, 200, { emailAssetId: 'asset1', finalUrl: 'https://assets.example/asset1.png' }),
    });
    closers.push(
      () => storage.close(),
      () => apiServer.close(),
    );
    const file = join(tempDir(), 'logo.png');
    writeFileSync(file, PNG);
    return { storage, apiServer, file };
  }

  it('goes through it to the storage too, and NO_PROXY exempts the storage on its own', async () => {
    const { storage, apiServer, file } = await apiWithStorage();
    const storageHost = new URL(storage.url).host;
    const apiServerHost = new URL(apiServer.url).host;
    const env = { LOOPS_BASE_URL: apiServer.url, LOOPS_API_KEY: KEYS.valid };

    const both = await proxyFor();
    expect(await run(['uploads', 'create', file, '--json'], { env: { ...env, HTTP_PROXY: both.url } })).toMatchObject({ code: 0 });
    expect(both.connects).toEqual([apiServerHost, storageHost]);

    const apiOnly = await proxyFor();
    const result = await run(['uploads', 'create', file, '--json', '--debug'], { env: { ...env, HTTP_PROXY: apiOnly.url, NO_PROXY: storageHost } });
    expect(result.code).toBe(0);
    expect(apiOnly.connects).toEqual([apiServerHost]);
    expect(storage.requests.map((request) => request.method)).toEqual(['PUT', 'PUT']);
    expect(result.stderr).toContain(`* ${storageHost}: direct, no proxy (NO_PROXY)`);
  });
});

describe('an https API through HTTPS_PROXY', () => {
  /**
   * The real case (https://app.loops.so behind a corporate proxy): TLS to the API inside the
   * tunnel. The API here is an https server with a certificate made for the test, which the
   * spawned binary trusts through NODE_EXTRA_CA_CERTS.
   */
  it('goes through the tunnel with TLS to the API, and directly with node:https when NO_PROXY says so', async (context) => {
    if (!hasOpenssl) {
      console.warn('skipped: openssl could not make a test certificate (no openssl on this machine)');
      context.skip();
    }
    const { key, cert } = selfSigned();
    // The CLI trusts the certificate through NODE_EXTRA_CA_CERTS, which names a file.
    const certFile = join(tempDir('loopsctl-tls-'), 'cert.pem');
    writeFileSync(certFile, cert);
    const seen: string[] = [];
    const api = createHttpsServer({ key, cert }, (req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('["52.21.45.123"]');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => api.close(() => resolve())));
    const apiUrl = `https://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const proxy = await proxyFor('ops:pw');
    const env = { LOOPS_BASE_URL: apiUrl, LOOPS_API_KEY: KEYS.valid, NODE_EXTRA_CA_CERTS: certFile, HTTPS_PROXY: proxy.url.replace('//', '//ops:pw@') };

    const proxied = await spawnCli(['ips', 'list', '--plain'], { env });
    expect(proxied).toMatchObject({ code: 0, stdout: '52.21.45.123\n', stderr: '' });
    expect(proxy.connects).toEqual([new URL(apiUrl).host]);
    expect(seen).toEqual([`GET /v1/dedicated-sending-ips Bearer ${KEYS.valid}`]);

    const direct = await spawnCli(['ips', 'list', '--plain'], { env: { ...env, NO_PROXY: '127.0.0.1' } });
    expect(direct).toMatchObject({ code: 0, stdout: '52.21.45.123\n' });
    expect(proxy.connects).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });
});
