/**
 * Which proxy a request goes through: `--proxy`, else HTTPS_PROXY (https_proxy) for an https URL and
 * HTTP_PROXY (http_proxy) for an http one, unless NO_PROXY (no_proxy) names the host; the tunnel
 * through it is proxy-pool.ts's.
 */
import { builtinModule } from '../base/builtin.js';
import { ProxyError, UsageError } from '../base/errors.js';
import { ConnectionPool, type PoolOptions, type RequestPool } from '../base/node-http.js';
import { checkUserinfo } from './base-url.js';
import { type ProxyRefusedError, ProxyUnreachableError, proxyPool } from './proxy-pool.js';

export interface ProxySettings {
  /** --proxy, which stands for HTTPS_PROXY and HTTP_PROXY alike. */
  flag?: string;
  env: Record<string, string | undefined>;
}

export interface ChosenProxy {
  /** The proxy's URL, credentials included: never printed. */
  url: string;
  /** The flag or variable it came from, for messages. */
  from: string;
}

/** The proxy for a request to the URL (none to connect directly), and the variable that exempted it from one. */
export function proxyFor(target: string | URL, settings: ProxySettings): { proxy?: ChosenProxy; exemptBy?: string } {
  const url = new URL(target);
  const chosen = settings.flag !== undefined ? { value: settings.flag, from: '--proxy' } : fromEnvironment(url.protocol, settings.env);
  if (chosen === undefined) return {};
  const noProxy = setting(settings.env, 'NO_PROXY');
  if (noProxy !== undefined && bypasses(url, noProxy.value)) return { exemptBy: noProxy.from };
  return { proxy: { url: parseProxyUrl(chosen.value, chosen.from), from: chosen.from } };
}

/**
 * The pool for requests to the URL: direct, or through tunnels when a proxy applies. Says on
 * --debug which proxy a request goes through, without its credentials.
 */
export function poolFor(
  url: string,
  settings: ProxySettings | undefined,
  options: PoolOptions,
  debug?: (line: string) => void,
): { pool: RequestPool; proxy?: ChosenProxy } {
  const { proxy, exemptBy } = settings === undefined ? {} : proxyFor(url, settings);
  const host = new URL(url).host;
  if (proxy === undefined) {
    if (exemptBy !== undefined) debug?.(`* ${host}: direct, no proxy (${exemptBy})`);
    return { pool: new ConnectionPool(options) };
  }
  debug?.(`* ${host}: through the proxy ${shownProxy(proxy.url)} (${proxy.from})`);
  return { pool: proxyPool(proxy.url, options), proxy };
}

