/**
 * The PUT of a file's bytes to a presigned URL (an upload's storage, not the API). The URL's own
 * signature is its authority, so the request carries no API key: storage refuses a request that
 * brings a second way of signing, and the key has no business leaving for another host. The
 * signature sits in the query string, so messages name the URL without it.
 */
import type { RequestPool } from '../base/node-http.js';
import { poolFor, proxyError, type ChosenProxy, type ProxySettings } from './proxy.js';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy-pool.js';
import { describeBody } from '../base/body-preview.js';
import { InterruptedError, NetworkError, RateLimitError, RejectedError, ServerError, type LoopsctlError } from '../base/errors.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, formatSeconds, mayRetry, parseRetryAfter, sleep, type FailureKind } from './retry.js';

export interface PresignedPut {
  url: string;
  bytes: Uint8Array;
  /** Sent as Content-Type; it must be the type the upload was created with. */
  contentType: string;
  userAgent: string;
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  /** Further attempts after the first. */
  retries: number;
  signal?: AbortSignal;
  onRetry?: (line: string) => void;
  debug?: (line: string) => void;
  /** The proxy settings: the storage's host is checked against NO_PROXY on its own, apart from the API's. */
  proxy?: ProxySettings;
  /** What answers instead of the network (the in-process sandbox, whose uploads it stores); its owner closes it. */
  pool?: RequestPool;
}

/** The URL without its query (which holds the signature), for messages and debug lines. */
function withoutSignature(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

export async function putPresigned(put: PresignedPut): Promise<void> {
  if (put.pool !== undefined) return putWith(put.pool, undefined, put);
  // Its own pool: the storage is another host than the API, and this is the only request to it.
  const { pool, proxy } = poolFor(put.url, put.proxy, { keepAliveTimeout: 1_000, connections: 1, connectTimeout: put.timeoutMs }, put.debug);
  try {
    await putWith(pool, proxy, put);
  } finally {
    await pool.close();
  }
}

async function putWith(pool: RequestPool, proxy: ChosenProxy | undefined, put: PresignedPut): Promise<void> {
  const shown = withoutSignature(put.url);
  for (let retry = 0; ; retry += 1) {
    const failure = await attempt(pool, proxy, put, shown);
    if (failure === undefined) return;
    // The same bytes to the same URL leave the same object, so a PUT may be sent again whenever
    // the rules allow an idempotent request to be.
    if (failure.kind === 'final' || !mayRetry(failure.kind, true) || retry >= put.retries) throw failure.error;
    const delayMs = failure.retryAfterMs ?? backoffDelay(retry, { ...DEFAULT_RETRY_POLICY, retries: put.retries });
    put.onRetry?.(`PUT ${shown}: ${failure.reason}; retrying in ${formatSeconds(delayMs)} (retry ${retry + 1} of ${put.retries})`);
    await sleep(delayMs, put.signal);
  }
}

interface Failure {
  error: LoopsctlError;
  kind: FailureKind | 'final';
  reason: string;
  retryAfterMs?: number;
}

async function attempt(pool: RequestPool, proxy: ChosenProxy | undefined, put: PresignedPut, shown: string): Promise<Failure | undefined> {
  if (put.signal?.aborted) throw new InterruptedError('interrupted');
  const deadline = AbortSignal.timeout(put.timeoutMs);
  put.debug?.(`> PUT ${shown} (no authorization, content-type: ${put.contentType}, ${put.bytes.length} bytes)`);
  let status: number;
  let text: string;
  let contentType: string;
  let retryAfter: string | string[] | undefined;
  try {
    const response = await pool.request(put.url, {
      method: 'PUT',
      headers: { 'content-type': put.contentType, 'user-agent': put.userAgent },
      body: put.bytes,
      headersTimeout: put.timeoutMs,
      bodyTimeout: put.timeoutMs,
      signal: put.signal ? AbortSignal.any([put.signal, deadline]) : deadline,
    });
    status = response.statusCode;
    contentType = String(response.headers['content-type'] ?? '');
    retryAfter = response.headers['retry-after'];
    // An error page from storage is read for its first words only.
    text = (await response.text(64 * 1024)) ?? '';
  } catch (error) {
    if (put.signal?.aborted) throw new InterruptedError('interrupted', { cause: error });
    if (proxy !== undefined && (error instanceof ProxyRefusedError || error instanceof ProxyUnreachableError)) {
      const failure = proxyError(error, proxy, `PUT ${shown}`, new URL(put.url).origin);
      return { error: failure, kind: error instanceof ProxyRefusedError ? 'final' : 'not-connected', reason: 'proxy' };
    }
    const code = (error as { code?: string }).code;
    const timedOut = deadline.aborted;
    const notConnected = code === 'ECONNREFUSED' || code === 'EAI_AGAIN' || code === 'CONNECT_TIMEOUT';
    const reason = timedOut ? `no answer within ${formatSeconds(put.timeoutMs)}` : [(error as Error).message, code].filter(Boolean).join(', ');
    return {
      error: new NetworkError(`PUT ${shown}: the upload did not reach the storage (${reason})`, {
        code: timedOut ? 'timeout' : 'network',
        cause: error,
        hint: timedOut ? 'raise the limit with --timeout <seconds>' : 'check the network, then run the command again',
      }),
      kind: code === 'ENOTFOUND' ? 'final' : notConnected ? 'not-connected' : 'broken',
      reason: timedOut ? 'timed out' : (code ?? 'connection broke'),
    };
  }
  put.debug?.(`< ${status} PUT ${shown}`);
  if (status >= 200 && status < 300) return undefined;
  const body = describeBody(text, contentType);
  if (status === 429) {
    const error = new RateLimitError(`PUT ${shown}: the storage asks to slow down (HTTP 429, ${body})`, { status });
    return { error, kind: 'rate-limited', reason: 'HTTP 429', retryAfterMs: parseRetryAfter(retryAfter) };
  }
  if (status >= 500) {
    const error = new ServerError(`PUT ${shown}: HTTP ${status} (${body})`, { status });
    return { error, kind: 'server', reason: `HTTP ${status}`, retryAfterMs: parseRetryAfter(retryAfter) };
  }
  // 403: the signature expired or does not cover what was sent (a different type or length).
  return {
    error: new RejectedError(`PUT ${shown}: the storage refused the upload (HTTP ${status}, ${body})`, {
      status,
      hint: 'the presigned URL may have expired, or the file changed since the upload was created; run the command again',
    }),
    kind: 'final',
    reason: `HTTP ${status}`,
  };
}
