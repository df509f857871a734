/**
 * The emails' images inside a review's page (`content review --out --allow-network`): fetched by
 * loopsctl through its fetcher for outside addresses when the page is written, and put in the page
 * as `data:` images, so that the person who opens the file later loads nothing from anywhere (the
 * page's policy allows `data:` images alone): an address in an email cannot make their browser
 * reach their router, a cloud's metadata or a server on their machine. Each page holds at most
 * MAX_PAGE_IMAGES images and MAX_PAGE_IMAGE_DATA of them in all (an image is written once in each
 * frame that draws it), each at most MAX_EMBEDDED_IMAGE_BYTES; any other is a placeholder of its
 * size, and the page lists it with why.
 */

import { type ImageLoader, type ImageSwap, imageAddresses, isWebAddress, type PageImage, placeholderSrc, withImages } from '../../../base/page-images.js';
import { escapeHtml } from '../../../lmx/render/index.js';
import { countOf } from '../../../render/numbers.js';

/** The most images a page holds: past these, the rest are placeholders, not fetched. */
export const MAX_PAGE_IMAGES = 100;
/** The most bytes of `data:` images a page holds, every frame's copy counted. */
export const MAX_PAGE_IMAGE_DATA = 32 * 1024 * 1024;
/** The largest image put in a page: over 1 MB, `check --links` already warns that it is too large for an email. */
export const MAX_EMBEDDED_IMAGE_BYTES = 1_000_000;

/** What an image loaded for the review may be drawn from: a type of image, nothing that could be read as more. */
const IMAGE_TYPE = /^image\/[a-z0-9.+-]+$/;

/** The images of a page's emails, fetched through `load`: the first MAX_PAGE_IMAGES addresses the HTML names. */
export async function fetchPageImages(htmls: readonly string[], load: ImageLoader): Promise<Map<string, PageImage>> {
  const addresses = [...new Set(htmls.flatMap(imageAddresses))].slice(0, MAX_PAGE_IMAGES);
  return new Map(await Promise.all(addresses.map(async (address) => [address, await load(address)] as const)));
}

/** One page's images as it is drawn: each frame's images put in as `data:`, within the page's bounds, and what was not. */
export class EmbeddedImages {
  private spent = 0;
  private readonly data = new Map<string, string>();
  /** The images not in the page, each with why. */
  readonly notShown = new Map<string, string>();

  constructor(private readonly fetched: ReadonlyMap<string, PageImage>) {}

  /** An email's HTML with each image inside it, or a placeholder saying why not. */
  draw(html: string): string {
    return withImages(html, (image): ImageSwap | undefined => {
      if (!isWebAddress(image.address)) return undefined;
      const src = this.dataOf(image.address);
      if (src.data !== undefined) return { src: src.data, attributes: { 'data-embedded-image': image.address } };
      this.notShown.set(image.address, src.why);
      return { src: placeholderSrc(image, `image not loaded (${src.short})`), attributes: { 'data-offline-image': image.address } };
    });
  }

  /** The image as a `data:` address, counted against the page's bounds; or why it is not in the page. */
  private dataOf(address: string): { data: string; why?: never; short?: never } | { data?: never; why: string; short: string } {
    const image = this.fetched.get(address);
    if (image === undefined) return { why: `not fetched: a page holds at most ${MAX_PAGE_IMAGES} images`, short: 'past the page’s images' };
    if ('refused' in image) return { why: `refused: ${image.refused} (--allow-private-links loads it)`, short: 'refused' };
    if ('failed' in image) return { why: image.failed, short: 'failed' };
    if (image.body.length > MAX_EMBEDDED_IMAGE_BYTES)
      return { why: `${image.body.length} bytes, over the ${MAX_EMBEDDED_IMAGE_BYTES} a page holds of one image`, short: 'too large' };
    const type = image.contentType.split(';')[0]!.trim().toLowerCase();
    if (!IMAGE_TYPE.test(type)) return { why: `${image.contentType}, not a type of image`, short: 'not an image' };
    const data = this.data.get(address) ?? `data:${type};base64,${image.body.toString('base64')}`;
    this.data.set(address, data);
    if (this.spent + data.length > MAX_PAGE_IMAGE_DATA)
      return { why: `past the ${MAX_PAGE_IMAGE_DATA / 1024 / 1024} MB of images a page holds`, short: 'past the page’s images' };
    this.spent += data.length;
    return { data };
  }

  /** The list of the images not shown, for the page's header; empty when every image is in it. */
  listed(): string {
    if (this.notShown.size === 0) return '';
    const items = [...this.notShown].map(([address, why]) => `<li><code>${escapeHtml(address)}</code>: ${escapeHtml(why)}</li>`);
    return `<details class="images-not-shown"><summary>${escapeHtml(countOf(this.notShown.size, 'image'))} not shown</summary><ul>${items.join('')}</ul></details>`;
  }
}
