/**
 * Fetching the links and images of emails through the one fetcher for outside addresses
 * (src/api/fetcher.ts), which judges every address and redirect, connects to the address it judged,
 * and keeps to 2 requests at a time at one host and IN_ALL in all, each under the time limit,
 * carrying nothing but a plain user agent (no key, no cookie). Each address is asked once per run.
 * A link is asked with HEAD, then with a ranged GET of its first kilobyte where HEAD is refused; an
 * image with a ranged GET of the bytes that say its type and size. No body is read further than
 * that, whatever its length.
 */

import { Fetcher, type FetcherSettings, type FetchFailure, failureOf, type Step, walkRedirects } from '../../../api/fetcher.js';
import { InterruptedError } from '../../../base/errors.js';
import { type Sniffed, sniffImage } from './images.js';

export { IN_ALL, MAX_REDIRECTS, PER_HOST } from '../../../api/fetcher.js';

/** What a link's ranged GET reads: enough to know it answers. */
const LINK_BYTES = 1024;
/** What an image's ranged GET reads: enough for any format's header, with its width. */
export const IMAGE_BYTES = 64 * 1024;

export type ProbeSettings = FetcherSettings;

/**
 * One answer of one address. An image's first bytes are kept as what they say it is, never as
 * bytes: a run of 10,000 images holds a few numbers of each, not 64 KB.
 */
type Hop = { status: number; location?: string; contentType: string; length?: number; sniffed?: Sniffed } | Omit<FetchFailure, 'code'>;

/** Where a link or an image's address led. */
export type Verdict =
  | { kind: 'answered'; status: number; url: string; contentType: string; length?: number; sniffed?: Sniffed; downgraded: boolean }
  | { kind: 'failed'; failure: 'timeout' | 'tls' | 'unreachable'; reason: string; url: string }
  | { kind: 'private'; url: string; reason: string }
  | { kind: 'loop'; url: string }
  | { kind: 'too-many-redirects'; url: string }
  | { kind: 'unsafe-redirect'; url: string; to: string; reason: string };

export class Prober {
  readonly fetcher: Fetcher;
  private readonly answers = new Map<string, Promise<Hop>>();
  private readonly verdicts = new Map<string, Promise<Verdict>>();

  constructor(settings: ProbeSettings) {
    this.fetcher = new Fetcher(settings);
  }

  /** Where the address leads, asked once per run however many emails hold it. */
  verdict(address: string, as: 'link' | 'image'): Promise<Verdict> {
    const key = `${as} ${address}`;
    let known = this.verdicts.get(key);
    if (known === undefined) {
      known = this.follow(address, as);
      this.verdicts.set(key, known);
    }
    return known;
  }

  close(): Promise<void> {
    return this.fetcher.close();
  }

  private async follow(address: string, as: 'link' | 'image'): Promise<Verdict> {
    const walk = await walkRedirects(this.fetcher, address, async (url): Promise<Step<Extract<Hop, { status: number }>, Omit<FetchFailure, 'code'>>> => {
      const hop = await this.answer(url, as);
      return 'failure' in hop ? { stop: hop } : { answer: hop, status: hop.status, ...(hop.location === undefined ? {} : { location: hop.location }) };
    });
    switch (walk.kind) {
      case 'answered': {
        const { status, contentType, length, sniffed } = walk.answer;
        return { kind: 'answered', status, url: walk.url, contentType, length, sniffed, downgraded: walk.downgraded };
      }
      case 'refused':
        return { kind: 'private', url: walk.url, reason: walk.reason };
      case 'stopped': {
        const { failure, reason } = walk.stop;
        // Refused by its own request: a name that resolved only when asked again.
        if (failure === 'refused')
          return walk.url === address
            ? { kind: 'private', url: walk.url, reason }
            : { kind: 'unsafe-redirect', url: walk.url, to: new URL(walk.url).origin, reason };
        return { kind: 'failed', failure, reason, url: walk.url };
      }
      default:
        return walk;
    }
  }

  private answer(url: string, as: 'link' | 'image'): Promise<Hop> {
    const key = `${as} ${url}`;
    let known = this.answers.get(key);
    if (known === undefined) {
      known =
        as === 'image'
          ? this.ask(url, 'GET', IMAGE_BYTES, true)
          : this.ask(url, 'HEAD', 0).then((head) => (refusesHead(head) ? this.ask(url, 'GET', LINK_BYTES) : head));
      this.answers.set(key, known);
    }
    return known;
  }

  /** One request, through the fetcher's bounds; an image's bytes read for what they are. */
  private async ask(url: string, method: 'HEAD' | 'GET', bytes: number, image = false): Promise<Hop> {
    try {
      // Never more than asked for: a server that ignores the range has its connection ended there.
      const answer = await this.fetcher.send(url, { method, headers: method === 'GET' ? { range: `bytes=0-${bytes - 1}` } : {}, limit: bytes });
      const sniffed = image && answer.body !== undefined ? sniffImage(answer.body) : undefined;
      const location = answer.headers.location;
      return {
        status: answer.status,
        contentType: String(answer.headers['content-type'] ?? ''),
        ...(location === undefined ? {} : { location }),
        ...lengthOf(answer.status, answer.headers),
        ...(sniffed === undefined ? {} : { sniffed }),
      };
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      const { failure, reason } = failureOf(error);
      return { failure, reason };
    }
  }
}

/** Servers that do not take HEAD answer it 405 or 501, or as an error page: a ranged GET is asked then. */
const refusesHead = (hop: Hop) => !('failure' in hop) && hop.status >= 400;

/** The whole length of what answered: a range's total (`bytes 0-1023/52311`), or the length of a whole answer. */
function lengthOf(status: number, headers: Record<string, string | string[] | undefined>): { length?: number } {
  const total = /\/(\d+)\s*$/.exec(String(headers['content-range'] ?? ''))?.[1];
  if (status === 206 && total !== undefined) return { length: Number(total) };
  const length = Number(headers['content-length']);
  return status !== 206 && Number.isFinite(length) && String(headers['content-length'] ?? '') !== '' ? { length } : {};
}
