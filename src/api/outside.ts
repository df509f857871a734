/**
 * A request to another host than the API: the PUT of an upload's bytes to a presigned URL, the
 * POST of a check's report to a team's incoming webhook, the GET of an image `content convert
 * --upload` carries into the account's storage. The URL is its own authority, so the
 * request never carries the API key (storage refuses a request that brings a second way of
 * signing, and the key has no business leaving for another host). Such a URL holds its secret
 * (a signature in the query, a webhook's token in the path), so messages name it as `shown`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestPool } from '../base/node-http.js';
import { poolFor, proxyError, type ChosenProxy, type ProxySettings } from './proxy.js';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy-pool.js';
import { describeBody } from '../base/body-preview.js';
import { InterruptedError, NetworkError, RateLimitError, RejectedError, ServerError, type LoopsctlError } from '../base/errors.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, formatSeconds, mayRetry, parseRetryAfter, sleep, waitTooLong, type FailureKind } from './retry.js';

export interface OutsideRequest {
  method: 'PUT' | 'POST' | 'GET';
  url: string;
  /** The URL as messages and debug lines name it, without its secret. */
  shown: string;
  /** The host in words, for messages: `the storage`, `the webhook`. */
  target: string;
  /** Whether sending it twice leaves what sending it once does: only then is it sent again after a reply was lost. */
  idempotent: boolean;
  /** What to do when the host refuses it (a 4xx). */
  refusedHint: string;
  /** The body sent, and its type: none for a GET. */
  bytes?: Uint8Array;
  contentType?: string;
  userAgent: string;
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  /** Further attempts after the first. */
  retries: number;
  signal?: AbortSignal;
  onRetry?: (line: string) => void;
  debug?: (line: string) => void;
  /** The proxy settings: the host is checked against NO_PROXY on its own, apart from the API's. */
  proxy?: ProxySettings;
  /** What answers instead of the network (the in-process sandbox, whose uploads it stores); its owner closes it. */
  pool?: RequestPool;
}

/** What a host answered: its status, headers, and the body (undefined when it passed the limit read). */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
}

export async function sendOutside(put: OutsideRequest): Promise<void> {
  await requestOutside(put, 64 * 1024);
}

/** One request to the URL, in a pool of its own (another host than the API, and the only request to it) unless one is given. */
async function requestOutside(put: OutsideRequest, limit: number): Promise<Answer> {
  if (put.pool !== undefined) return requestWith(put.pool, undefined, put, limit);
  const { pool, proxy } = poolFor(put.url, put.proxy, { keepAliveTimeout: 1_000, connections: 1, connectTimeout: put.timeoutMs }, put.debug);
  try {
    return await requestWith(pool, proxy, put, limit);
  } finally {
    await pool.close();
  }
}

/** Redirects followed at most, as browsers and curl stop a loop. */
const MAX_REDIRECTS = 5;

export interface Fetched {
  /** The address that answered, after redirects. */
  url: string;
  contentType: string;
  /** Undefined when the answer was larger than the limit (it was not read past it). */
  bytes: Buffer | undefined;
}

/**
 * A GET of a public address, with the transport's rules for another host (no key, the proxy
 * settings, the time limit, retries): redirects followed only to http(s) addresses, at most
 * MAX_REDIRECTS, and the body read no further than `limit` bytes. A refusal, an error or a
 * redirect elsewhere throws, naming the address.
 */
export async function fetchOutside(get: Omit<OutsideRequest, 'method' | 'bytes' | 'contentType' | 'pool' | 'idempotent'>, limit: number): Promise<Fetched> {
  let url = get.url;
  let shown = get.shown;
  for (let redirects = 0; ; redirects += 1) {
    const answer = await requestOutside({ ...get, url, shown, method: 'GET', idempotent: true }, limit);
    if (answer.status < 300 || answer.status >= 400) return { url, contentType: String(answer.headers['content-type'] ?? ''), bytes: answer.body };
    const location = answer.headers.location;
    const refused = (reason: string) => new RejectedError(`GET ${shown}: ${reason}`, { status: answer.status, hint: get.refusedHint });
    const next = addressOf(location, url);
    if (next === undefined) throw refused(`HTTP ${answer.status} without an address to go to`);
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw refused(`redirected to a ${next.protocol.slice(0, -1)} address; only http(s) addresses are followed`);
    if (redirects >= MAX_REDIRECTS) throw refused(`more than ${MAX_REDIRECTS} redirects`);
    url = next.href;
    shown = `${next.origin}${next.pathname}`;
  }
}

