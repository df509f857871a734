/**
 * The HTTP transport: one keep-alive connection pool per run (src/base/node-http.ts; through a
 * proxy, tunnels, see src/api/proxy.ts), the bearer key, the User-Agent, a timeout per attempt, pacing, retries, debug lines with the key redacted,
 * and the mapping of every failure to the error hierarchy. The client above it knows paths and schemas; this knows only
 * requests, and whether each one may safely be sent twice.
 */

import { describeBody, escapeControls } from '../base/body-preview.js';
import {
  AuthError,
  errorForStatus,
  InterruptedError,
  InvalidResponseError,
  type LoopsctlError,
  NetworkError,
  UsageError,
  withDetails,
} from '../base/errors.js';
import { monotonicMs } from '../base/monotonic.js';
import type { RequestPool, ResponseData } from '../base/node-http.js';
import { redactUrl } from '../base/redact-url.js';
import { type RequestTarget, requestTarget } from '../base/request-target.js';
import { errorBody } from '../platform/schemas.js';
import { parseBaseUrl } from './base-url.js';
import { Deadlines } from './deadline.js';
import { headerValue } from './headers.js';
import { jsonNestingExceeds, MAX_JSON_DEPTH, parseJsonKeepingIntegers } from './json-scan.js';
import { Pacer } from './pacer.js';
import { type ChosenProxy, type ProxySettings, poolFor, proxyError, shownProxy } from './proxy.js';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy-pool.js';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  type FailureKind,
  formatSeconds,
  mayRetry,
  parseRetryAfter,
  type RetryPolicy,
  sleep,
  waitTooLong,
} from './retry.js';

export type { RequestTarget };

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest {
  method: Method;
  /** Path below the base URL, already percent-encoded, starting with '/'. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** A JSON body already written out, sent exactly as given (instead of `body`). */
  bodyText?: string;
  /** Headers besides the ones every request carries, such as Idempotency-Key. */
  headers?: Record<string, string>;
  /**
   * Whether sending the request twice has the same effect as sending it once. Only idempotent
   * requests are retried after a 5xx or a broken connection; every caller has to say.
   */
  idempotent: boolean;
  /**
   * A 429 here means a quota is used up (previews or uploads per day), not a pace to keep:
   * waiting seconds will not help, so it is never retried.
   */
  quota?: boolean;
  /** Told before each attempt, 1 for the first: lets a caller tell an answer to a retry from one to the first send. */
  onAttempt?: (attempt: number) => void;
}

export interface HttpResponse extends HttpAnswer {
  body: unknown;
}

/** An answer as received. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** The body as received, for describing an answer of the wrong shape. */
  text: string;
}

/** The last answer to a request, and, when it is a failure, the error it means. */
export interface HttpExchange {
  answer: HttpAnswer;
  error?: LoopsctlError;
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
  /** The largest body read from an answer; by default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** --proxy and the proxy variables; without them, every request is direct. */
  proxy?: ProxySettings;
  /**
   * What answers the requests instead of the network (the in-process sandbox): no proxy then, and
   * closing the transport leaves it to its owner.
   */
  pool?: RequestPool;
  /**
   * Called before a request that is not a GET is sent, with its target as it will be sent (what the
   * write gate judges) and this transport's own send for any read it needs first: it may refuse the
   * request, or hold it (--dry-run), by throwing.
   */
  beforeWrite?: (req: HttpRequest, target: RequestTarget, send: Transport['send']) => Promise<void>;
  /**
   * Called before a request that is not a GET is sent, after beforeWrite: returns what is told the
   * write's outcome once it has one (the journal of changes), or undefined; it refuses the request by throwing.
   */
  watchWrite?: (req: HttpRequest) => Promise<((outcome: WriteOutcome) => void) | undefined>;
}

/** How a write ended: the last answer to it, or, without one, the error. */
export interface WriteOutcome {
  answer?: HttpAnswer;
  error?: unknown;
}

