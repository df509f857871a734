/** What the `uploads` commands do. */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidResponseError, LocalFileError } from '../../api/errors.js';
import { putPresigned } from '../../api/presigned.js';
import type { Handler } from '../../core/declare.js';
import { VERSION } from '../../version.js';
import { explained } from '../explain.js';
import { completeUpload, createUpload } from './client.js';
import { renderUpload } from './render.js';
import { sniffType } from './sniff.js';
import { MAX_UPLOAD_BYTES, UPLOAD_TYPES, type UploadType } from './schemas.js';

const BY_EXTENSION: Record<string, UploadType> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp' };

/** The file's bytes and type, checked against the API's limits before anything is sent. */
export async function readImage(file: string, declared: UploadType | undefined): Promise<{ bytes: Buffer; contentType: UploadType }> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new LocalFileError(`"${file}" is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof LocalFileError) throw error;
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new LocalFileError(`cannot read "${file}": ${reason}`);
  }
  if (size === 0) throw new LocalFileError(`"${file}" is empty`);
  if (size > MAX_UPLOAD_BYTES) {
    throw new LocalFileError(`"${file}" is ${size} bytes; the API takes images of at most ${MAX_UPLOAD_BYTES} bytes`, { hint: 'resize or compress the image first' });
  }
  const bytes = await readFile(file);
  const sniffed = sniffType(bytes);
  const supported = UPLOAD_TYPES.join(', ');
  const contentType = declared ?? BY_EXTENSION[extname(file).toLowerCase()] ?? sniffed;
  if (contentType === undefined) throw new LocalFileError(`"${file}" is not an image type the API takes (${supported})`, { hint: 'pass --type <mime> if it is one' });
  if (sniffed !== contentType) {
    const looks = sniffed === undefined ? `its first bytes are not those of any of ${supported}` : `its first bytes are those of ${sniffed}`;
    throw new LocalFileError(`"${file}" is not ${contentType}: ${looks}`, { hint: sniffed === undefined ? 'convert it to one of those types' : `pass --type ${sniffed}, or rename the file` });
  }
  return { bytes, contentType };
}

export const create: Handler<[string], { type?: UploadType }> = async (context, [file], options) => {
  const { bytes, contentType } = await readImage(file, options.type);
  const client = await context.client();
  const created = await explained(createUpload(client, { contentType, contentLength: bytes.length }), {
    contentApi: true,
    statuses: {
      400: `the API takes ${UPLOAD_TYPES.join(', ')}`,
      413: `the API takes images of at most ${MAX_UPLOAD_BYTES} bytes`,
    },
  });
  if (!/^https?:\/\//.test(created.presignedUrl)) {
    throw new InvalidResponseError('unexpected answer to POST /v1/uploads: field "presignedUrl" is not an http(s) URL', { status: 200 });
  }
  const { globals, runtime } = context;
  const lines = context.requestLines();
  await putPresigned({
    url: created.presignedUrl,
    bytes,
    contentType,
    userAgent: `loopsctl/${VERSION}`,
    timeoutMs: globals.timeout * 1000,
    retries: globals.retries,
    signal: runtime.signal,
    onRetry: lines.retry,
    debug: lines.debug,
    proxy: context.proxySettings(),
  });
  const completed = await explained(completeUpload(client, created.emailAssetId), {
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
  await context.out.present(completed, renderUpload);
};
