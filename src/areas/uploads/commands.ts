/** What the `uploads` commands do. */
import { extname } from 'node:path';
import { sendOutside } from '../../api/outside.js';
import { InvalidResponseError, LocalFileError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { readInputBytes } from '../../core/input.js';
import type { InputSource } from '../../core/runtime.js';
import { requestLine } from '../../platform/operation-row.js';
import { UPLOAD } from '../../platform/uploads/resource.js';
import { type CompletedUpload, MAX_UPLOAD_BYTES, UPLOAD_TYPES, type UploadType } from '../../platform/uploads/schemas.js';
import { sniffType } from '../../platform/uploads/sniff.js';
import { completeUpload, createUpload } from './client.js';
import { renderUpload } from './render.js';

const BY_EXTENSION: Record<string, UploadType> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/**
 * The image's bytes (of a file, or of stdin for `-`) and type, checked against the API's limits
 * before anything is sent. The file is opened once and at most one byte past the limit is read
 * from that descriptor, so a file swapped or grown after a look can never send more.
 */
export async function readImage(runtime: InputSource, file: string, declared: UploadType | undefined): Promise<{ bytes: Buffer; contentType: UploadType }> {
  const tooLarge = (source: string) =>
    new LocalFileError(`${quoted(source)} is larger than ${MAX_UPLOAD_BYTES} bytes; the API takes images of at most ${MAX_UPLOAD_BYTES} bytes`, {
      hint: 'resize or compress the image first',
    });
  const { source, bytes } = await readInputBytes(runtime, file, 'image', MAX_UPLOAD_BYTES, tooLarge);
  if (bytes.length === 0) throw new LocalFileError(`${quoted(source)} is empty`);
  const sniffed = sniffType(bytes);
  const supported = UPLOAD_TYPES.join(', ');
  const contentType = declared ?? (file === '-' ? undefined : BY_EXTENSION[extname(file).toLowerCase()]) ?? sniffed;
  if (contentType === undefined)
    throw new LocalFileError(`${quoted(source)} is not an image type the API takes (${supported})`, { hint: 'pass --type <mime> if it is one' });
  if (sniffed !== contentType) {
    const looks = sniffed === undefined ? `its first bytes are not those of any of ${supported}` : `its first bytes are those of ${sniffed}`;
    throw new LocalFileError(`${quoted(source)} is not ${contentType}: ${looks}`, {
      hint:
        sniffed === undefined
          ? 'convert it to one of those types'
          : declared === undefined
            ? `pass --type ${sniffed}, or give the file the extension of its type`
            : `pass --type ${sniffed}: the file is of that type`,
    });
  }
  return { bytes, contentType };
}

/** A file's name in quotes; stdin as itself. */
function quoted(source: string): string {
  return source === 'stdin' ? 'stdin' : `"${source}"`;
}

export const create: Handler<[string], { type?: UploadType }> = handler(['out', 'client', 'outside', 'files', 'globals'], async (context, [file], options) => {
  const { bytes, contentType } = await readImage(context.runtime, file, options.type);
  await context.out.present(await uploadImage(context, bytes, contentType), renderUpload);
});

/** An image's bytes made an asset of the account's storage: created, sent to its presigned URL (without the key), completed. */
export async function uploadImage(context: Uses<'client' | 'outside' | 'globals'>, bytes: Buffer, contentType: UploadType): Promise<CompletedUpload> {
  const client = await context.client();
  const created = await explained(createUpload(client, { contentType, contentLength: bytes.length }), {
    contentApi: true,
    statuses: {
      400: `the API takes ${UPLOAD_TYPES.join(', ')}`,
      413: `the API takes images of at most ${MAX_UPLOAD_BYTES} bytes`,
    },
  });
  if (!/^https?:\/\//.test(created.presignedUrl)) {
    throw new InvalidResponseError(`unexpected answer to ${requestLine(UPLOAD.operations.createUpload)}: field "presignedUrl" is not an http(s) URL`, {
      status: 200,
    });
  }
  const presigned = new URL(created.presignedUrl);
  await sendOutside({
    method: 'PUT',
    url: created.presignedUrl,
    // The signature sits in the query string.
    shown: `${presigned.origin}${presigned.pathname}`,
    target: 'the storage',
    idempotent: true,
    // 403: the signature expired or does not cover what was sent (a different type or length).
    refusedHint: 'the presigned URL may have expired, or the file changed since the upload was created; run the command again',
    bytes,
    contentType,
    ...context.outsideSettings(),
    pool: await context.sandboxPool(),
  });
  return explained(completeUpload(client, created.emailAssetId), {
    contentApi: true,
    statuses: {
      400: 'the storage did not receive a supported image for this asset; run the command again',
      404: `the API no longer knows the asset ${created.emailAssetId}; run the command again`,
      429: {
        message: (apiMessage) => `the daily upload quota is used up: ${apiMessage}`,
        hint: 'the API takes a limited number of uploads per 24 hours; loopsctl does not retry this, since waiting seconds will not help: try again later, or ask Loops to raise the limit',
      },
    },
  });
}