/** No answer of the API comes near this; a body past it is refused rather than held in memory. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The body size limit: LOOPSCTL_MAX_BODY_BYTES when set (a whole number of bytes), else the default. */
export function maxBodyBytes(env: Record<string, string | undefined>): number {
  const value = env.LOOPSCTL_MAX_BODY_BYTES?.trim();
  if (!value) return DEFAULT_MAX_BODY_BYTES;
  if (!/^\d+$/.test(value) || Number(value) === 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`LOOPSCTL_MAX_BODY_BYTES must be a whole number of bytes, such as ${DEFAULT_MAX_BODY_BYTES}`);
  }
  return Number(value);
}

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
    /** The answer that failed, when one came. */
    readonly answer?: HttpAnswer,
  ) {}
}

export class HttpTransport implements Transport {
  private readonly pool: RequestPool;
  private readonly proxy?: ChosenProxy;
  private readonly baseUrl: string;
  /** The base URL parsed once, and its path without a trailing slash: every request's URL is checked against them. */
  private readonly base: URL;
  private readonly basePath: string;
  private readonly policy: RetryPolicy;
  private readonly pacer: Pacer;
  private readonly maxBodyBytes: number;
  private readonly deadlines: Deadlines;
  /** The last path without a query that target() checked, and what it made. */
  private lastPlain: { path: string; write: boolean; made: { target: RequestTarget; url: string } } | undefined;

  constructor(private readonly options: TransportOptions) {
    // A key that cannot travel in a header would make Node fail with a message that quotes it.
    if (!/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new AuthError('the API key contains spaces, control characters or non-ASCII characters', {
        code: 'no_key',
        hint: 'check LOOPS_API_KEY, or store the key again with `loopsctl auth login`',
      });
    }
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.base = new URL(this.baseUrl);
    this.basePath = this.base.pathname.replace(/\/+$/, '');
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.pacer = options.pacer ?? new Pacer();
    this.deadlines = new Deadlines(options.signal);
    ({ pool: this.pool, proxy: this.proxy } =
      options.pool === undefined
        ? poolFor(this.baseUrl, options.proxy, { keepAliveTimeout: 10_000, connections: 8, connectTimeout: options.timeoutMs }, options.debug)
        : { pool: options.pool });
  }

  /**
   * The request's target and URL, made here alone: its path below the base URL's exactly as
   * written, and its query. A path that a URL parser or a server would read as another (a `\`,
   * a `..`, an encoded `/` in a write: src/base/request-target.ts) is refused before anything is
   * sent, so the request the write gate judges is the request sent, and the key only ever goes
   * where the base URL points.
   */
  target(req: Pick<HttpRequest, 'method' | 'path' | 'query'>): { target: RequestTarget; url: string } {
    // An import asks for one path thousands of times: its target, checked once, is kept.
    const plain = req.query === undefined;
    const write = req.method !== 'GET';
    const last = this.lastPlain;
    if (plain && last !== undefined && req.path === last.path && write === last.write) return last.made;
    const target = requestTarget(req.path, req.query, write);
    const url = new URL(this.baseUrl + target.path + target.search);
    const { base, basePath } = this;
    // Checked again as a URL: a path sent as written stays below the base URL's, at its origin.
    if (url.origin !== base.origin || url.pathname !== basePath + target.path) {
      throw new UsageError(`the path ${JSON.stringify(escapeControls(req.path))} leads outside the base URL ${redactUrl(base.toString())}`, {
        hint: 'give a path below the base URL, without .. segments',
      });
    }
    const made = { target, url: url.toString() };
    if (plain) this.lastPlain = { path: req.path, write, made };
    return made;
  }

  /** The request's URL (see target). */
  url(req: Pick<HttpRequest, 'path' | 'query'> & { method?: Method }): string {
    return this.target({ method: req.method ?? 'GET', ...req }).url;
  }

