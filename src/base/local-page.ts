/**
 * Pages served on this machine to its own browser: the sandbox's inbox and `content preview`.
 * Whatever such a server answers, a web page elsewhere must not reach it. A page can give its own
 * name the address 127.0.0.1 (DNS rebinding), and the browser then sends the page's requests here
 * under that name; and a page can send a request from the browser to this address. Both are
 * refused: a request must be addressed (Host) to the address the server listens on or to
 * localhost, and a browser's request (Origin) must come from the server's own origin. Every
 * answer carries the same security headers, and a page and the email it frames each their policy.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/** Headers every answer of a local page carries: no sniffing, no referrer, nothing cached. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** A page runs its own script only; its frames show emails, which run none. `forms` is where its forms may post, `images` where its own images come from. */
export function pagePolicy(forms: "'self'" | "'none'", images = "'self' data:"): string {
  return `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'self'; img-src ${images}; base-uri 'none'; form-action ${forms}; frame-ancestors 'none'`;
}

/**
 * An email's policy: it runs nothing and loads nothing but the images `images` allows (the server's
 * own route, which loopsctl fetches them through, or `data:` placeholders; never the web directly);
 * only its own page frames it.
 */
export function emailPolicy(images: string): string {
  return `default-src 'none'; img-src ${images}; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;
}

/** Answers a request with a whole text (a page, a script, a message), with the security headers. */
export function sendText(res: ServerResponse, status: number, type: string, text: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS, ...headers });
  res.end(text);
}

/** Opens a stream of server-sent events, its first event `hello` with `data`. */
export function openEventStream(res: ServerResponse, data: string | number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', ...SECURITY_HEADERS, connection: 'keep-alive' });
  res.write(`event: hello\ndata: ${data}\n\n`);
}

/**
 * Why a request is refused, or undefined when it is addressed to the server listening at
 * `listening`. `who` names the server in the message: "the sandbox", "this preview".
 */
export function foreignRequest(headers: IncomingHttpHeaders, listening: URL, who: string): string | undefined {
  const where = `http://${listening.host} (or localhost)`;
  // HTTP/1.1 needs a Host, which Node's server checks; an HTTP/1.0 client without one is no browser.
  if (headers.host !== undefined && !addressed(originOf(`http://${headers.host}`)?.hostname, listening.hostname)) {
    return `${who} answers only requests addressed to ${where}, not to ${JSON.stringify(headers.host)}`;
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const from = originOf(origin);
  if (from === undefined || from.protocol !== 'http:' || !addressed(from.hostname, listening.hostname) || from.port !== listening.port) {
    return `${who} answers no request that a web page of another origin sends from a browser (Origin ${JSON.stringify(origin)}); it serves ${where}`;
  }
  return undefined;
}

function addressed(hostname: string | undefined, listening: string): boolean {
  if (hostname === undefined) return false;
  if (hostname === 'localhost' || hostname === listening) return true;
  // Listening on every interface, the server is reached by any of the machine's addresses: never by a name.
  return (listening === '0.0.0.0' || listening === '[::]') && isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;
}

function originOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
