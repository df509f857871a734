/**
 * The remote images an email's page shows, fetched by loopsctl through the fetcher for outside
 * addresses (src/api/fetcher.ts) rather than by a browser: the requests of Chromium drawing `content
 * review --screenshots --allow-network` (intercepted), and the images of `content preview` (each
 * served through the preview's own address). So the page reaches only what the fetcher allows: no
 * loopback, private or reserved address, by name, by what the name resolves to or by where a
 * redirect leads, unless --allow-private-links; each address once, bounded in time and size, and
 * only an answer that says it is an image. An address refused is told once (`onRefused`), to be
 * listed; one that fails otherwise shows as an image that does not load, as in a mail client.
 */
import { Fetcher, failureOf, walkRedirects, type Answer, type FetcherSettings } from '../../api/fetcher.js';
import { InterruptedError } from '../../base/errors.js';

/** The largest image a page is given: what the API's uploads take. */
export const MAX_PAGE_IMAGE_BYTES = 4_000_000;

/** An image fetched for a page, or why it was not. */
export type PageImage = { status: number; contentType: string; body: Buffer } | { refused: string } | { failed: string };

export class OutsideImages {
  private readonly fetcher: Fetcher;
  private readonly loaded = new Map<string, Promise<PageImage>>();

  constructor(
    settings: FetcherSettings,
    private readonly onRefused: (address: string, why: string) => void,
  ) {
    this.fetcher = new Fetcher(settings);
  }

  /** The image at an http(s) address, fetched once however often a page asks for it. */
  load(address: string): Promise<PageImage> {
    let known = this.loaded.get(address);
    if (known === undefined) {
      known = this.fetch(address);
      this.loaded.set(address, known);
    }
    return known;
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
