/**
 * The sandbox under the platform's own address: requests this process makes to
 * `https://app.loops.so/api/…` through fetch (the global one, which the official SDK and most
 * clients use, and undici's, through the global dispatcher both share) are answered by an
 * in-process sandbox, so an app's tests use `new LoopsClient(key)` exactly as in production, with
 * no base URL to change. Requests to any other host pass through untouched; `restore()` puts fetch
 * and the dispatcher back as they were.
 */
import type { ApiAnswer } from './api.js';
import type { WireRequest } from './core.js';

/** The platform's API, as the official SDKs address it. */
export const LOOPS_ORIGIN = 'https://app.loops.so';
const API_PREFIX = '/api/';

export type Answerer = (request: WireRequest) => Promise<ApiAnswer>;

/** Whether a URL is the platform's API, which the sandbox answers. */
export function isLoopsApi(url: URL): boolean {
  return url.origin === LOOPS_ORIGIN && url.pathname.startsWith(API_PREFIX);
}

/** The sandbox's answer as fetch's Response. */
function responseOf(answer: ApiAnswer): Response {
  const headers = new Headers(answer.headers);
  if (answer.status === 204) return new Response(null, { status: 204, headers });
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}

async function wireRequest(request: Request): Promise<WireRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { method: request.method, target: `${url.pathname}${url.search}`, headers, body: Buffer.from(await request.arrayBuffer()) };
}

let installed: { original: typeof fetch; ours: typeof fetch } | undefined;

/**
 * Replaces the process's fetch with one that hands requests to the platform's API to `answer`,
 * and every other to the fetch it replaces. Refuses a second one while the first is in place: two
 * sandboxes cannot both be app.loops.so.
 */
export function interceptFetch(answer: Answerer): () => void {
  if (installed !== undefined) throw new TypeError('requests to app.loops.so are already intercepted: close() that sandbox first');
  const original = globalThis.fetch;
  const ours: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!isLoopsApi(new URL(request.url))) return original(input, init);
    request.signal.throwIfAborted();
    return responseOf(await answer(await wireRequest(request)));
  };
  globalThis.fetch = ours;
  installed = { original, ours };
  return () => {
    if (installed?.ours !== ours) return;
    // Put back only what this replaced: a fetch someone installed over it since is theirs to remove.
    if (globalThis.fetch === ours) globalThis.fetch = original;
    installed = undefined;
  };
}

/** The symbol under which Node's fetch and the undici package both keep the process's dispatcher. */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

interface DispatchOptions {
  origin?: string | URL;
  path: string;
  method: string;
  headers?: unknown;
  body?: unknown;
}

/** The handler a dispatch reports to: undici 7's callbacks, or the older ones (Node 20's own fetch). */
type DispatchHandler = Record<string, ((...args: never[]) => unknown) | undefined>;

/** A dispatch's request headers (an object, a flat list of names and values, or pairs) in lower case. */
function headersOf(raw: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  const add = (name: unknown, value: unknown) => {
    headers[String(name).toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  };
  if (Array.isArray(raw)) {
    if (raw.every((entry) => Array.isArray(entry))) for (const [name, value] of raw as unknown[][]) add(name, value);
    else for (let index = 0; index + 1 < raw.length; index += 2) add(raw[index], raw[index + 1]);
  } else if (raw !== null && typeof raw === 'object') {
    const entries = Symbol.iterator in raw ? [...(raw as Iterable<[unknown, unknown]>)] : Object.entries(raw);
    for (const [name, value] of entries) add(name, value);
  }
  return headers;
}

async function bodyOf(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<string | Uint8Array>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Reports the sandbox's answer to a dispatch's handler, in whichever of undici's two handler forms it speaks. */
function report(handler: DispatchHandler, answer: ApiAnswer): void {
  const text = answer.status === 204 ? '' : JSON.stringify(answer.body);
  const headers: Record<string, string> = { ...(answer.status === 204 ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...answer.headers };
  const call = (name: string, ...args: unknown[]) => (handler[name] as ((...given: unknown[]) => unknown) | undefined)?.(...args);
  if (typeof handler.onResponseStart === 'function') {
    const controller = { abort: () => {}, pause: () => {}, resume: () => {}, paused: false, aborted: false, reason: null };
    call('onRequestStart', controller, {});
    call('onResponseStart', controller, answer.status, headers, '');
    if (text !== '') call('onResponseData', controller, Buffer.from(text));
    call('onResponseEnd', controller, {});
    return;
  }
  call('onConnect', () => {});
  const raw = Object.entries(headers).flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]);
  call('onHeaders', answer.status, raw, () => {}, '');
  if (text !== '') call('onData', Buffer.from(text));
  call('onComplete', []);
}

function reportError(handler: DispatchHandler, error: unknown): void {
  const call = (name: string, ...args: unknown[]) => (handler[name] as ((...given: unknown[]) => unknown) | undefined)?.(...args);
  if (typeof handler.onResponseError === 'function') call('onResponseError', { abort: () => {} }, error);
  else call('onError', error);
}

/**
 * Puts a dispatcher in front of the process's own: a dispatch to the platform's API is answered
 * by `answer`, any other goes to the dispatcher it was in front of (which does all else: its
 * request(), stream(), close()). Returns what takes it away again.
 */
export function interceptDispatcher(answer: Answerer): () => void {
  const store = globalThis as unknown as Record<symbol, object | undefined>;
  const previous = store[GLOBAL_DISPATCHER];
  if (previous === undefined) return () => {};
  const dispatch = (options: DispatchOptions, handler: DispatchHandler): boolean => {
    const url = new URL(options.path, options.origin === undefined ? LOOPS_ORIGIN : String(options.origin));
    if (!isLoopsApi(url)) return (previous as { dispatch(options: DispatchOptions, handler: DispatchHandler): boolean }).dispatch(options, handler);
    bodyOf(options.body)
      .then((body) => answer({ method: options.method, target: `${url.pathname}${url.search}`, headers: headersOf(options.headers), body }))
      .then(
        (answered) => report(handler, answered),
        (error: unknown) => reportError(handler, error),
      );
    return true;
  };
  // Everything but dispatch is the previous dispatcher's, called on this one, so that its request() dispatches here.
  const ours = new Proxy(previous, { get: (target, name, receiver) => (name === 'dispatch' ? dispatch : Reflect.get(target, name, receiver)) });
  store[GLOBAL_DISPATCHER] = ours;
  return () => {
    if (store[GLOBAL_DISPATCHER] === ours) store[GLOBAL_DISPATCHER] = previous;
  };
}
