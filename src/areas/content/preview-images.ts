/**
 * The images of `content preview`'s emails (and of the original --compare draws), served through
 * the preview's own address rather than loaded by the browser from theirs: each `<img src>` at an
 * http(s) address whose host the email writes out in full is pointed at `/image?address=…`, which
 * loopsctl fetches through the fetcher for outside addresses (outside-images.ts). So an email in
 * the preview reaches no loopback, private or reserved address (the person's router, a cloud's
 * metadata, the preview itself) unless --allow-private-links, and a host its sample values name
 * none at all. Only an address a drawn email was given is served: the route is no open proxy for
 * another page that points an image at it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS, sendText } from '../../base/local-page.js';
import type { PageImage } from './outside-images.js';

/** What fetches an image for the preview: loopsctl's, through the fetcher. */
export type ImageLoader = (address: string) => Promise<PageImage>;

const ROUTE = '/image';

/** An attribute's value as the browser reads it: the entities HTML escapes decoded. */
function decoded(value: string): string {
  return value.replace(/&(?:#(\d+)|#x([\da-f]+)|(amp|lt|gt|quot|apos));/gi, (whole, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined) return String.fromCodePoint(Number(decimal));
    if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name!.toLowerCase()] ?? whole;
  });
}

const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

/** The origin of an http(s) address (`https://cdn.acme.example:8443`), or undefined. */
function originOf(address: string): string | undefined {
  if (!/^https?:\/\//i.test(address) || !URL.canParse(address)) return undefined;
  return new URL(address).origin;
}

/** The images the preview serves: those a drawn email was given, each fetched through `load`. */
export class PreviewImages {
  private readonly given = new Set<string>();

  constructor(private readonly load: ImageLoader) {}

  /**
   * The HTML with each image at an address of the origins given pointed at the preview's route;
   * any other keeps its address, which the frame's policy (images from the preview alone) does
   * not load.
   */
  routed(html: string, origins: readonly string[]): string {
    const allowed = new Set(origins.map((origin) => originOf(origin)).filter((origin) => origin !== undefined));
    return html.replace(
      /(<img\b[^>]*?\ssrc\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi,
      (whole, start: string, double?: string, single?: string, bare?: string) => {
        const address = decoded(double ?? single ?? bare ?? '').trim();
        const origin = originOf(address);
        if (origin === undefined || !allowed.has(origin)) return whole;
        this.given.add(address);
        return `${start}"${escaped(`${ROUTE}?address=${encodeURIComponent(address)}`)}"`;
      },
    );
  }

  /** Whether a request is for the image route. */
  static asks(pathname: string): boolean {
    return pathname === ROUTE;
  }

  /** Answers `/image?address=…`: the image, as fetched; 404 for an address no email was given, 403 for one refused, 502 for one that does not load. */
  async serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // A page of another site pointing an image here is no request of the preview's own frames.
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return sendText(res, 403, 'text/plain; charset=utf-8', 'the preview serves its own frames only\n');
    const address = url.searchParams.get('address') ?? '';
    if (!this.given.has(address)) return sendText(res, 404, 'text/plain; charset=utf-8', 'not an image of an email drawn here\n');
    const image = await this.load(address);
    if ('refused' in image) return sendText(res, 403, 'text/plain; charset=utf-8', `not loaded: ${image.refused} (--allow-private-links loads it)\n`);
    if ('failed' in image) return sendText(res, 502, 'text/plain; charset=utf-8', `not loaded: ${image.failed}\n`);
    res.writeHead(200, { 'content-type': image.contentType, 'content-length': image.body.length, ...SECURITY_HEADERS });
    res.end(image.body);
  }
}