  /**
   * Sends a request, retrying as the rules allow, and returns its parsed JSON body, or throws the
   * error the last failure means.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const { answer, error } = await this.exchange(req);
    if (error !== undefined) throw error;
    // 204 No Content (a deleted workflow) has no body to parse.
    const { status, headers, contentType, text } = answer;
    return { status, headers, contentType, text, body: status === 204 ? undefined : parseJson(text, status, contentType) };
  }

  /**
   * Sends a request, retrying as the rules allow, and returns the last answer as received, whatever
   * its status, with the error a failing one means. A request that got no answer throws.
   */
  async exchange(req: HttpRequest): Promise<HttpExchange> {
    // The target is made first: a write held or refused is one that could have been sent, judged as it would be.
    const { target, url } = this.target(req);
    if (req.method === 'GET') return this.attempts(req, url);
    await this.options.beforeWrite?.(req, target, (read) => this.send(read));
    const told = await this.options.watchWrite?.(req);
    if (told === undefined) return this.attempts(req, url);
    let exchange: HttpExchange;
    try {
      exchange = await this.attempts(req, url);
    } catch (error) {
      told({ error });
      throw error;
    }
    told({ answer: exchange.answer, error: exchange.error });
    return exchange;
  }

  /** The attempts at one request, as the retry rules allow. */
  private async attempts(req: HttpRequest, url: string): Promise<HttpExchange> {
    const { retries } = this.policy;
    for (let retry = 0; ; retry += 1) {
      let failure: AttemptFailure;
      try {
        req.onAttempt?.(retry + 1);
        const answer = await this.attempt(req, url);
        const judged = this.judge(answer, url);
        if (!(judged instanceof AttemptFailure)) return { answer, error: judged };
        failure = judged;
      } catch (thrown) {
        if (!(thrown instanceof AttemptFailure)) throw thrown;
        failure = thrown;
      }
      const { error, kind, reason, retryAfterMs, answer } = failure;
      const giveUp = (final: LoopsctlError): HttpExchange => {
        if (answer === undefined) throw final;
        return { answer, error: final };
      };
      // A quota's 429 (the daily preview or upload limit) will not pass by waiting a little.
      if (kind === 'rate-limited' && req.quota) return giveUp(error);
      if (!mayRetry(kind, req.idempotent)) return giveUp(unretriedWrite(error));
      if (retry >= retries)
        return giveUp(
          retries === 0 ? error : withDetails(error, { message: `${error.message} (gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'})` }),
        );
      if (retryAfterMs !== undefined && retryAfterMs > this.policy.maxRetryAfterMs)
        return giveUp(waitTooLong(error, 'the API', retryAfterMs, this.policy.maxRetryAfterMs));
      const delayMs = retryAfterMs ?? backoffDelay(retry, this.policy);
      this.options.onRetry?.({ request: `${req.method} ${req.path}`, retry: retry + 1, retries, delayMs, reason });
      await sleep(delayMs, this.options.signal);
    }
  }

  async close(): Promise<void> {
    this.deadlines.close();
    if (this.options.pool === undefined) await this.pool.close();
  }

