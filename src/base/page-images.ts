/**
 * The images an email names, on the pages loopsctl shows a person (`content preview`, the
 * sandbox's inbox, `content review --out`): never loaded by the person's browser from their own
 * addresses, where an address from content could reach the person's router, a cloud's metadata or
 * a server on their machine. A page either serves each image through itself, fetched by loopsctl
 * (RoutedImages: the fetcher for outside addresses judges each address), puts the bytes loopsctl
 * fetched inside the page (`content review`), or draws a placeholder of the image's size with its
 * address written in it; the page's policy loads nothing else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS, sendText } from './local-page.js';

/** An image fetched for a page, or why it was not: refused (by the judgement of its address), or failed. */
export type PageImage = { status: number; contentType: string; body: Buffer } | { refused: string } | { failed: string };

/** What fetches an image for a page: loopsctl's fetcher for outside addresses (src/api/outside-images.ts). */
export type ImageLoader = (address: string) => Promise<PageImage>;

/** An `<img>` of the HTML: its address as the browser reads it, and the size its attributes give. */
export interface ImageTag {
  address: string;
  width?: number;
  height?: number;
}

/** What an image's tag becomes: another address, and attributes added after it. */
export interface ImageSwap {
  src: string;
  attributes?: Readonly<Record<string, string>>;
}

const IMG_TAG = /<img\b[^>]*>/gi;
const SRC = /(\ssrc\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** An attribute's value as the browser reads it: the entities HTML escapes decoded. */
function decoded(value: string): string {
  return value.replace(/&(?:#(\d+)|#x([\da-f]+)|(amp|lt|gt|quot|apos));/gi, (whole, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined) return String.fromCodePoint(Number(decimal));
    if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name!.toLowerCase()] ?? whole;
  });
}

/** Text for a double-quoted attribute. */
export const attributeText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const sizeOf = (tag: string, name: string) => {
  const value = new RegExp(`\\s${name}\\s*=\\s*["']?(\\d+)`, 'i').exec(tag)?.[1];
  return value === undefined ? undefined : Number(value);
};

/** The HTML with each `<img src>` that `swap` answers for given another address (and attributes); the rest as they are. */
export function withImages(html: string, swap: (image: ImageTag) => ImageSwap | undefined): string {
  return html.replace(IMG_TAG, (tag) => {
    const found = SRC.exec(tag);
    if (found === null) return tag;
    const [whole, start, double, single, bare] = found as unknown as [string, string, string?, string?, string?];
    const width = sizeOf(tag, 'width');
    const height = sizeOf(tag, 'height');
    const swapped = swap({
      address: decoded(double ?? single ?? bare ?? '').trim(),
      ...(width === undefined ? {} : { width }),
      ...(height === undefined ? {} : { height }),
    });
    if (swapped === undefined) return tag;
    const added = Object.entries(swapped.attributes ?? {})
      .map(([name, value]) => ` ${name}="${attributeText(value)}"`)
      .join('');
    return `${tag.slice(0, found.index)}${start}"${attributeText(swapped.src)}"${added}${tag.slice(found.index + whole.length)}`;
  });
}

/** The http(s) addresses of the HTML's images, each once, in the order they come. */
export function imageAddresses(html: string): string[] {
  const addresses = new Set<string>();
  withImages(html, ({ address }) => {
    if (isWebAddress(address)) addresses.add(address);
    return undefined;
  });
  return [...addresses];
}

/** Whether an address is one on the web, http or https, that a browser would fetch. */
export function isWebAddress(address: string): boolean {
  return /^https?:\/\//i.test(address) && URL.canParse(address);
}

/**
 * A placeholder of an image's size (its width, else 560; its height, else half its width) as a
 * `data:` SVG, saying why it is not the image and naming its address.
 */
export function placeholderSrc(image: ImageTag, why: string): string {
  const width = image.width ?? 560;
  const height = image.height ?? Math.round(width / 2);
  const shown = image.address.length > 60 ? `${image.address.slice(0, 59)}…` : image.address;
  const text = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#e5e7eb" stroke="#9ca3af" stroke-dasharray="6 4"/><text x="50%" y="50%" text-anchor="middle" font-family="sans-serif" font-size="12" fill="#4b5563">${text(`${why}: ${shown}`)}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Every image on the web drawn as a placeholder saying `why`, its address kept as text in `data-offline-image`. */
export function placeholderImages(html: string, why: string): string {
  return withImages(html, (image) =>
    isWebAddress(image.address) ? { src: placeholderSrc(image, why), attributes: { 'data-offline-image': image.address } } : undefined,
  );
}

/** The most addresses a route remembers: an inbox open for days names no more than this many images at once. */
const MAX_GIVEN = 10_000;

/**
 * The images a local page serves through itself (`content preview`'s `/image`, the inbox's
 * `/_sandbox/inbox/image`), each fetched by `load`: only an address a drawing it served was given
 * (the route is no open proxy for another page that points an image at it), and only to the
 * server's own pages.
 */
export class RoutedImages {
  private readonly given = new Set<string>();

  constructor(
    private readonly route: string,
    private readonly load: ImageLoader,
  ) {}

  /**
   * The HTML with each http(s) image pointed at the route: those at the origins given
   * (`https://cdn.acme.example`, with its port if it has one), or all when none are. Any other keeps
   * its address, which the page's policy (images from the server alone) does not load.
   */
  routed(html: string, origins?: readonly string[]): string {
    const allowed = origins === undefined ? undefined : new Set(origins.map((origin) => originOf(origin)).filter((origin) => origin !== undefined));
    return withImages(html, ({ address }) => {
      const origin = originOf(address);
      if (origin === undefined || (allowed !== undefined && !allowed.has(origin))) return undefined;
      this.give(address);
      return { src: `${this.route}?address=${encodeURIComponent(address)}` };
    });
  }

  /** Answers `<route>?address=…`: the image, as fetched; 404 for an address no drawing was given, 403 for one refused, 502 for one that does not load. */
  async serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // A page of another site pointing an image here is no request of the server's own frames.
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return sendText(res, 403, 'text/plain; charset=utf-8', 'this route serves its own pages only\n');
    const address = url.searchParams.get('address') ?? '';
    if (!this.given.has(address)) return sendText(res, 404, 'text/plain; charset=utf-8', 'not an image of an email drawn here\n');
    const image = await this.load(address);
    if ('refused' in image) return sendText(res, 403, 'text/plain; charset=utf-8', `not loaded: ${image.refused} (--allow-private-links loads it)\n`);
    if ('failed' in image) return sendText(res, 502, 'text/plain; charset=utf-8', `not loaded: ${image.failed}\n`);
    res.writeHead(200, { 'content-type': image.contentType, 'content-length': image.body.length, ...SECURITY_HEADERS });
    res.end(image.body);
  }

  private give(address: string): void {
    // Given again, it is the newest: the oldest are forgotten first.
    this.given.delete(address);
    this.given.add(address);
    if (this.given.size > MAX_GIVEN) this.given.delete(this.given.values().next().value!);
  }
}

/** The origin of an http(s) address (`https://cdn.acme.example:8443`), or undefined. */
function originOf(address: string): string | undefined {
  return isWebAddress(address) ? new URL(address).origin : undefined;
}
