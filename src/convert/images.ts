/**
 * `content convert --upload`: the images an email names, by a path beside it (`logo.png`,
 * `images/hero.jpg`) or at an http(s) address, uploaded to the account's storage, and their
 * addresses rewritten to the storage's. Only files under the directory named are read, never
 * through a link; an address is downloaded over http(s) only, no larger than the API takes, and
 * taken only when both its content type and its first bytes say it is an image. One that is not
 * there, is not an image the API takes, is too large, or whose upload the API refuses is listed, not
 * uploaded.
 */
import { readTreeFile, TreeFileTooLargeError } from '../base/tree-files.js';
import { MAX_UPLOAD_BYTES, UPLOAD_TYPES, type UploadType } from '../platform/uploads/schemas.js';
import { pixelWidth, sniffType } from '../platform/uploads/sniff.js';
import { lmxImageWidth } from './address-width.js';
import { sourceOf } from './layout/block-source.js';
import { type LmxBlock, PLACEHOLDER_IMAGE } from './lmx-out.js';
import type { Findings, Place, Remediation } from './model.js';
import { pathUnder, type Sources } from './sources/files.js';

/** Uploads an image: its public address, or why the API refused it. */
export type Uploader = (bytes: Buffer, contentType: UploadType) => Promise<{ url: string } | string>;

/** Downloads an address (no further than `limit` bytes): the bytes, or why not. */
export type Downloader = (url: string, limit: number) => Promise<{ contentType: string; bytes: Buffer | undefined } | string>;

/** What --upload does with each image: upload it, and download a remote one first. */
export interface ImageCarrier {
  upload: Uploader;
  download: Downloader;
}

/** An image at an address, downloaded and checked: the bytes and type to upload, or why not. */
async function downloadImage(src: string, download: Downloader): Promise<{ bytes: Buffer; contentType: UploadType } | string> {
  const answer = await download(src, MAX_UPLOAD_BYTES);
  if (typeof answer === 'string') return answer;
  if (answer.bytes === undefined) return `the answer is larger than the ${MAX_UPLOAD_BYTES} bytes the API takes`;
  const declared = answer.contentType.split(';')[0]!.trim().toLowerCase();
  // Both must say image: a page served under an image's name, or bytes of no image labelled as one, are not uploaded.
  if (!declared.startsWith('image/')) return `the answer is ${declared === '' ? 'of no content type' : declared}, not an image`;
  const contentType = sniffType(answer.bytes);
  if (contentType === undefined) return `the answer says ${declared}, but its first bytes are not those of any of ${UPLOAD_TYPES.join(', ')}`;
  return { bytes: answer.bytes, contentType };
}

/** What an image's src names: a file beside the email, an http(s) address, or another scheme convert does not fetch. */
function srcKind(src: string): 'file' | 'remote' | 'other' {
  if (/^https?:\/\//i.test(src)) return 'remote';
  return /^[a-z][a-z0-9+.-]*:/i.test(src) ? 'other' : 'file';
}

/** Every <Image> of the blocks, containers' included. */
function imagesOf(blocks: readonly LmxBlock[]): LmxBlock[] {
  return blocks.flatMap((made) => [...(made.tag === 'Image' ? [made] : []), ...imagesOf(made.blocks ?? [])]);
}

/** What could not be uploaded, or the bytes and type to upload. */
function readImage(sources: Sources, src: string, at: Place): { bytes: Buffer; contentType: UploadType } | string {
  if (src.startsWith('/')) return 'an absolute path, which only the app’s own server can resolve';
  let key: string;
  try {
    key = pathUnder(sources, decodeURI(src.split(/[?#]/)[0]!), at);
  } catch {
    return `outside ${sources.shown}, which convert does not read`;
  }
  let bytes: Buffer | undefined;
  try {
    bytes = readTreeFile(sources.root, key, MAX_UPLOAD_BYTES);
  } catch (error) {
    if (error instanceof TreeFileTooLargeError) return `larger than the ${MAX_UPLOAD_BYTES} bytes the API takes`;
    return (error as Error).message;
  }
  if (bytes === undefined) return 'no such file';
  const contentType = sniffType(bytes);
  if (contentType === undefined) return `not an image the API takes (${UPLOAD_TYPES.join(', ')})`;
  return { bytes, contentType };
}

/** What the list says of an image --upload could not carry, before its address. */
const NOT_UPLOADED = '--upload ';

/** An entry of the list that is an image --upload was asked to carry and could not. */
export function notUploaded(item: Remediation): boolean {
  return item.construct.startsWith(NOT_UPLOADED);
}

/**
 * Uploads the images of an email (each file or address once, for all the emails of a run:
 * `uploaded` keeps their new addresses, `widths` how wide each is) and points the images at them.
 * The listed entry of an uploaded image is taken off the list; one that could not be uploaded says
 * why. An image the source gives no width, which it draws at its own size and LMX would draw across
 * its box, is given that size, now that it is known.
 */
export async function uploadImages(
  blocks: readonly LmxBlock[],
  at: Place,
  sources: Sources,
  findings: Findings,
  carrier: ImageCarrier,
  uploaded: Map<string, string>,
  widths: Map<string, number>,
): Promise<void> {
  // Each image's own entry, in order: two images of one address are two places.
  const claimed = new Set<object>();
  for (const image of imagesOf(blocks)) {
    const src = image.attrs.src ?? '';
    // A placeholder of a dynamic or computed address is not an image of the email's.
    if (src === '' || src === PLACEHOLDER_IMAGE) continue;
    const kind = srcKind(src);
    const listed = findings.remediation.findIndex((item) => item.construct === `<img src="${src}">` && !claimed.has(item));
    const place = listed < 0 ? at : findings.remediation[listed]!;
    claimed.add(place);
    let url = uploaded.get(src);
    if (url === undefined) {
      const read =
        kind === 'file'
          ? readImage(sources, src, { file: place.file, line: place.line, column: place.column })
          : kind === 'remote'
            ? await downloadImage(src, carrier.download)
            : `a ${src.slice(0, src.indexOf(':')).toLowerCase()}: address; convert downloads images over http(s) only`;
      const sent = typeof read === 'string' ? read : await carrier.upload(read.bytes, read.contentType);
      if (typeof sent === 'string') {
        findings.add(
          place,
          `${NOT_UPLOADED}${src}`,
          'listed',
          `not uploaded: ${sent}`,
          'upload the image yourself (`loopsctl uploads create`) and write its address in src',
        );
        continue;
      }
      url = sent.url;
      uploaded.set(src, url);
      const width = lmxImageWidth(typeof read === 'string' ? undefined : pixelWidth(read.bytes, read.contentType));
      if (width !== undefined) widths.set(src, width);
    }
    image.attrs.src = url;
    const width = widths.get(src);
    if (width !== undefined && image.attrs.width === undefined && sourceOf(image)?.position !== 'full') image.attrs.width = String(width);
    if (listed >= 0) findings.remediation.splice(listed, 1);
  }
}