  /** One attempt: the answer, whatever its status, or an AttemptFailure when none came. */
  private async attempt(req: HttpRequest, url: string): Promise<HttpAnswer> {
    const interrupt = this.options.signal;
    if (interrupt?.aborted) throw new InterruptedError('interrupted');
    const answered = await this.pacer.turn(interrupt);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    const payload = req.bodyText ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    if (payload !== undefined) headers['content-type'] = 'application/json';
    // Headers a command gives win, such as a content type of its own.
    if (req.headers !== undefined) Object.assign(headers, req.headers);
    // One deadline for the whole attempt: a server that trickles its body slowly still ends.
    const deadline = this.deadlines.start(this.options.timeoutMs);
    const { debug } = this.options;
    const started = debug === undefined ? 0 : monotonicMs();
    // The debug line's pieces are made only for --debug: an import makes thousands of requests.
    const shownUrl = debug === undefined ? '' : redactUrl(url);
    if (debug !== undefined) {
      // The idempotency key is no secret, and shows which sends a retry repeated.
      // Header names are case-insensitive: `api` sends it as idempotency-key.
      const key = Object.entries(headers).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
      debug(
        `> ${req.method} ${shownUrl} (authorization: Bearer [redacted], user-agent: ${this.options.userAgent}${key === undefined ? '' : `, idempotency-key: ${key}`})`,
      );
    }
    let response: ResponseData | undefined;
    let text: string | undefined;
    try {
      // The deadline bounds the wait for the headers and the body: the pool sets no timers of its own.
      try {
        response = await this.pool.request(url, { method: req.method, headers, body: payload, signal: deadline });
      } finally {
        // The request reached the API no later than this: the pace counts its window from here.
        answered();
      }
      text = await response.text(this.maxBodyBytes);
    } catch (error) {
      if (interrupt?.aborted) throw new InterruptedError('interrupted', { cause: error });
      throw this.networkFailure(error, req, url, deadline.expired, response !== undefined);
    } finally {
      deadline.clear();
    }
    debug?.(`< ${response.statusCode} ${req.method} ${shownUrl} in ${Math.round(monotonicMs() - started)} ms`);
    this.pacer.observe(response.headers);
    const contentType = String(response.headers['content-type'] ?? '');
    const status = response.statusCode;
    // Never retried: the same request would bring the same answer.
    if (text === undefined) throw this.tooLarge(status);
    if (status < 200 || status > 599) {
      throw new InvalidResponseError(`the API answered with status ${status}, which HTTP does not define`, {
        status,
        hint: 'check the base URL (--base-url, LOOPS_BASE_URL)',
      });
    }
    const encoding = headerValue(response.headers['content-encoding']);
    if (encoding !== undefined && encoding !== '' && encoding.toLowerCase() !== 'identity') {
      throw new InvalidResponseError(
        `the API answered HTTP ${status} with a body encoded as "${escapeControls(encoding)}" (content-encoding), which loopsctl does not ask for and does not decode`,
        { status, hint: 'a proxy between loopsctl and the API may be compressing answers; check the base URL (--base-url, LOOPS_BASE_URL)' },
      );
    }
    return { status, headers: response.headers, contentType, text };
  }

  /**
   * What an answer means: nothing for a success, an AttemptFailure for one worth retrying (429,
   * 5xx), else the error to report.
   */
  private judge(answer: HttpAnswer, url: string): AttemptFailure | LoopsctlError | undefined {
    const { status, headers, text, contentType } = answer;
    if (status >= 200 && status < 300) return undefined;
    let message: string | undefined;
    let body: unknown;
    try {
      // An error page that is not JSON, or nests too deeply to read, still says what the status means.
      const parsed = jsonNestingExceeds(text) ? undefined : errorBody.safeParse(JSON.parse(text));
      if (parsed?.success) {
        message = parsed.data.message;
        body = parsed.data;
      }
    } catch {
      // As above: not JSON.
    }
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    if (status >= 300 && status < 400) {
      const location = headerValue(headers.location);
      return errorForStatus(status, message, {
        note: location ? `a redirect to ${describeLocation(location, url)}, not followed` : 'a redirect, not followed',
        hint: 'loopsctl does not follow redirects; check the base URL (--base-url, LOOPS_BASE_URL): it should be the API root, such as https://app.loops.so/api',
      });
    }
    if (status === 429) {
      const note = retryAfterMs === undefined ? undefined : `it asks to wait ${formatSeconds(retryAfterMs)}`;
      return new AttemptFailure(errorForStatus(status, message, { note }), 'rate-limited', 'HTTP 429', retryAfterMs, answer);
    }
    if (status >= 500) {
      const note = message === undefined && text.length > 0 ? describeBody(text, contentType) : undefined;
      return new AttemptFailure(errorForStatus(status, message, { note }), 'server', `HTTP ${status}`, retryAfterMs, answer);
    }
    return errorForStatus(status, message, { body });
  }

  private tooLarge(status: number): InvalidResponseError {
    return new InvalidResponseError(`the API answered HTTP ${status} with a body larger than ${formatBytes(this.maxBodyBytes)}, the most loopsctl reads`, {
      status,
      hint: 'ask for less at a time (such as a smaller --per-page), or raise the limit with LOOPSCTL_MAX_BODY_BYTES=<bytes>',
    });
  }

