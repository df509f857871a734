/**
 * Fetching the links and images of emails, bounded: at most 2 requests at a time to one host and 8
 * in all, each address fetched once per run, each request under the time limit, through the proxy
 * settings, carrying nothing but a plain user agent (no key, no cookie). A link is asked with HEAD,
 * then with a ranged GET of its first kilobyte where HEAD is refused; an image with a ranged GET of
 * the bytes that say its type and size. No body is read further than that, whatever its length.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ConnectionPool, type RequestPool } from '../../../base/node-http.js';
import { Deadlines } from '../../../api/deadline.js';
import { proxyFor, type ProxySettings } from '../../../api/proxy.js';
import { proxyPool } from '../../../api/proxy-pool.js';
import { sniffImage, type Sniffed } from './images.js';

export const MAX_PER_HOST = 2;
export const MAX_IN_ALL = 8;
/** Redirects followed at most, as browsers and curl stop a loop. */
export const MAX_REDIRECTS = 5;
/** What a link's ranged GET reads: enough to know it answers. */
const LINK_BYTES = 1024;
/** What an image's ranged GET reads: enough for any format's header, with its width. */
export const IMAGE_BYTES = 64 * 1024;

export interface ProbeSettings {
  userAgent: string;
  /** Per request, in milliseconds. */
  timeoutMs: number;
  proxy?: ProxySettings;
  signal?: AbortSignal;
  /** Fetch links to loopback and private addresses, which are otherwise reported and left alone. */
  allowPrivate: boolean;
  debug?: (line: string) => void;
  /** Makes the pool requests go through (tests give one that trusts their certificate authority); by default Node's, direct or through the proxy. */
  pool?: (proxyUrl: string | undefined) => RequestPool;
}

/**
 * One answer of one address. An image's first bytes are kept as what they say it is, never as
 * bytes: a run of 10,000 images holds a few numbers of each, not 64 KB.
 */
type Hop =
  | { status: number; location?: string; contentType: string; length?: number; sniffed?: Sniffed }
  | { failure: 'timeout' | 'tls' | 'unreachable'; reason: string };

