/**
 * The one way loopsctl fetches an address that came from content or a user: the links and images
 * of `check --links`, the images `content convert --upload` carries into the account's storage,
 * what an email loads in `content review --screenshots` and in `content preview`.
 *
 * - Each host's name is resolved once a run, and every address it resolves to judged
 *   (src/base/outside-address.ts): loopback, private, shared, link-local, multicast and reserved
 *   addresses, IPv4 and IPv6, are refused unless the person allows them (--allow-private-links).
 *   What is refused is never fetched: the caller lists it.
 * - The connection goes to the address judged: the name is sent (Host, TLS's server name) but
 *   never looked up again, so a second DNS answer (DNS rebinding) cannot move it elsewhere.
 * - Every request judges its own address, so each redirect's target is judged as the first was
 *   (`walkRedirects` follows them, at most MAX_REDIRECTS, to http(s) addresses only).
 * - Each request is bounded: the whole of it (connecting, the headers, the body) within the
 *   timeout, no body read past its limit, at most PER_HOST requests at a time at one host (its
 *   address, whatever name and port lead there; on loopback each port is a server of its own; a
 *   request counts from before it connects until its connection is given back or closed) and
 *   IN_ALL in all. It carries a plain user agent: no key, no cookie.
 *
 * Through a proxy the proxy resolves names and connects: only addresses written as refused ones,
 * and `localhost`, are refused then, and a host is counted by its name.
 *
 * A host that notices a closed connection only when it next writes to it (a server of a thread per
 * request, sending a body without end) may count a request loopsctl ended as still in flight.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { builtinModule } from '../base/builtin.js';
import { InterruptedError } from '../base/errors.js';
import { ConnectionPool, type RequestPool } from '../base/node-http.js';
import { refusedAddress, refusedAsWritten } from '../base/outside-address.js';
import { Deadlines } from './deadline.js';
import { type ProxySettings, proxyFor } from './proxy.js';
import { proxyPool } from './proxy-pool.js';

/** At most this many requests at a time at one host: links, images, HEAD then GET, and redirects counted together. */
export const PER_HOST = 2;
/** At most this many requests at a time in all. */
export const IN_ALL = 32;
/** Redirects followed at most, as browsers and curl stop a loop. */
export const MAX_REDIRECTS = 5;
/** What is read of an answer that is not a success: enough for its first words. */
const ERROR_PAGE_BYTES = 64 * 1024;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** What a name resolves to: every address, as the system's resolver answers (dns.lookup with `all`). */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface FetcherSettings {
  userAgent: string;
  /** Per request, in milliseconds: the whole of it, its name's resolving included. */
  timeoutMs: number;
  /** Fetch loopback, private and reserved addresses too (--allow-private-links). */
  allowPrivate: boolean;
  proxy?: ProxySettings;
  signal?: AbortSignal;
  debug?: (line: string) => void;
  /** The resolver (tests give one); by default the system's. */
  resolve?: Resolver;
  /**
   * Makes the pool requests go through (tests give one that trusts their certificate authority); by
   * default Node's, direct or through the proxy. It must tell each request's `onClose`: a host's
   * slot is held until then (or the request's time is up).
   */
  pool?: (proxyUrl: string | undefined) => RequestPool;
  /** Requests at a time in all, IN_ALL unless given. */
  inAll?: number;
}

/** Where a request to a host goes: the addresses judged (none through a proxy), and the host it is counted at. */
export type Judgement = { connectTo?: readonly ResolvedAddress[]; host: string } | { refused: string };

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, read no further than the limit: undefined when it was longer (or said so). */
  body: Buffer | undefined;
}

/** An address refused by its judgement: never fetched. */
export class RefusedAddressError extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(
    address: string,
    /** Why, in words: `a loopback address (127.0.0.0/8)`. */
    readonly why: string,
  ) {
    super(`${address} is ${why}`);
  }
}

/** A request's failure, in the few kinds a caller tells apart; `code` is the network's own, where it gave one. */
export interface FetchFailure {
  failure: 'refused' | 'timeout' | 'tls' | 'unreachable';
  reason: string;
  code?: string;
}

