/**
 * The part of undici that src/api/http.ts uses (Agent, request, errors), for the bundle. undici's
 * main module also loads fetch, WebSocket, caches, mocks and interceptors, which would double the
 * start-up cost of every command that talks to the API. Importing anything else from undici in src/
 * fails the build here, rather than at run time.
 */
import { setFlagsFromString } from 'node:v8';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import errors from 'undici/lib/core/errors.js';
import util from 'undici/lib/core/util.js';

// What undici's main module does to give every dispatcher its request() method.
Object.assign(Dispatcher.prototype, api);

// undici parses HTTP with a WebAssembly build of llhttp. By default V8 also recompiles it with its
// optimizing tier in background threads, and Node waits for those at exit: some 100 ms after the
// last byte, on every run. The baseline tier parses our few, small responses just as well.
setFlagsFromString('--liftoff-only');

/** undici's request(url, options), for callers that always name their dispatcher. */
function request(url, options) {
  if (!options?.dispatcher) throw new errors.InvalidArgumentError('a dispatcher is required');
  const parsed = util.parseURL(url);
  return options.dispatcher.request({
    ...options,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: options.method || (options.body ? 'PUT' : 'GET'),
  });
}

export { Agent, errors, request };
