/** Ways a server can misbehave, as handlers for startApiServer. */
import type { ServerResponse } from 'node:http';
import { type Handler, json } from './api-server.js';

/** Answers the n-th request with the n-th handler, and every later one with the last. */
export function inTurn(...handlers: Handler[]): Handler {
  let index = 0;
  return (req, res) => handlers[Math.min(index++, handlers.length - 1)]!(req, res);
}

export function status(code: number, body: unknown = { message: `status ${code}` }, headers: Record<string, string> = {}): Handler {
  return (_req, res) => json(res, code, body, headers);
}

export function raw(code: number, contentType: string, body: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(code, { 'content-type': contentType, ...headers });
    res.end(body);
  };
}

/** Sends the headers and part of the body, then drops the connection. */
export function resetMidBody(): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
    res.write('{"sends": 1, "deliv');
    setTimeout(() => res.socket?.destroy(), 20);
  };
}

/** Never sends the headers (until the test ends the server). */
export function silent(): Handler {
  return () => undefined;
}

/** Sends the headers at once, then a byte of body every interval, forever. */
export function trickle(intervalMs: number): Handler {
  return (_req, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), intervalMs);
    res.on('close', () => clearInterval(timer));
  };
}