  private networkFailure(error: unknown, req: HttpRequest, url: string, deadlinePassed: boolean, answered: boolean): AttemptFailure {
    const what = `${req.method} ${new URL(url).pathname}`;
    if (deadlinePassed) {
      const limit = `the ${formatSeconds(this.options.timeoutMs)} timeout (--timeout)`;
      const message = answered ? `${what}: the answer did not finish within ${limit}` : `${what}: no answer within ${limit}`;
      const network = new NetworkError(message, {
        code: 'timeout',
        cause: error,
        hint: `${this.proxy === undefined || answered ? 'the API' : `the API, or the proxy ${shownProxy(this.proxy.url)} (${this.proxy.from}),`} may be slow or unreachable; raise the limit with --timeout <seconds>`,
      });
      return new AttemptFailure(network, 'broken', 'timed out');
    }
    if (this.proxy !== undefined && (error instanceof ProxyRefusedError || error instanceof ProxyUnreachableError)) {
      const failure = proxyError(error, this.proxy, what, new URL(url).origin);
      // A refusal is the proxy's rule, and will not change on a retry.
      if (error instanceof ProxyRefusedError) throw failure;
      return new AttemptFailure(failure, 'not-connected', 'proxy unreachable');
    }
    const code = (error as { code?: string }).code;
    const connected = code === undefined || !(NOT_CONNECTED_CODES.has(code) || code === 'ENOTFOUND');
    const origin = new URL(url).origin;
    const detail = [(error as Error | undefined)?.message, code].filter(Boolean).join(', ');
    const network = new NetworkError(`${what}: ${connected ? `the connection to ${origin} broke` : `could not connect to ${origin}`} (${detail})`, {
      cause: error,
      hint: refusedLocally(code, origin)
        ? 'nothing listens at that address: is `loopsctl sandbox` (or the server the base URL names) running? Check the base URL (--base-url, LOOPS_BASE_URL)'
        : 'check the network, or the base URL (--base-url, LOOPS_BASE_URL)',
    });
    // A name that does not resolve will not resolve a second later either.
    if (code === 'ENOTFOUND') throw network;
    return new AttemptFailure(network, connected ? 'broken' : 'not-connected', code ?? 'connection broke');
  }
}

/** A connection refused on this machine: a local server (a sandbox, most often) that is not running. */
function refusedLocally(code: string | undefined, origin: string): boolean {
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  return code === 'ECONNREFUSED' && (host === 'localhost' || host === '::1' || /^127\./.test(host));
}

/** A write that failed after it may have reached the API is not sent again; the user checks. */
function unretriedWrite(error: LoopsctlError): LoopsctlError {
  return withDetails(error, {
    hint: 'loopsctl did not send it again because the API may already have acted on it; check before running the command again',
  });
}

/**
 * Where a redirect points, for the error message: resolved against the request, without
 * credentials, query or fragment (they may carry tokens), control characters escaped, cut short.
 */
function describeLocation(location: string, requestUrl: string): string {
  const MAX_CHARS = 200;
  let shown: string;
  try {
    const target = new URL(location, requestUrl);
    shown = `${target.protocol}//${target.host}${target.pathname}${target.search ? '?…' : ''}`;
  } catch {
    shown = redactUrl(location);
  }
  const escaped = escapeControls(shown);
  return escaped.length > MAX_CHARS ? `${escaped.slice(0, MAX_CHARS)}…` : escaped;
}

function formatBytes(bytes: number): string {
  const MIB = 1024 * 1024;
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

export function parseJson(text: string, status: number, contentType: string): unknown {
  if (jsonNestingExceeds(text)) {
    throw new InvalidResponseError(`the API answered HTTP ${status} with JSON nested more than ${MAX_JSON_DEPTH} levels deep, more than loopsctl reads`, {
      status,
    });
  }
  try {
    return parseJsonKeepingIntegers(text);
  } catch {
    throw new InvalidResponseError(`the API answered HTTP ${status} with a body that is not JSON (${describeBody(text, contentType)})`, { status });
  }
}