/** The variable for the URL's scheme; the upper-case name is read first, as gh and Go do. */
function fromEnvironment(protocol: string, env: Record<string, string | undefined>): { value: string; from: string } | undefined {
  return setting(env, protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
}

function setting(env: Record<string, string | undefined>, name: string): { value: string; from: string } | undefined {
  for (const from of [name, name.toLowerCase()]) {
    const value = env[from]?.trim();
    if (value) return { value, from };
  }
  return undefined;
}

/**
 * Whether NO_PROXY exempts the URL: `*` exempts every host; `example.com`, `.example.com` and
 * `*.example.com` exempt the domain and its subdomains; `host:port` only that port. An IP address
 * matches only that address (IPv6 with or without brackets), and a CIDR range (`10.0.0.0/8`,
 * `fd00::/8`) the addresses in it, as curl reads them: an address is no domain, so `0.1` exempts
 * neither 127.0.0.1 nor 10.0.0.1. Entries are separated by commas or spaces.
 */
export function bypasses(url: URL, noProxy: string): boolean {
  const host = unbracket(url.hostname.toLowerCase());
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const hostIsAddress = isIP(host) !== 0;
  for (const raw of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (raw === '') continue;
    if (raw === '*') return true;
    const range = /^\[?([\da-f.:]+)\]?\/(\d{1,3})$/.exec(raw);
    if (range) {
      if (hostIsAddress && inRange(host, range[1]!, Number(range[2]))) return true;
      continue;
    }
    const [entryHost, entryPort] = splitPort(raw);
    if (entryPort !== undefined && entryPort !== port) continue;
    const entry = unbracket(entryHost);
    if (hostIsAddress || isIP(entry) !== 0) {
      if (sameAddress(host, entry)) return true;
      continue;
    }
    const domain = entry.replace(/^\*?\./, '');
    if (domain !== '' && (host === domain || host.endsWith(`.${domain}`))) return true;
  }
  return false;
}

/** Two addresses written alike or differently (`::1` and `0:0::1`). */
function sameAddress(a: string, b: string): boolean {
  return inRange(a, b, isIP(a) === 4 ? 32 : 128);
}

/** Whether the address lies in the range `base/prefix`, of the same family. */
function inRange(address: string, base: string, prefix: number): boolean {
  const family = isIP(address);
  if (family === 0 || family !== isIP(base)) return false;
  const { BlockList } = builtinModule('node:net');
  const range = new BlockList();
  try {
    range.addSubnet(base, prefix, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    // A prefix longer than the family's addresses: no range at all.
    return false;
  }
  return range.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function isIP(host: string): number {
  return builtinModule('node:net').isIP(host);
}

function splitPort(entry: string): [string, string | undefined] {
  const bracketed = /^(\[[^\]]*\])(?::(\d+))?$/.exec(entry);
  if (bracketed) return [bracketed[1]!, bracketed[2]];
  // An IPv6 address without brackets has several colons and no port.
  const match = /^([^:]*):(\d+)$/.exec(entry);
  return match ? [match[1]!, match[2]] : [entry, undefined];
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The proxy's URL, http:// assumed when no scheme is given (as curl does); only http and https
 * proxies. A password is often pasted as it is: a `/`, `?` or `#` in it (anything before the last
 * `@`) is encoded rather than read as the start of a path; a `%` that does not start an encoded
 * character is refused, since which of the two was meant cannot be told.
 */
function parseProxyUrl(value: string, from: string): string {
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const hint = 'write it as http://host:port, with user:password@ before the host if the proxy asks for them';
  const [, scheme = '', userinfo, hostAndRest = ''] = /^([a-z][a-z\d+.-]*:\/\/)(?:(.*)@)?(.*)$/is.exec(withScheme) ?? [];
  if (userinfo !== undefined && /%(?![\da-f]{2})/i.test(userinfo)) {
    throw new UsageError(`the user name or password in ${from} holds a % that does not start an encoded character (such as %40)`, {
      hint: 'percent-encode the % itself as %25, and any @, :, /, ? or # in the user name or password likewise',
    });
  }
  const encodedUserinfo = userinfo?.replace(/[/?#@]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  let url: URL;
  try {
    url = new URL(`${scheme}${encodedUserinfo === undefined ? '' : `${encodedUserinfo}@`}${hostAndRest}`);
  } catch {
    throw new UsageError(`${from} is not a URL: ${shownProxy(value)}`, { hint });
  }
  checkUserinfo(url, from);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${from} names a ${url.protocol.slice(0, -1)} proxy; loopsctl goes through http and https proxies only`, {
      hint: 'give the URL of an HTTP proxy: http://host:port',
    });
  }
  return url.href;
}

/**
 * A proxy's URL as it may be shown: without the credentials (in --debug lines and messages), which
 * end at the last `@`, since a password pasted as it is may hold `@`, `/`, `?` or `#`.
 */
export function shownProxy(url: string): string {
  const [, scheme = '', rest = ''] = /^([a-z][a-z\d+.-]*:\/\/)?(.*)$/is.exec(url) ?? [];
  const withoutCredentials = rest.slice(rest.lastIndexOf('@') + 1);
  return `${scheme}${withoutCredentials.endsWith('/') && !withoutCredentials.slice(0, -1).includes('/') ? withoutCredentials.slice(0, -1) : withoutCredentials}`;
}

/** What a failure of the proxy means for the person: which proxy, from where, and what to change. */
export function proxyError(error: ProxyRefusedError | ProxyUnreachableError, proxy: ChosenProxy, what: string, origin: string): ProxyError {
  const shown = `${shownProxy(proxy.url)} (${proxy.from})`;
  if (error instanceof ProxyUnreachableError) {
    return new ProxyError(`${what}: could not connect to the proxy ${shown}: ${error.message}`, {
      cause: error,
      hint: `check the proxy's address in ${proxy.from}, or unset it to connect directly`,
    });
  }
  const withCredentials = new URL(proxy.url).username !== '';
  if (error.status === 407) {
    return new ProxyError(
      `${what}: the proxy ${shown} asks for credentials (HTTP 407 Proxy Authentication Required)${withCredentials ? ' and refused the ones given' : ''}`,
      {
        status: 407,
        cause: error,
        hint: withCredentials
          ? `check the user name and password in ${proxy.from} (they are taken as written, / and @ included; only a : in the user name needs encoding, as %3A)`
          : `put them in the proxy's URL in ${proxy.from}: http://user:password@host:port`,
      },
    );
  }
  return new ProxyError(`${what}: the proxy ${shown} would not open a connection to ${origin} (HTTP ${error.status} to CONNECT)`, {
    status: error.status,
    cause: error,
    hint: `ask the proxy's administrator to allow ${new URL(origin).host}, or, if it can be reached directly, add it to NO_PROXY`,
  });
}
