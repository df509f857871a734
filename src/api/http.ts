/**
 * The HTTP transport: one keep-alive connection pool per run (src/api/node-http.ts), the bearer
 * key, the User-Agent, a timeout per attempt, pacing, retries, debug lines with the key redacted,
 * and the mapping of every failure to the error hierarchy. The client above it knows paths and schemas; this knows only
 * requests, and whether each one may safely be sent twice.
 */
import { BodyTimeoutError, ConnectionPool, HeadersTimeoutError, type ResponseData } from './node-http.js';
import { errorBody } from './schemas.js';
import { AuthError, errorForStatus, InterruptedError, InvalidResponseError, NetworkError, RateLimitError, type LoopsctlError } from './errors.js';
import { describeBody } from './body-preview.js';
import { Pacer } from './pacer.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, formatSeconds, mayRetry, parseRetryAfter, sleep, type FailureKind, type RetryPolicy } from './retry.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest {
  method: Method;
  /** Path below the base URL, already percent-encoded, starting with '/'. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Headers besides the ones every request carries, such as Idempotency-Key. */
  headers?: Record<string, string>;
  /**
   * Whether sending the request twice has the same effect as sending it once. Only idempotent
   * requests are retried after a 5xx or a broken connection; every caller has to say.
   */
  idempotent: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** The body as received, for describing an answer of the wrong shape. */
  text: string;
  body: unknown;
}

/** What the client needs from a transport; tests substitute their own. */
export interface Transport {
  send(req: HttpRequest): Promise<HttpResponse>;
}

/** One retry about to happen, for the person watching. */
export interface RetryNotice {
  /** "GET /v1/themes" */
  request: string;
  /** 1 for the first retry. */
  retry: number;
  retries: number;
  delayMs: number;
  reason: string;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  /** Told about each retry before its wait; the transport itself prints nothing. */
  onRetry?: (notice: RetryNotice) => void;
  /** Shared by every transport of a run, so that the run as a whole keeps the pace. */
  pacer?: Pacer;
  /** Receives one line per request when --debug is on. */
  debug?: (line: string) => void;
  /** Aborting it (Ctrl-C) ends the run with InterruptedError, also during a wait. */
  signal?: AbortSignal;
}

/** The API allows about 10 requests per second per team. */
export const DEFAULT_REQUESTS_PER_SECOND = 10;

/** Connection errors that happen before any byte of the request is sent. */
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'CONNECT_TIMEOUT']);

/** A failed attempt, with what the retry rules need to know about it. */
class AttemptFailure {
  constructor(
    readonly error: LoopsctlError,
    readonly kind: FailureKind,
    /** A few words for the retry notice: "HTTP 503", "ECONNRESET", "timed out". */
    readonly reason: string,
    readonly retryAfterMs?: number,
  ) {}
}

export class HttpTransport implements Transport {
  private readonly pool: ConnectionPool;
  private readonly baseUrl: string;
  private readonly policy: RetryPolicy;
  private readonly pacer: Pacer;