/** What a thrown request error was. */
export function failureOf(error: unknown): FetchFailure {
  const { code = '', message = '', name = '' } = error as { code?: string; message?: string; name?: string };
  if (error instanceof RefusedAddressError) return { failure: 'refused', reason: error.why, code };
  if (name === 'TimeoutError' || /TIMEOUT/.test(code)) return { failure: 'timeout', reason: 'no answer in time', code: code || 'TIMEOUT' };
  if (/CERT|SSL|TLS/.test(code) || /certificate/i.test(message)) return { failure: 'tls', reason: [message, code].filter(Boolean).join(', '), code };
  return { failure: 'unreachable', reason: [message, code].filter(Boolean).join(', '), ...(code === '' ? {} : { code }) };
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
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next === undefined) this.free += 1;
      else next();
    };
  }
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await builtinModule('node:dns').promises.lookup(hostname, { all: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** An address as messages and debug lines show it: its origin and path, never its query (which may hold a secret). */
export const shownAddress = (url: URL) => `${url.origin}${url.pathname}`;

export class Fetcher {
  private readonly judgements = new Map<string, Promise<Judgement>>();
  private readonly hosts = new Map<string, Slots>();
  private readonly all: Slots;
  private readonly pools = new Map<string, RequestPool>();
  private readonly deadlines: Deadlines;

  constructor(readonly settings: FetcherSettings) {
    this.all = new Slots(settings.inAll ?? IN_ALL);
    this.deadlines = new Deadlines(settings.signal);
  }

  /**
   * Whether the address may be fetched, and where its connection goes: its host's name resolved
   * once a run, refused when it or any address it resolves to is not public (unless allowed). A
   * name that does not resolve (or not within the time limit) throws, and is asked again by a
   * later request.
   */
  async judge(address: string | URL): Promise<Judgement> {
    const url = typeof address === 'string' ? new URL(address) : address;
    if (this.settings.signal?.aborted) throw new InterruptedError('interrupted');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`${url.hostname} did not resolve in time`), { name: 'TimeoutError', code: 'TIMEOUT' })),
        this.settings.timeoutMs,
      );
    });
    try {
      return await Promise.race([this.judgement(url), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private judgement(url: URL): Promise<Judgement> {
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const key = `${url.hostname}:${port}`;
    let known = this.judgements.get(key);
    if (known === undefined) {
      known = this.judgeAnew(url, port);
      this.judgements.set(key, known);
      known.catch(() => this.judgements.delete(key));
    }
    return known;
  }

  /**
   * One request, judged, within the bounds: its answer, the body read up to `limit` bytes for a
   * success and the first words of anything else. Throws RefusedAddressError for an address
   * refused, the network's error for one that failed (see failureOf), InterruptedError on Ctrl-C.
   */
  async send(address: string, request: { method: 'GET' | 'HEAD'; headers?: Record<string, string>; limit: number }): Promise<Answer> {
    const url = new URL(address);
    const judged = await this.judge(url);
    if ('refused' in judged) throw new RefusedAddressError(shownAddress(url), judged.refused);
    const releaseHost = await this.slotsOf(judged.host).take();
    const release = await this.all.take();
    // The whole request within the time limit; an interrupt (Ctrl-C) ends it too.
    const deadline = this.deadlines.start(this.settings.timeoutMs);
    // Counted at the host until its connection is given back or closed: a connection ended
    // early (a body past its limit, a timeout) still holds the host until it is gone.
    let closed: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => {
      closed = resolve;
      deadline.addEventListener('abort', resolve);
    });
    let handed = false;
    try {
      const where = judged.connectTo === undefined ? '' : ` at ${judged.connectTo[0]!.address}`;
      this.settings.debug?.(`> ${request.method} ${shownAddress(url)}${where} (no authorization, no cookie)`);
      const pool = this.poolOf(url);
      handed = true;
      const response = await pool.request(url.href, {
        method: request.method,
        headers: { 'user-agent': this.settings.userAgent, ...request.headers },
        headersTimeout: this.settings.timeoutMs,
        bodyTimeout: this.settings.timeoutMs,
        signal: deadline,
        ...(judged.connectTo === undefined ? {} : { connectTo: judged.connectTo }),
        onClose: closed,
      });
      const status = response.statusCode;
      // A HEAD has no body, whatever length it announces; an error page is read for its first words.
      const limit =
        request.method === 'HEAD' ? Number.POSITIVE_INFINITY : status >= 200 && status < 300 ? request.limit : Math.min(request.limit, ERROR_PAGE_BYTES);
      const body = await response.bytes(limit);
      this.settings.debug?.(`< ${status} ${shownAddress(url)}`);
      return { status, headers: response.headers, body };
    } catch (error) {
      if (this.settings.signal?.aborted) throw new InterruptedError('interrupted', { cause: error });
      throw deadline.expired ? Object.assign(new Error('no answer in time', { cause: error }), { name: 'TimeoutError', code: 'TIMEOUT' }) : error;
    } finally {
      if (handed) await gone;
      deadline.clear();
      release();
      releaseHost();
    }
  }

  async close(): Promise<void> {
    this.deadlines.close();
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }

  private async judgeAnew(url: URL, port: string): Promise<Judgement> {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const written = refusedAsWritten(hostname);
    if (written !== undefined && !this.settings.allowPrivate) return { refused: written };
    const literal = builtinModule('node:net').isIP(hostname);
    if (literal !== 0) return { connectTo: [{ address: hostname, family: literal === 6 ? 6 : 4 }], host: hostOf(hostname, port) };
    // Through a proxy, the proxy resolves the name and connects: the host is known by its name.
    if (this.proxyOf(url) !== undefined) return { host: hostname };
    const answers = await (this.settings.resolve ?? systemResolver)(hostname);
    if (answers.length === 0) throw Object.assign(new Error(`${hostname} resolves to no address`), { code: 'ENOTFOUND' });
    if (!this.settings.allowPrivate) {
      for (const answer of answers) {
        const refused = refusedAddress(answer.address);
        if (refused !== undefined) return { refused: `${refused}, which ${hostname} resolves to` };
      }
    }
    // Every address judged is one to connect to: Node tries them in turn (IPv6, then IPv4), never another.
    const [first] = answers as [ResolvedAddress];
    this.settings.debug?.(`* ${hostname}: ${answers.map(({ address }) => address).join(', ')}, judged once for the run`);
    return { connectTo: answers, host: hostOf(first.address, port) };
  }

  private proxyOf(url: URL): string | undefined {
    return this.settings.proxy === undefined ? undefined : proxyFor(url, this.settings.proxy).proxy?.url;
  }

  private poolOf(url: URL): RequestPool {
    const proxy = this.proxyOf(url);
    const key = proxy ?? '';
    let pool = this.pools.get(key);
    if (pool === undefined) {
      const options = { connections: PER_HOST, keepAliveTimeout: 1_000, connectTimeout: this.settings.timeoutMs };
      pool = this.settings.pool?.(proxy) ?? (proxy === undefined ? new ConnectionPool(options) : proxyPool(proxy, options));
      this.pools.set(key, pool);
    }
    return pool;
  }

  private slotsOf(host: string): Slots {
    let slots = this.hosts.get(host);
    if (slots === undefined) {
      slots = new Slots(PER_HOST);
      this.hosts.set(host, slots);
    }
    return slots;
  }
}

/**
 * The host a request is counted at: its address, whatever name leads there and whatever port (a
 * site's http and https are one host); on loopback, this machine, each port is a server of its own.
 */
function hostOf(address: string, port: string): string {
  return refusedAddress(address)?.startsWith('a loopback') === true ? `${address}:${port}` : address;
}

/** Where an address led, its redirects followed; `A` is what a step answered, `S` why a step stopped. */
export type Walk<A, S> =
  | { kind: 'answered'; url: string; answer: A; downgraded: boolean }
  | { kind: 'stopped'; url: string; stop: S }
  | { kind: 'refused'; url: string; reason: string }
  | { kind: 'loop'; url: string }
  | { kind: 'too-many-redirects'; url: string }
  | { kind: 'unsafe-redirect'; url: string; to: string; reason: string };

/** What one step of a walk answered: where it redirects (a 3xx's Location), if it does. */
export type Step<A, S> = { answer: A; status: number; location?: string } | { stop: S };

/**
 * Follows an address's redirects as a browser would, each step asked by `step`, and each
 * target judged before it is asked: only to http(s) addresses, never to one passed before (a
 * loop), at most MAX_REDIRECTS, never to a refused address. The start is judged too.
 */
export async function walkRedirects<A, S>(fetcher: Fetcher, address: string, step: (url: string) => Promise<Step<A, S>>): Promise<Walk<A, S>> {
  const start = await judgeOrStop(fetcher, address);
  if (start !== undefined) return { kind: 'refused', url: address, reason: start };
  const passed = new Set<string>();
  let url = address;
  let downgraded = false;
  for (let redirects = 0; ; redirects += 1) {
    passed.add(url);
    const taken = await step(url);
    if ('stop' in taken) return { kind: 'stopped', url, stop: taken.stop };
    const next = taken.status >= 300 && taken.status < 400 && taken.location !== undefined ? nextAddress(taken.location, url) : undefined;
    if (next === undefined) return { kind: 'answered', url, answer: taken.answer, downgraded };
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      return { kind: 'unsafe-redirect', url, to: `${next.protocol}…`, reason: `a ${next.protocol.slice(0, -1)}: address (only http and https are followed)` };
    if (passed.has(next.href)) return { kind: 'loop', url: next.href };
    if (redirects + 1 > MAX_REDIRECTS) return { kind: 'too-many-redirects', url: next.href };
    const refused = await judgeOrStop(fetcher, next.href);
    if (refused !== undefined) return { kind: 'unsafe-redirect', url, to: next.origin, reason: `${refused}, which a public address must never lead to` };
    if (new URL(url).protocol === 'https:' && next.protocol === 'http:') downgraded = true;
    url = next.href;
  }
}

/** Why the address is refused, or undefined (a name that does not resolve is left to its request, which reports it). */
async function judgeOrStop(fetcher: Fetcher, address: string): Promise<string | undefined> {
  try {
    const judged = await fetcher.judge(address);
    return 'refused' in judged ? judged.refused : undefined;
  } catch {
    return undefined;
  }
}

function nextAddress(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}
