/**
 * A request to another host than the API: the PUT of an upload's bytes to a presigned URL, the
 * POST of a check's report to a team's incoming webhook. The URL is its own authority, so the
 * request never carries the API key (storage refuses a request that brings a second way of
 * signing, and the key has no business leaving for another host). Such a URL holds its secret
 * (a signature in the query, a webhook's token in the path), so messages name it as `shown`.
 */
import type { RequestPool } from '../base/node-http.js';
import { poolFor, proxyError, type ChosenProxy, type ProxySettings } from './proxy.js';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy-pool.js';
import { describeBody } from '../base/body-preview.js';
import { InterruptedError, NetworkError, RateLimitError, RejectedError, ServerError, type LoopsctlError } from '../base/errors.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, formatSeconds, mayRetry, parseRetryAfter, sleep, type FailureKind } from './retry.js';

export interface OutsideRequest {
  method: 'PUT' | 'POST';
  url: string;
  /** The URL as messages and debug lines name it, without its secret. */
  shown: string;
  /** The host in words, for messages: `the storage`, `the webhook`. */
  target: string;
  /** Whether sending it twice leaves what sending it once does: only then is it sent again after a reply was lost. */
  idempotent: boolean;
  /** What to do when the host refuses it (a 4xx). */
  refusedHint: string;
  bytes: Uint8Array;
  contentType: string;
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

export async function sendOutside(put: OutsideRequest): Promise<void> {
  if (put.pool !== undefined) return putWith(put.pool, undefined, put);
  // Its own pool: another host than the API, and this is the only request to it.
  const { pool, proxy } = poolFor(put.url, put.proxy, { keepAliveTimeout: 1_000, connections: 1, connectTimeout: put.timeoutMs }, put.debug);
  try {
    await putWith(pool, proxy, put);
  } finally {
    await pool.close();
  }
}

async function putWith(pool: RequestPool, proxy: ChosenProxy | undefined, put: OutsideRequest): Promise<void> {
  const shown = `${put.method} ${put.shown}`;
  for (let retry = 0; ; retry += 1) {
    const failure = await attempt(pool, proxy, put, shown);
    if (failure === undefined) return;
    // The same bytes to the same URL leave the same object, so a PUT may be sent again whenever
    // the rules allow an idempotent request to be; a POST only when it never left.
    if (failure.kind === 'final' || !mayRetry(failure.kind, put.idempotent) || retry >= put.retries) throw failure.error;
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

async function attempt(pool: RequestPool, proxy: ChosenProxy | undefined, put: OutsideRequest, shown: string): Promise<Failure | undefined> {
  if (put.signal?.aborted) throw new InterruptedError('interrupted');
  const deadline = AbortSignal.timeout(put.timeoutMs);
  put.debug?.(`> ${shown} (no authorization, content-type: ${put.contentType}, ${put.bytes.length} bytes)`);
  let status: number;
  let text: string;
  let contentType: string;
  let retryAfter: string | string[] | undefined;
  try {
    const response = await pool.request(put.url, {
      method: put.method,
      headers: { 'content-type': put.contentType, 'user-agent': put.userAgent },
      body: put.bytes,
      headersTimeout: put.timeoutMs,
      bodyTimeout: put.timeoutMs,
      signal: put.signal ? AbortSignal.any([put.signal, deadline]) : deadline,
    });
    status = response.statusCode;
    contentType = String(response.headers['content-type'] ?? '');
    retryAfter = response.headers['retry-after'];
    // An error page is read for its first words only.
    text = (await response.text(64 * 1024)) ?? '';
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
  if (status >= 200 && status < 300) return undefined;
  const body = describeBody(text, contentType);
  if (status === 429) {
    const error = new RateLimitError(`${shown}: ${put.target} asks to slow down (HTTP 429, ${body})`, { status });
    return { error, kind: 'rate-limited', reason: 'HTTP 429', retryAfterMs: parseRetryAfter(retryAfter) };
  }
  if (status >= 500) {
    const error = new ServerError(`${shown}: HTTP ${status} (${body})`, { status });
    return { error, kind: 'server', reason: `HTTP ${status}`, retryAfterMs: parseRetryAfter(retryAfter) };
  }
  return {
    error: new RejectedError(`${shown}: ${put.target} refused it (HTTP ${status}, ${body})`, { status, hint: put.refusedHint }),
    kind: 'final',
    reason: `HTTP ${status}`,
  };
}
