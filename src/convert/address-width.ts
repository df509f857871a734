/**
 * How wide an image is, read from its address where the service that serves it documents the
 * address as naming the width of the image it sends, so that an image the source gives no width
 * (drawn at its own size) keeps that size without being fetched:
 *
 * - placehold.co, and placehold.it before it (Foundation for Emails' templates): `/600x400`, or
 *   `/120` for a square, then optional colours or a format (https://placehold.co/); `@2x` sends
 *   twice the pixels, so it says nothing here;
 * - imgix (`*.imgix.net`): `w`, "the resulting image will be w pixels wide"
 *   (https://docs.imgix.com/apis/url/size/w), where no `h` lets `fit=clip` (its default) or
 *   `fit=max` make it narrower, and no `dpr` multiplies it;
 * - Cloudinary (`res.cloudinary.com/<cloud>/image/upload/`): `w_<pixels>` in the one transformation
 *   of the address (https://cloudinary.com/documentation/transformation_reference#w_width), with no
 *   crop mode (scaled) or one that gives that width exactly (`c_scale`, `c_fill`, `c_pad`:
 *   https://cloudinary.com/documentation/image_crop_modes), and no `dpr_`.
 */
import { LMX_TAGS } from '../lmx/index.js';

/** The widths LMX's rule book lets an `<Image width>` have, in pixels. */
const IMAGE_WIDTH = LMX_TAGS.get('Image')?.attributes.width;

/** An image's own width as LMX's `<Image width>` can hold it: none below its least, its most above. */
export function lmxImageWidth(width: number | undefined): number | undefined {
  const bounds: { min?: number; max?: number } = IMAGE_WIDTH?.type === 'number' ? IMAGE_WIDTH : {};
  const [least, most] = [bounds.min ?? 0, bounds.max ?? Number.POSITIVE_INFINITY];
  return width === undefined || width < least ? undefined : Math.min(width, most);
}

/** The width an image of no width is drawn at, its own, where its address names it (as `--upload` takes a file's). */
export function ownWidth(src: string): number | undefined {
  return lmxImageWidth(widthInAddress(src));
}

const PLACEHOLDERS = new Set(['placehold.co', 'placehold.it']);
const PLACEHOLDER_SIZE = /^\/(\d+)(?:x\d+)?(?:[/.]|$)/;

/** Cloudinary's crop modes that give the image the width asked for. */
const EXACT_CROPS = new Set(['scale', 'fill', 'pad']);

const whole = (value: string | undefined) => (value !== undefined && /^[1-9]\d*$/.test(value) ? Number(value) : undefined);

/** The width in pixels an image's address names, where its service documents that form; undefined elsewhere. */
export function widthInAddress(src: string): number | undefined {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = url.hostname.toLowerCase();
  if (PLACEHOLDERS.has(host)) return url.pathname.includes('@') ? undefined : whole(PLACEHOLDER_SIZE.exec(url.pathname)?.[1]);
  if (host.endsWith('.imgix.net')) {
    const query = url.searchParams;
    if (query.has('h') || query.has('dpr')) return undefined;
    return whole(query.get('w') ?? undefined);
  }
  if (host === 'res.cloudinary.com') {
    const [, , kind, delivery, ...rest] = url.pathname.split('/');
    if (kind !== 'image' || delivery !== 'upload') return undefined;
    const transformations = rest.slice(0, -1).filter((part) => !/^v\d+$/.test(part));
    if (transformations.length !== 1) return undefined;
    const parameters = new Map(
      transformations[0]!.split(',').map((parameter) => [parameter.slice(0, parameter.indexOf('_')), parameter.slice(parameter.indexOf('_') + 1)]),
    );
    const crop = parameters.get('c');
    if (parameters.has('dpr') || (crop !== undefined && !EXACT_CROPS.has(crop))) return undefined;
    return whole(parameters.get('w'));
  }
  return undefined;
}
