/**
 * The remote images an email's page shows, fetched by loopsctl through the fetcher for outside
 * addresses (fetcher.ts) rather than by a browser: the requests of Chromium drawing `content review
 * --screenshots --allow-network` (intercepted), the images `content review --out --allow-network`
 * puts inside its page, and those `content preview` and the sandbox's inbox serve through their
 * own addresses. So a page reaches only what the fetcher allows: no loopback, private or reserved
 * address, by name, by what the name resolves to or by where a redirect leads, unless
 * --allow-private-links; each address once (while it is kept), bounded in time and size, and only
 * an answer that says it is an image. An address refused is told once (`onRefused`), to be
 * listed; one that fails otherwise shows as an image that does not load, as in a mail client.
 */

import { InterruptedError } from '../base/errors.js';
import type { PageImage } from '../base/page-images.js';
import { type Answer, Fetcher, type FetcherSettings, failureOf, walkRedirects } from './fetcher.js';

/** The largest image a page is given: what the API's uploads take. */
export const MAX_PAGE_IMAGE_BYTES = 4_000_000;

/**
 * The bytes of the images kept for asking again: a server that runs for days (the preview, the
 * inbox) forgets the oldest past this, and fetches one again when it is next asked for.
 */
export const KEPT_IMAGE_BYTES = 64 * 1024 * 1024;

export class OutsideImages {
  private readonly fetcher: Fetcher;
  private readonly loaded = new Map<string, Promise<PageImage>>();
  /** The bytes of the answers in `loaded`, by address. */
  private readonly sizes = new Map<string, number>();
  private kept = 0;

  constructor(
    settings: FetcherSettings,
    private readonly onRefused: (address: string, why: string) => void,
    /** The bytes of images kept for asking again (a test gives fewer). */
    private readonly keptBytes = KEPT_IMAGE_BYTES,
  ) {
    this.fetcher = new Fetcher(settings);
  }

  /** The image at an http(s) address, fetched once however often a page asks for it. */
  load(address: string): Promise<PageImage> {
    let known = this.loaded.get(address);
    if (known === undefined) {
      known = this.fetch(address);
      this.loaded.set(address, known);
      void known.then((image) => this.keep(address, 'body' in image ? image.body.length : 0)).catch(() => this.loaded.delete(address));
    }
    return known;
  }

  /** Counts what an address's answer holds, and forgets the oldest answers past the bytes kept. */
  private keep(address: string, bytes: number): void {
    this.sizes.set(address, bytes);
    this.kept += bytes;
    for (const [oldest, size] of this.sizes) {
      if (this.kept <= this.keptBytes) break;
      this.sizes.delete(oldest);
      this.loaded.delete(oldest);
      this.kept -= size;
    }
  }

  close(): Promise<void> {
    return this.fetcher.close();
  }

  private async fetch(address: string): Promise<PageImage> {
    if (!/^https?:\/\//i.test(address) || !URL.canParse(address)) return { failed: 'not an http(s) address' };
    const walk = await walkRedirects<Answer, string>(this.fetcher, address, async (url) => {
      try {
        const answer = await this.fetcher.send(url, { method: 'GET', limit: MAX_PAGE_IMAGE_BYTES });
        return { answer, status: answer.status, ...(answer.headers.location === undefined ? {} : { location: answer.headers.location }) };
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        const failure = failureOf(error);
        return { stop: failure.failure === 'refused' ? `refused: ${failure.reason}` : failure.reason };
      }
    });
    const refuse = (why: string): PageImage => {
      this.onRefused(address, why);
      return { refused: why };
    };
    switch (walk.kind) {
      case 'answered': {
        const { status, headers, body } = walk.answer;
        const contentType = String(headers['content-type'] ?? '');
        if (status < 200 || status >= 300) return { failed: `HTTP ${status}` };
        if (body === undefined) return { failed: `larger than ${MAX_PAGE_IMAGE_BYTES} bytes` };
        if (!/^image\//i.test(contentType.trim())) return { failed: `${contentType || 'no content type'}, not an image` };
        return { status, contentType, body };
      }
      case 'refused':
        return refuse(walk.reason);
      case 'unsafe-redirect':
        return refuse(`redirected to ${walk.to}: ${walk.reason}`);
      case 'stopped':
        return walk.stop.startsWith('refused: ') ? refuse(walk.stop.slice('refused: '.length)) : { failed: walk.stop };
      default:
        return { failed: walk.kind === 'loop' ? 'redirected in a loop' : 'redirected too many times' };
    }
  }
}