  constructor(private readonly options: TransportOptions) {
    // A key that cannot travel in a header would make Node fail with a message that quotes it.
    if (!/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new AuthError('the API key contains spaces, control characters or non-ASCII characters', {
        code: 'no_key',
        hint: 'check LOOPS_API_KEY, or store the key again with `loopsctl auth login`',
      });
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.pacer = options.pacer ?? new Pacer({ perSecond: DEFAULT_REQUESTS_PER_SECOND });
    this.pool = new ConnectionPool({ keepAliveTimeout: 10_000, connections: 8, connectTimeout: options.timeoutMs });
  }

  url(req: Pick<HttpRequest, 'path' | 'query'>): string {
    const url = new URL(this.baseUrl + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /**
   * Sends a request, retrying as the rules allow, and returns its parsed JSON body, or throws the
   * error the last failure means.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const { retries } = this.policy;
    for (let retry = 0; ; retry += 1) {
      try {
        return await this.attempt(req);
      } catch (thrown) {
        if (!(thrown instanceof AttemptFailure)) throw thrown;
        const { error, kind, reason, retryAfterMs } = thrown;
        if (kind === 'rate-limited' && retryAfterMs !== undefined && retryAfterMs > this.policy.maxRetryAfterMs) {
          throw new RateLimitError(`rate limited: the API asks to wait ${formatSeconds(retryAfterMs)} before the next request, longer than loopsctl waits (${formatSeconds(this.policy.maxRetryAfterMs)})`, {
            status: error.status,
            hint: 'run the command again after that time',
          });
        }
        if (!mayRetry(kind, req.idempotent)) throw unretriedWrite(error);
        if (retry >= retries) throw retries === 0 ? error : Object.assign(error, { message: `${error.message} (gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'})` });
        const delayMs = retryAfterMs ?? backoffDelay(retry, this.policy);
        this.options.onRetry?.({ request: `${req.method} ${req.path}`, retry: retry + 1, retries, delayMs, reason });
        await sleep(delayMs, this.options.signal);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async attempt(req: HttpRequest): Promise<HttpResponse> {
    const interrupt = this.options.signal;
    if (interrupt?.aborted) throw new InterruptedError('interrupted');
    await this.pacer.turn(interrupt);
    const url = this.url(req);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    Object.assign(headers, req.headers);
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    // One deadline for the whole attempt: a server that trickles its body slowly still ends.
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const started = performance.now();
    this.options.debug?.(`> ${req.method} ${url} (authorization: Bearer [redacted], user-agent: ${this.options.userAgent})`);
    let response: ResponseData | undefined;
    let text: string;
    try {
      response = await this.pool.request(url, {
        method: req.method,
        headers,
        body: payload,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: interrupt ? AbortSignal.any([interrupt, deadline]) : deadline,
      });
      text = await response.text();
    } catch (error) {
      if (interrupt?.aborted) throw new InterruptedError('interrupted', { cause: error });
      throw this.networkFailure(error, req, url, deadline, response !== undefined);
    }
    const elapsed = Math.round(performance.now() - started);
    this.options.debug?.(`< ${response.statusCode} ${req.method} ${url} in ${elapsed} ms`);
    this.pacer.observe(response.headers);
    const contentType = String(response.headers['content-type'] ?? '');
    const status = response.statusCode;

    if (status >= 200 && status < 300) {
      return { status, headers: response.headers, contentType, text, body: parseJson(text, status, contentType) };
    }
    throw this.statusFailure(status, response.headers, text, contentType);
  }

  private statusFailure(status: number, headers: HttpResponse['headers'], text: string, contentType: string): AttemptFailure {
    let message: string | undefined;
    try {
      const parsed = errorBody.safeParse(JSON.parse(text));
      if (parsed.success) message = parsed.data.message;
    } catch {
      // An error page that is not JSON still says what the status means.
    }
    let error = errorForStatus(status, message);
    if (message === undefined && text.length > 0 && status >= 500) {
      error = Object.assign(error, { message: `${error.message} (${describeBody(text, contentType)})` });
    }
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    if (status === 429) {
      if (retryAfterMs !== undefined) error.message += ` (it asks to wait ${formatSeconds(retryAfterMs)})`;
      return new AttemptFailure(error, 'rate-limited', 'HTTP 429', retryAfterMs);
    }
    if (status >= 500) return new AttemptFailure(error, 'server', `HTTP ${status}`, retryAfterMs);
    throw error;
  }

  private networkFailure(error: unknown, req: HttpRequest, url: string, deadline: AbortSignal, answered: boolean): AttemptFailure {
    const what = `${req.method} ${new URL(url).pathname}`;
    const timedOut = deadline.aborted || error instanceof HeadersTimeoutError || error instanceof BodyTimeoutError;
    if (timedOut) {
      const limit = `the ${formatSeconds(this.options.timeoutMs)} timeout (--timeout)`;
      const message = answered ? `${what}: the answer did not finish within ${limit}` : `${what}: no answer within ${limit}`;
      const network = new NetworkError(message, {
        code: 'timeout',
        cause: error,
        hint: 'the API may be slow or unreachable; raise the limit with --timeout <seconds>',
      });
      return new AttemptFailure(network, 'broken', 'timed out');
    }
    const code = (error as { code?: string }).code;
    const connected = code === undefined || !(NOT_CONNECTED_CODES.has(code) || code === 'ENOTFOUND');
    const origin = new URL(url).origin;
    const detail = [(error as Error | undefined)?.message, code].filter(Boolean).join(', ');
    const network = new NetworkError(`${what}: ${connected ? `the connection to ${origin} broke` : `could not connect to ${origin}`} (${detail})`, {
      cause: error,
      hint: 'check the network, or the base URL (--base-url, LOOPS_BASE_URL)',
    });
    // A name that does not resolve will not resolve a second later either.
    if (code === 'ENOTFOUND') throw network;
    return new AttemptFailure(network, connected ? 'broken' : 'not-connected', code ?? 'connection broke');
  }
}

/** A write that failed after it may have reached the API is not sent again; the user checks. */
function unretriedWrite(error: LoopsctlError): LoopsctlError {
  return Object.assign(error, {
    hint: 'loopsctl did not send it again because the API may already have acted on it; check before running the command again',
  });
}

function parseJson(text: string, status: number, contentType: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidResponseError(`the API answered HTTP ${status} with a body that is not JSON (${describeBody(text, contentType)})`, { status });
  }
}
