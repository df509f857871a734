/**
 * A request to another host than the API: the PUT of an upload's bytes to a presigned URL, the
 * POST of a check's report to a team's incoming webhook, the GET of an image `content convert
 * --upload` carries into the account's storage (through the fetcher for outside addresses,
 * fetcher.ts, which judges the address and each redirect's). The URL is its own authority, so the
 * request never carries the API key (storage refuses a request that brings a second way of
 * signing, and the key has no business leaving for another host). Such a URL holds its secret
 * (a signature in the query, a webhook's token in the path), so messages name it as `shown`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { describeBody } from '../base/body-preview.js';
import { InterruptedError, type LoopsctlError, NetworkError, RateLimitError, RejectedError, ServerError } from '../base/errors.js';
import type { RequestPool } from '../base/node-http.js';
import { type Fetcher, MAX_REDIRECTS, RefusedAddressError, shownAddress, walkRedirects } from './fetcher.js';
import { type ChosenProxy, type ProxySettings, poolFor, proxyError, proxyFor } from './proxy.js';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy-pool.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, type FailureKind, formatSeconds, mayRetry, parseRetryAfter, sleep, waitTooLong } from './retry.js';

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
  if (put.pool !== undefined) return requestWith(throughPool(put.pool), undefined, put, limit);
  const { pool, proxy } = poolFor(put.url, put.proxy, { keepAliveTimeout: 1_000, connections: 1, connectTimeout: put.timeoutMs }, put.debug);
  try {
    return await requestWith(throughPool(pool), proxy, put, limit);
  } finally {
    await pool.close();
  }
}

/** How an attempt's request goes out and its answer comes back (read up to `limit` bytes for a success); a failure throws the network's error. */
type Sender = (put: OutsideRequest, limit: number) => Promise<Answer>;

/** Through a pool, the attempt bounded by its timeout. */
const throughPool =
  (pool: RequestPool): Sender =>
  async (put, limit) => {
    const deadline = AbortSignal.timeout(put.timeoutMs);
    const response = await pool.request(put.url, {
      method: put.method,
      headers: { ...(put.contentType === undefined ? {} : { 'content-type': put.contentType }), 'user-agent': put.userAgent },
      body: put.bytes,
      headersTimeout: put.timeoutMs,
      bodyTimeout: put.timeoutMs,
      signal: put.signal ? AbortSignal.any([put.signal, deadline]) : deadline,
    });
    const status = response.statusCode;
    // An error page is read for its first words only; a success as far as the caller reads.
    const body = status >= 200 && status < 300 ? await response.bytes(limit) : Buffer.from((await response.text(64 * 1024)) ?? '');
    return { status, headers: response.headers, body };
  };

/** Through the fetcher for outside addresses, which judges the address and bounds the request. */
const throughFetcher =
  (fetcher: Fetcher): Sender =>
  (put, limit) =>
    fetcher.send(put.url, { method: 'GET', limit });

export interface Fetched {
  /** The address that answered, after redirects. */
  url: string;
  contentType: string;
  /** Undefined when the answer was larger than the limit (it was not read past it). */
  bytes: Buffer | undefined;
}

/**
 * A GET of an address that came from content (an image a template names), through the fetcher
 * (which refuses a loopback, private or reserved address unless the person allowed it, and judges
 * each redirect's target as it judged the first), with the transport's rules for another host (no
 * key, the time limit, retries): redirects followed only to http(s) addresses, at most
 * MAX_REDIRECTS, never in a loop, and the body read no further than `limit` bytes. A refusal, an
 * error or a redirect elsewhere throws, naming the address.
 */
export async function fetchOutside(
  get: Omit<OutsideRequest, 'method' | 'bytes' | 'contentType' | 'pool' | 'idempotent' | 'shown'>,
  limit: number,
  fetcher: Fetcher,
): Promise<Fetched> {
  const shown = shownAddress(new URL(get.url));
  const walk = await walkRedirects(fetcher, get.url, async (url) => {
    // The fetcher says its own lines on --debug, with the address it connects to.
    const at: OutsideRequest = { ...get, url, shown: shownAddress(new URL(url)), method: 'GET', idempotent: true, debug: undefined };
    const answer = await requestWith(throughFetcher(fetcher), get.proxy === undefined ? undefined : proxyFor(url, get.proxy).proxy, at, limit);
    const location = answer.headers.location;
    return { answer, status: answer.status, ...(location === undefined ? {} : { location }) };
  });
  const refused = (reason: string) => new RejectedError(`GET ${shown}: ${reason}`, { hint: get.refusedHint });
  switch (walk.kind) {
    case 'answered':
      return { url: walk.url, contentType: String(walk.answer.headers['content-type'] ?? ''), bytes: walk.answer.body };
    case 'refused':
      throw refusedAddress(`GET ${shown}`, walk.reason);
    case 'unsafe-redirect':
      throw refused(`redirected to ${walk.to}: ${walk.reason}; not followed`);
    case 'loop':
      throw refused(`redirected in a loop (back to ${shownAddress(new URL(walk.url))})`);
    case 'too-many-redirects':
      throw refused(`more than ${MAX_REDIRECTS} redirects`);
    case 'stopped':
      throw walk.stop;
  }
}

/** What the refusal of an address says: what it is, and that it was not fetched. */
function refusedAddress(shown: string, why: string): RejectedError {
  return new RejectedError(`${shown}: ${why}; not fetched without --allow-private-links`, {
    code: 'address_refused',
    hint: 'a recipient could never load it either; if it is meant (a staging server), allow it with --allow-private-links',
  });
}

async function requestWith(send: Sender, proxy: ChosenProxy | undefined, put: OutsideRequest, limit: number): Promise<Answer> {
  const shown = `${put.method} ${put.shown}`;
  for (let retry = 0; ; retry += 1) {
    const failure = await attempt(send, proxy, put, shown, limit);
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

async function attempt(send: Sender, proxy: ChosenProxy | undefined, put: OutsideRequest, shown: string, limit: number): Promise<Failure | Answer> {
  if (put.signal?.aborted) throw new InterruptedError('interrupted');
  const sent = put.bytes === undefined ? '' : `, content-type: ${put.contentType}, ${put.bytes.length} bytes`;
  put.debug?.(`> ${shown} (no authorization${sent})`);
  let status: number;
  let body: Buffer | undefined;
  let headers: IncomingHttpHeaders;
  try {
    ({ status, headers, body } = await send(put, limit));
  } catch (error) {
    if (put.signal?.aborted || error instanceof InterruptedError) throw new InterruptedError('interrupted', { cause: error });
    if (error instanceof RefusedAddressError) return { error: refusedAddress(shown, error.why), kind: 'final', reason: 'refused' };
    if (proxy !== undefined && (error instanceof ProxyRefusedError || error instanceof ProxyUnreachableError)) {
      const failure = proxyError(error, proxy, shown, new URL(put.url).origin);
      return { error: failure, kind: error instanceof ProxyRefusedError ? 'final' : 'not-connected', reason: 'proxy' };
    }
    const code = (error as { code?: string }).code;
    const timedOut = (error as Error).name === 'TimeoutError';
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