/** Where a link or an image's address led. */
export type Verdict =
  | { kind: 'answered'; status: number; url: string; contentType: string; length?: number; sniffed?: Sniffed; downgraded: boolean }
  | { kind: 'failed'; failure: 'timeout' | 'tls' | 'unreachable'; reason: string; url: string }
  | { kind: 'loop'; url: string }
  | { kind: 'too-many-redirects'; url: string }
  | { kind: 'unsafe-redirect'; url: string; to: string; reason: string };

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/** An address is private: loopback, a private or link-local range, `localhost`. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped !== undefined) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  if (family === 6) return PRIVATE.check(bare, 'ipv6');
  const name = bare.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** A counting semaphore: take() waits for a slot and gives back its release. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  async take(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next === undefined) this.free += 1;
      else next();
    };
  }
}

function failureOf(error: unknown, timedOut: boolean): Hop {
  const { code = '', message = '' } = error as { code?: string; message?: string };
  if (timedOut || /TIMEOUT/.test(code)) return { failure: 'timeout', reason: 'no answer in time' };
  if (/CERT|SSL|TLS/.test(code) || /certificate/i.test(message)) return { failure: 'tls', reason: [message, code].filter(Boolean).join(', ') };
  return { failure: 'unreachable', reason: [message, code].filter(Boolean).join(', ') };
}

export class Prober {
  private readonly hosts = new Map<string, Slots>();
  private readonly all = new Slots(MAX_IN_ALL);
  private readonly pools = new Map<string, RequestPool>();
  private readonly answers = new Map<string, Promise<Hop>>();
  private readonly verdicts = new Map<string, Promise<Verdict>>();
  private readonly deadlines: Deadlines;

  constructor(private readonly settings: ProbeSettings) {
    this.deadlines = new Deadlines(settings.signal);
  }

  /** Where the address leads, asked once per run however many emails hold it. */
  verdict(address: string, as: 'link' | 'image'): Promise<Verdict> {
    const key = `${as} ${address}`;
    let known = this.verdicts.get(key);
    if (known === undefined) {
      known = this.follow(address, as);
      this.verdicts.set(key, known);
    }
    return known;
  }

  /** A link to loopback or a private address, by its name or by what the name resolves to. */
  async isPrivateLink(address: string): Promise<boolean> {
    return isPrivateAddress(new URL(address).hostname) || (await this.resolvesPrivate(address));
  }

  async close(): Promise<void> {
    this.deadlines.close();
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }

  private async follow(address: string, as: 'link' | 'image'): Promise<Verdict> {
    const publicLink = !(await this.isPrivateLink(address));
    const passed = new Set<string>();
    let url = address;
    let downgraded = false;
    for (let redirects = 0; ; redirects += 1) {
      passed.add(url);
      const hop = await this.answer(url, as);
      if ('failure' in hop) return { kind: 'failed', failure: hop.failure, reason: hop.reason, url };
      const next = hop.status >= 300 && hop.status < 400 && hop.location !== undefined ? nextAddress(hop.location, url) : undefined;
      if (next === undefined)
        return { kind: 'answered', status: hop.status, url, contentType: hop.contentType, length: hop.length, sniffed: hop.sniffed, downgraded };
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        return { kind: 'unsafe-redirect', url, to: `${next.protocol}…`, reason: `a ${next.protocol.slice(0, -1)}: address, which no link may lead to` };
      if (passed.has(next.href)) return { kind: 'loop', url: next.href };
      if (redirects + 1 > MAX_REDIRECTS) return { kind: 'too-many-redirects', url: next.href };
      if (publicLink && (isPrivateAddress(next.hostname) || (await this.resolvesPrivate(next.href))))
        return { kind: 'unsafe-redirect', url, to: next.origin, reason: 'a private address, which a public link must never lead to' };
      if (new URL(url).protocol === 'https:' && next.protocol === 'http:') downgraded = true;
      url = next.href;
    }
  }

  /** Whether a host reached directly resolves to a private address (a proxy resolves what it reaches itself). */
  private async resolvesPrivate(address: string): Promise<boolean> {
    const { hostname } = new URL(address);
    if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0 || this.proxyOf(address) !== undefined) return false;
    try {
      return (await lookup(hostname, { all: true })).some(({ address: resolved }) => isPrivateAddress(resolved));
    } catch {
      // A name that does not resolve is reported when it is fetched.
      return false;
    }
  }

  private proxyOf(address: string): string | undefined {
    return this.settings.proxy === undefined ? undefined : proxyFor(address, this.settings.proxy).proxy?.url;
  }

  private poolOf(address: string): RequestPool {
    const proxy = this.proxyOf(address);
    const key = proxy ?? '';
    let pool = this.pools.get(key);
    if (pool === undefined) {
      const options = { connections: MAX_PER_HOST, keepAliveTimeout: 1_000, connectTimeout: this.settings.timeoutMs };
      pool = this.settings.pool?.(proxy) ?? (proxy === undefined ? new ConnectionPool(options) : proxyPool(proxy, options));
      this.pools.set(key, pool);
    }
    return pool;
  }

  private answer(url: string, as: 'link' | 'image'): Promise<Hop> {
    const key = `${as} ${url}`;
    let known = this.answers.get(key);
    if (known === undefined) {
      known =
        as === 'image'
          ? this.ask(url, 'GET', IMAGE_BYTES, true)
          : this.ask(url, 'HEAD', 0).then((head) => (refusesHead(head) ? this.ask(url, 'GET', LINK_BYTES) : head));
      this.answers.set(key, known);
    }
    return known;
  }

  /** One request, within the host's and the run's bounds and the time limit; an image's bytes read for what they are. */
  private async ask(url: string, method: 'HEAD' | 'GET', bytes: number, image = false): Promise<Hop> {
    const releaseHost = await this.slotsOf(new URL(url).host).take();
    const release = await this.all.take();
    // One timer, cleared as the request ends, that an interrupt also ends: no AbortSignal.any tied to the run's signal per request.
    const deadline = this.deadlines.start(this.settings.timeoutMs);
    try {
      this.settings.debug?.(`> ${method} ${new URL(url).origin}… (no authorization, no cookie)`);
      const headers: Record<string, string> = { 'user-agent': this.settings.userAgent };
      if (method === 'GET') headers.range = `bytes=0-${bytes - 1}`;
      const response = await this.poolOf(url).request(url, {
        method,
        headers,
        headersTimeout: this.settings.timeoutMs,
        bodyTimeout: this.settings.timeoutMs,
        signal: deadline,
      });
      // Never more than asked for: a server that ignores the range has its connection ended there.
      // A HEAD's empty body is read too, which gives its connection back to the pool.
      const read = await response.bytes(bytes).catch(() => undefined);
      const sniffed = image && read !== undefined ? sniffImage(read) : undefined;
      const location = response.headers.location;
      return {
        status: response.statusCode,
        contentType: String(response.headers['content-type'] ?? ''),
        ...(location === undefined ? {} : { location }),
        ...lengthOf(response.statusCode, response.headers),
        ...(sniffed === undefined ? {} : { sniffed }),
      };
    } catch (error) {
      if (this.settings.signal?.aborted) throw error;
      return failureOf(error, deadline.expired);
    } finally {
      deadline.clear();
      release();
      releaseHost();
    }
  }

  private slotsOf(host: string): Slots {
    let slots = this.hosts.get(host);
    if (slots === undefined) {
      slots = new Slots(MAX_PER_HOST);
      this.hosts.set(host, slots);
    }
    return slots;
  }
}

/** Servers that do not take HEAD answer it 405 or 501, or as an error page: a ranged GET is asked then. */
const refusesHead = (hop: Hop) => !('failure' in hop) && hop.status >= 400;

/** The whole length of what answered: a range's total (`bytes 0-1023/52311`), or the length of a whole answer. */
function lengthOf(status: number, headers: Record<string, string | string[] | undefined>): { length?: number } {
  const total = /\/(\d+)\s*$/.exec(String(headers['content-range'] ?? ''))?.[1];
  if (status === 206 && total !== undefined) return { length: Number(total) };
  const length = Number(headers['content-length']);
  return status !== 206 && Number.isFinite(length) && String(headers['content-length'] ?? '') !== '' ? { length } : {};
}

function nextAddress(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}