/** A redirect's Location, read against the address that gave it. */
function addressOf(location: string | undefined, base: string): URL | undefined {
  if (location === undefined) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

async function requestWith(pool: RequestPool, proxy: ChosenProxy | undefined, put: OutsideRequest, limit: number): Promise<Answer> {
  const shown = `${put.method} ${put.shown}`;
  for (let retry = 0; ; retry += 1) {
    const failure = await attempt(pool, proxy, put, shown, limit);
    if ('status' in failure) return failure;
    // The same bytes to the same URL leave the same object, so a PUT may be sent again whenever
    // the rules allow an idempotent request to be; a POST only when it never left.
    if (failure.kind === 'final' || !mayRetry(failure.kind, put.idempotent) || retry >= put.retries) throw failure.error;
    // Another host's Retry-After is held to the API's cap: a host that asks for a day ends the try.
    const { maxRetryAfterMs } = DEFAULT_RETRY_POLICY;
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > maxRetryAfterMs)
      throw waitTooLong(failure.error, `the host of ${put.shown}`, failure.retryAfterMs, maxRetryAfterMs);
    const delayMs = failure.retryAfterMs ?? backoffDelay(retry, { ...DEFAULT_RETRY_POLICY, retries: put.retries });
    put.onRetry?.(`${shown}: ${failure.reason}; retrying in ${formatSeconds(delayMs)} (retry ${retry + 1} of ${put.retries})`);
    await sleep(delayMs, put.signal);
  }
}

interface Failure {
  error: LoopsctlError;
  kind: FailureKind | 'final';
  reason: string;
  retryAfterMs?: number;
}

async function attempt(pool: RequestPool, proxy: ChosenProxy | undefined, put: OutsideRequest, shown: string, limit: number): Promise<Failure | Answer> {
  if (put.signal?.aborted) throw new InterruptedError('interrupted');
  const deadline = AbortSignal.timeout(put.timeoutMs);
  const sent = put.bytes === undefined ? '' : `, content-type: ${put.contentType}, ${put.bytes.length} bytes`;
  put.debug?.(`> ${shown} (no authorization${sent})`);
  let status: number;
  let body: Buffer | undefined;
  let headers: IncomingHttpHeaders;
  try {
    const response = await pool.request(put.url, {
      method: put.method,
      headers: { ...(put.contentType === undefined ? {} : { 'content-type': put.contentType }), 'user-agent': put.userAgent },
      body: put.bytes,
      headersTimeout: put.timeoutMs,
      bodyTimeout: put.timeoutMs,
      signal: put.signal ? AbortSignal.any([put.signal, deadline]) : deadline,
    });
    status = response.statusCode;
    headers = response.headers;
    // An error page is read for its first words only; a success as far as the caller reads.
    body = status >= 200 && status < 300 ? await response.bytes(limit) : Buffer.from((await response.text(64 * 1024)) ?? '');
  } catch (error) {
    if (put.signal?.aborted) throw new InterruptedError('interrupted', { cause: error });
    if (proxy !== undefined && (error instanceof ProxyRefusedError || error instanceof ProxyUnreachableError)) {
      const failure = proxyError(error, proxy, shown, new URL(put.url).origin);
      return { error: failure, kind: error instanceof ProxyRefusedError ? 'final' : 'not-connected', reason: 'proxy' };
    }
    const code = (error as { code?: string }).code;
    const timedOut = deadline.aborted;
    const notConnected = code === 'ECONNREFUSED' || code === 'EAI_AGAIN' || code === 'CONNECT_TIMEOUT';
    const reason = timedOut ? `no answer within ${formatSeconds(put.timeoutMs)}` : [(error as Error).message, code].filter(Boolean).join(', ');
    return {
      error: new NetworkError(`${shown}: the request did not reach ${put.target} (${reason})`, {
        code: timedOut ? 'timeout' : 'network',
        cause: error,
        hint: timedOut ? 'raise the limit with --timeout <seconds>' : 'check the network, then run the command again',
      }),
      kind: code === 'ENOTFOUND' ? 'final' : notConnected ? 'not-connected' : 'broken',
      reason: timedOut ? 'timed out' : (code ?? 'connection broke'),
    };
  }
  put.debug?.(`< ${status} ${shown}`);
  if (status >= 200 && status < 300) return { status, headers, body };
  // A GET follows a redirect (fetchOutside decides where); a write is never sent on.
  if (put.method === 'GET' && status >= 300 && status < 400) return { status, headers, body: undefined };
  const retryAfter = headers['retry-after'];
  const described = describeBody(body?.toString('utf8') ?? '', String(headers['content-type'] ?? ''));
  if (status === 429) {
    const error = new RateLimitError(`${shown}: ${put.target} asks to slow down (HTTP 429, ${described})`, { status });
    return { error, kind: 'rate-limited', reason: 'HTTP 429', retryAfterMs: parseRetryAfter(retryAfter) };
  }
  if (status >= 500) {
    const error = new ServerError(`${shown}: HTTP ${status} (${described})`, { status });
    return { error, kind: 'server', reason: `HTTP ${status}`, retryAfterMs: parseRetryAfter(retryAfter) };
  }
  return {
    error: new RejectedError(`${shown}: ${put.target} refused it (HTTP ${status}, ${described})`, { status, hint: put.refusedHint }),
    kind: 'final',
    reason: `HTTP ${status}`,
  };
}
