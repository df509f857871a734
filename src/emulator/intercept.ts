/**
 * The sandbox under the platform's own address: requests this process makes to
 * `https://app.loops.so/api/…` through fetch (the global one, which the official SDK and most
 * clients use, and undici's, through the global dispatcher both share) are answered by an
 * in-process sandbox, so an app's tests use `new LoopsClient(key)` exactly as in production, with
 * no base URL to change. Only the API's operations are taken; any other request passes through as
 * it was made; what each interceptor returns puts fetch and the dispatchers back as they were.
 */
import type { ApiAnswer } from './api.js';
import type { WireRequest } from './core.js';

/** The platform's API, as the official SDKs address it. */
export const LOOPS_ORIGIN = 'https://app.loops.so';
/** The API's operations, all under `/api/v1/` (the description's server is `…/api`, its paths `/v1/…`). */
const API_PATHS = '/api/v1/';

export type Answerer = (request: WireRequest) => Promise<ApiAnswer>;

/** Whether a URL is one of the platform's API operations, which the sandbox answers. */
export function isLoopsApi(url: URL): boolean {
  return url.origin === LOOPS_ORIGIN && url.pathname.startsWith(API_PATHS);
}

/**
 * The URL a fetch's input names, read without touching the input: a Request's body is consumed
 * when a Request is made from it, and the fetch a request passes on to must get it unread.
 * Undefined when the input names no URL (the fetch it passes to then says why).
 */
function urlOfInput(input: unknown): URL | undefined {
  // fetch takes any object for its URL by its string (a URL's is its href).
  const named = input instanceof Request ? input.url : String(input);
  return URL.canParse(named) ? new URL(named) : undefined;
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

/** `work`, unless `signal` aborts first: then its reason, as fetch rejects an aborted request. */
function unlessAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

let installed: { original: typeof fetch; ours: typeof fetch } | undefined;

/**
 * Replaces the process's fetch with one that hands requests to the platform's API to `answer`,
 * and every other, as it was given, to the fetch it replaces. Refuses a second one while the first
 * is in place: two sandboxes cannot both be app.loops.so.
 */
export function interceptFetch(answer: Answerer): () => void {
  if (installed !== undefined) throw new TypeError('requests to app.loops.so are already intercepted: close() that sandbox first');
  const original = globalThis.fetch;
  const ours: typeof fetch = async (input, init) => {
    const url = urlOfInput(input);
    if (url === undefined || !isLoopsApi(url)) return original(input, init);
    const request = new Request(input, init);
    return responseOf(await unlessAborted(request.signal, wireRequest(request).then(answer)));
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

/**
 * The symbols under which Node's fetch and the undici package keep the process's dispatcher:
 * undici 7 writes both and reads the first, Node's own and older undici only the first, later
 * undici the second. Each one set is replaced, and put back.
 */
const GLOBAL_DISPATCHERS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];

interface DispatchOptions {
  origin?: string | URL;
  path: string;
  method: string;
  headers?: unknown;
  body?: unknown;
}

/** The handler a dispatch reports to: undici 7's callbacks (Node 24's own fetch), or the older ones (Node 22's, undici 6). */
type DispatchHandler = Record<string, ((...args: never[]) => unknown) | undefined>;

interface Dispatcher {
  dispatch(options: DispatchOptions, handler: DispatchHandler): boolean;
}

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

/** The platform's API operation a dispatch names, or undefined for one the sandbox leaves alone. */
function loopsTarget(options: DispatchOptions): URL | undefined {
  // A path that is not origin-relative (a proxy's absolute form) goes where its dispatcher sends it.
  if (options.origin === undefined || typeof options.path !== 'string' || !options.path.startsWith('/')) return undefined;
  const origin = String(options.origin);
  if (!URL.canParse(origin)) return undefined;
  const url = new URL(options.path, new URL(origin).origin);
  return isLoopsApi(url) ? url : undefined;
}

/**
 * Answers a dispatch, in whichever of undici's two handler forms its handler speaks. The handler
 * is told of the request first and handed what aborts it, as a dispatcher does: an abort (fetch's
 * or request()'s signal) reports the error at once, and the answer then never reaches the handler.
 */
function answerDispatch(answer: Answerer, url: URL, options: DispatchOptions, handler: DispatchHandler): void {
  const call = (name: string, ...args: unknown[]) => (handler[name] as ((...given: unknown[]) => unknown) | undefined)?.(...args);
  const modern = typeof handler.onResponseStart === 'function';
  let settled = false;
  const fail = (error: unknown) => {
    if (settled) return;
    settled = true;
    if (modern) call('onResponseError', controller, error);
    else call('onError', error);
  };
  const abort = (reason?: unknown) => fail(reason ?? new DOMException('The operation was aborted.', 'AbortError'));
  const controller = { abort, pause: () => {}, resume: () => {}, paused: false, aborted: false, reason: null };
  if (modern) call('onRequestStart', controller, {});
  else call('onConnect', abort);
  if (settled) return;
  bodyOf(options.body)
    .then((body) => answer({ method: options.method, target: `${url.pathname}${url.search}`, headers: headersOf(options.headers), body }))
    .then((answered) => {
      if (settled) return;
      settled = true;
      const text = answered.status === 204 ? '' : JSON.stringify(answered.body);
      const headers: Record<string, string> = {
        ...(answered.status === 204 ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        ...answered.headers,
      };
      if (modern) {
        call('onResponseStart', controller, answered.status, headers, '');
        if (text !== '') call('onResponseData', controller, Buffer.from(text));
        call('onResponseEnd', controller, {});
        return;
      }
      const raw = Object.entries(headers).flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]);
      call('onHeaders', answered.status, raw, () => {}, '');
      if (text !== '') call('onData', Buffer.from(text));
      call('onComplete', []);
    }, fail);
}

/**
 * Puts a dispatcher in front of the process's own: a dispatch to the platform's API is answered
 * by `answer`, any other goes, as it was given, to the dispatcher it was in front of (which does
 * all else: its request(), stream(), close()). Returns what puts each replaced one back.
 */
export function interceptDispatcher(answer: Answerer): () => void {
  const store = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  // Node's fetch sets its dispatcher when it first loads, which its Headers does: before that
  // there would be none to stand in front of, and a fetch loaded later would pass this by.
  new Headers();
  const replaced = new Map<symbol, { previous: Dispatcher; ours: Dispatcher }>();
  for (const symbol of GLOBAL_DISPATCHERS) {
    const previous = store[symbol];
    if (previous === undefined) continue;
    // The same dispatcher under both symbols gets the same stand-in.
    const same = [...replaced.values()].find((entry) => entry.previous === previous);
    const dispatch = (options: DispatchOptions, handler: DispatchHandler): boolean => {
      const url = loopsTarget(options);
      if (url === undefined) return previous.dispatch(options, handler);
      answerDispatch(answer, url, options, handler);
      return true;
    };
    // Everything but dispatch is the previous dispatcher's, called on this one, so that its request() dispatches here.
    const ours = same?.ours ?? new Proxy(previous, { get: (target, name, receiver) => (name === 'dispatch' ? dispatch : Reflect.get(target, name, receiver)) });
    replaced.set(symbol, { previous, ours });
    store[symbol] = ours;
  }
  return () => {
    // Put back only what this replaced: a dispatcher someone set over it since is theirs to remove.
    for (const [symbol, { previous, ours }] of replaced) if (store[symbol] === ours) store[symbol] = previous;
  };
}
