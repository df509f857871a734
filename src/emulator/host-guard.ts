/**
 * The sandbox's key is public, so whatever can reach the sandbox can read, reset and write it. A
 * web page can reach it too: by giving its own name the address 127.0.0.1 (DNS rebinding), the
 * browser sends the page's requests to the sandbox under the page's name; and a page can send a
 * request from the browser to the sandbox's address. Both are refused: a request must be addressed
 * (Host) to the address the sandbox listens on or to localhost, and a browser's request (Origin)
 * must come from the sandbox's own origin.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** Why the request is refused, or undefined when it is addressed to the sandbox. */
export function foreignRequest(headers: IncomingHttpHeaders, listening: URL): string | undefined {
  const where = `http://${listening.host} (or localhost)`;
  // HTTP/1.1 needs a Host, which Node's server checks; an HTTP/1.0 client without one is no browser.
  if (headers.host !== undefined && !addressed(hostnameOf(`http://${headers.host}`), listening.hostname)) {
    return `the sandbox answers only requests addressed to ${where}, not to ${JSON.stringify(headers.host)}`;
  }
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const from = originOf(origin);
  if (from === undefined || from.protocol !== 'http:' || !addressed(from.hostname, listening.hostname) || from.port !== listening.port) {
    return `the sandbox answers no request that a web page of another origin sends from a browser (Origin ${JSON.stringify(origin)}); it serves ${where}`;
  }
  return undefined;
}

function addressed(hostname: string | undefined, listening: string): boolean {
  if (hostname === undefined) return false;
  if (hostname === 'localhost' || hostname === listening) return true;
  // Listening on every interface, the sandbox is reached by any of the machine's addresses: never by a name.
  return (listening === '0.0.0.0' || listening === '[::]') && isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;
}

function hostnameOf(text: string): string | undefined {
  return originOf(text)?.hostname;
}

function originOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
