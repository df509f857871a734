/**
 * Requests through an HTTP(S) proxy, with undici's ProxyAgent: a tunnel (CONNECT) to the target
 * through the proxy, the proxy's credentials taken from its URL. Loaded only when a proxy applies
 * (see proxy.ts); undici is bundled on its own (dist/vendor/undici.cjs) for that reason. Failures
 * of the proxy itself become errors of their own, which the transport reports as proxy errors.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ProxyAgent, request } from 'undici';
import { BodyTimeoutError, HeadersTimeoutError, readBody, type PoolOptions, type RequestPool, type RequestSpec, type ResponseData } from './node-http.js';
import { ProxyRefusedError, ProxyUnreachableError } from './proxy.js';

/** Errors of connecting, which through a proxy can only be connecting to the proxy. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export class ProxyPool implements RequestPool {
  private readonly agent: ProxyAgent;

  constructor(proxyUrl: string, options: PoolOptions) {
    this.agent = new ProxyAgent({ uri: proxyUrl, connections: options.connections, keepAliveTimeout: options.keepAliveTimeout, connect: { timeout: options.connectTimeout } });
  }

  async request(url: string, spec: RequestSpec): Promise<ResponseData> {
    spec.signal?.throwIfAborted();
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: spec.method as 'GET',
        headers: spec.headers,
        body: spec.body,
        headersTimeout: spec.headersTimeout,
        bodyTimeout: spec.bodyTimeout,
        signal: spec.signal,
      });
      const headers = response.headers as IncomingHttpHeaders;
      return { statusCode: response.statusCode, headers, text: (limit) => readBody(response.body, headers, spec.bodyTimeout, limit).catch((error: unknown) => Promise.reject(translated(error))) };
    } catch (error) {
      throw translated(error);
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** undici's errors as the transport knows them: the time limits of node-http.ts, and the proxy's own failures. */
function translated(error: unknown): unknown {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const refused = /^Proxy response \((\d+)\) !== 200/.exec(message ?? '');
  if (refused) return new ProxyRefusedError(Number(refused[1]));
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return new HeadersTimeoutError(message, { cause: error });
  if (code === 'UND_ERR_BODY_TIMEOUT') return new BodyTimeoutError(message, { cause: error });
  const connectCode = code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (connectCode !== undefined && CONNECT_FAILURES.has(connectCode)) return new ProxyUnreachableError(`${message ?? 'could not connect'} (${connectCode})`, { cause: error });
  return error;
}
