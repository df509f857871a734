/**
 * The sandbox a `--sandbox` command talks to: in its own process, without a socket. Its requests
 * go through the same transport as any (retries, pacing, the checks of answers), whose pool hands
 * them to the sandbox's handler instead of the network: no server to start, no connection to
 * open, no HTTP to write and parse, which were most of what such a command cost beyond its own
 * work. `loopsctl sandbox` and `loopsctl/sandbox` serve the same sandbox over HTTP (server.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestPool, RequestSpec, ResponseData } from '../base/node-http.js';
import { openCore, type SandboxCore, type SandboxOptions } from './core.js';

/**
 * Where the in-process sandbox is taken to be: a name that reaches nothing on any network (the
 * `.invalid` domain is reserved for that), as nothing outside this process can reach it.
 */
export const IN_PROCESS_ORIGIN = 'http://sandbox.invalid';

export interface InProcessSandbox {
  /** The base URL its requests are made to. */
  url: string;
  /** The pool that answers requests to that URL. */
  pool: RequestPool;
  close(): Promise<void>;
}

export async function startInProcess(options: Pick<SandboxOptions, 'stateFile' | 'now' | 'onStateError' | 'rateLimit'>): Promise<InProcessSandbox> {
  const core = await openCore(options);
  return { url: IN_PROCESS_ORIGIN, pool: new InProcessPool(core, options.now ?? (() => new Date())), close: () => core.close() };
}

class InProcessPool implements RequestPool {
  constructor(
    private readonly core: SandboxCore,
    private readonly now: () => Date,
  ) {}

  async request(url: string, spec: RequestSpec): Promise<ResponseData> {
    spec.signal?.throwIfAborted();
    const target = new URL(url);
    if (target.origin !== IN_PROCESS_ORIGIN) throw new TypeError(`the in-process sandbox does not answer for ${target.origin}`);
    const body = spec.body === undefined ? Buffer.alloc(0) : Buffer.from(spec.body);
    const headers: Record<string, string> = { ...lowerCased(spec.headers), host: target.host };
    const answer = await this.core.answer({ method: spec.method, target: `${target.pathname}${target.search}`, headers, body }, IN_PROCESS_ORIGIN);
    spec.signal?.throwIfAborted();
    // What the server's answer would carry: its Date, the sandbox clock's time (`doctor`'s clock
    // check and `metrics snapshot` read it; the system's when the sandbox could not read its state),
    // and its type.
    const answerHeaders: IncomingHttpHeaders = {};
    dateHeader(answerHeaders, answer.at ?? this.now());
    const text = answer.status === 204 ? '' : JSON.stringify(answer.body);
    if (answer.status !== 204) answerHeaders['content-type'] = 'application/json; charset=utf-8';
    Object.assign(answerHeaders, lowerCased(answer.headers ?? {}));
    return {
      statusCode: answer.status,
      headers: answerHeaders,
      text: async (limit) => (Buffer.byteLength(text) > limit ? undefined : text),
      bytes: async (limit) => (Buffer.byteLength(text) > limit ? undefined : Buffer.from(text)),
    };
  }

  /** Nothing to end: the sandbox is closed by whoever started it. */
  async close(): Promise<void> {}
}

/**
 * Sets the Date header of `at`, formatted when first read: a Date's first formatting loads the
 * time-zone data (0.15 ms), which a command that never reads the header does without. Assigning
 * the header replaces it, as any other.
 */
function dateHeader(headers: IncomingHttpHeaders, at: Date): void {
  Object.defineProperty(headers, 'date', {
    enumerable: true,
    configurable: true,
    get: () => at.toUTCString(),
    set: (value: string) => Object.defineProperty(headers, 'date', { value, writable: true, enumerable: true, configurable: true }),
  });
}

/** Header names as Node gives them, in lower case. */
function lowerCased(headers: Record<string, string | number | readonly string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]));
}
