/**
 * The HTTP transport: one keep-alive undici Agent per run, the bearer key, the User-Agent, a
 * timeout per attempt, debug lines with the key redacted, and the mapping of every failure to the
 * error hierarchy. The client above it knows paths and schemas; this knows only requests.
 */
import { Agent, errors as undiciErrors, request } from 'undici';
import type { Dispatcher } from 'undici';
import { errorBody } from './schemas.js';
import { errorForStatus, InvalidResponseError, NetworkError, type LoopsctlError } from './errors.js';
import { describeBody } from './body-preview.js';

export type Method = 'GET' | 'POST';

export interface HttpRequest {
  method: Method;
  /** Path below the base URL, already percent-encoded, starting with '/'. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  /** Per attempt, in milliseconds. */
  timeoutMs: number;
  /** Receives one line per request when --debug is on. */
  debug?: (line: string) => void;
  signal?: AbortSignal;
}

export class HttpTransport {
  private readonly agent: Agent;
  private readonly baseUrl: string;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 8 });
  }

  url(req: Pick<HttpRequest, 'path' | 'query'>): string {
    const url = new URL(this.baseUrl + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** Sends one request and returns its parsed JSON body, or throws the error its status means. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const url = this.url(req);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      'user-agent': this.options.userAgent,
      accept: 'application/json',
    };
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    this.options.debug?.(`> ${req.method} ${url} (authorization: Bearer [redacted], user-agent: ${this.options.userAgent})`);
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      response = await request(url, {
        method: req.method,
        headers,
        body: payload,
        dispatcher: this.agent,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: this.options.signal,
      });
      text = await response.body.text();
    } catch (error) {
      throw this.networkError(error, req, url);
    }
    const elapsed = Math.round(performance.now() - started);
    this.options.debug?.(`< ${response.statusCode} ${req.method} ${url} in ${elapsed} ms`);
    const contentType = String(response.headers['content-type'] ?? '');
    const status = response.statusCode;

    if (status >= 200 && status < 300) {
      return { status, headers: response.headers, body: parseJson(text, status, contentType) };
    }
    throw this.statusError(status, text, contentType);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private statusError(status: number, text: string, contentType: string): LoopsctlError {
    let message: string | undefined;
    try {
      const parsed = errorBody.safeParse(JSON.parse(text));
      if (parsed.success) message = parsed.data.message;
    } catch {
      // An error page that is not JSON still says what the status means.
    }
    const error = errorForStatus(status, message);
    if (message === undefined && text.length > 0 && status >= 500) {
      return Object.assign(error, { message: `${error.message} (${describeBody(text, contentType)})` });
    }
    return error;
  }

  private networkError(error: unknown, req: HttpRequest, url: string): LoopsctlError {
    const seconds = this.options.timeoutMs / 1000;
    if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return new NetworkError('timeout', `${req.method} ${url} timed out after ${seconds} s`, {
        cause: error,
        hint: 'raise the limit with --timeout <seconds>',
      });
    }
    const code = (error as { code?: string }).code;
    const reason = code ?? (error as Error).message ?? String(error);
    return new NetworkError('network', `could not reach ${new URL(url).origin}: ${reason}`, {
      cause: error,
      hint: 'check the network, or the base URL (--base-url, LOOPS_BASE_URL)',
    });
  }
}

function parseJson(text: string, status: number, contentType: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidResponseError(`the API answered HTTP ${status} with a body that is not JSON (${describeBody(text, contentType)})`, { status });
  }
}
