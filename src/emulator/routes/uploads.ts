/**
 * The sandbox's uploads: create hands out a presigned URL that the sandbox itself serves (a PUT
 * that needs no key, only the URL's signature, and refuses a second way of signing as storage
 * does), and complete finalizes the asset within a daily quota. Only the size and a digest of the
 * bytes are kept, not the image.
 */
import { createHash } from 'node:crypto';
import { z } from '../../base/shapes.js';
import * as s from '../../platform/uploads/schemas.js';
import { sniffType } from '../../platform/uploads/sniff.js';
import {
  ApiFailure,
  answer,
  badRequest,
  notFound,
  objectBody,
  quotaRetryAfter,
  type RouteContext,
  type SandboxModule,
  seedId,
  slice,
  stringField,
} from '../module.js';

const UPLOADS_PER_WINDOW = 50;
const WINDOW_HOURS = 24;
const PUT_PATH = '/sandbox-uploads';

const storedUpload = z.object({
  emailAssetId: z.string(),
  contentType: z.string(),
  contentLength: z.int(),
  createdAt: z.string(),
  /** What arrived at the presigned URL: its type by its first bytes, and its digest. */
  received: z.nullable(z.object({ type: z.nullable(z.string()), sha256: z.string() })),
  completedAt: z.nullable(z.string()),
});

export const uploads = slice('uploads', z.array(storedUpload), () => []);

/** The presigned URL's signature: only the sandbox that issued the asset id can make it. */
const signature = (emailAssetId: string) => seedId(`upload-signature/${emailAssetId}`);

function stored(context: RouteContext) {
  const id = context.params.emailAssetId!;
  const found = uploads.of(context.state).find((upload) => upload.emailAssetId === id);
  if (found === undefined) throw notFound(`Upload ${id} not found`);
  return found;
}

function create(context: RouteContext) {
  const fields = objectBody(context.body, ['contentType', 'contentLength'], ['contentType', 'contentLength']);
  const contentType = stringField(fields, 'contentType');
  const length = fields.contentLength;
  if (!(s.UPLOAD_TYPES as readonly string[]).includes(contentType)) {
    return answer(s.uploadFailure, { message: `Unsupported content type: ${contentType}`, supportedContentTypes: [...s.UPLOAD_TYPES] }, 400);
  }
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0) throw badRequest('contentLength must be a positive integer');
  if (length > s.MAX_UPLOAD_BYTES) return answer(s.uploadFailure, { message: 'Upload exceeds the maximum allowed size', maxBytes: s.MAX_UPLOAD_BYTES }, 413);
  const emailAssetId = context.newId();
  uploads
    .of(context.state)
    .push({ emailAssetId, contentType, contentLength: length, createdAt: context.now().toISOString(), received: null, completedAt: null });
  context.changed();
  // The URL points back at this sandbox, by the address the client reached it at.
  const base = `http://${context.headers.host ?? '127.0.0.1'}`;
  return answer(s.createdUpload, { emailAssetId, presignedUrl: `${base}${PUT_PATH}/${emailAssetId}?signature=${signature(emailAssetId)}` });
}

/** The storage side: the signature in the query is the only authority it takes. */
function put(context: RouteContext) {
  const upload = stored(context);
  if (context.headers.authorization !== undefined)
    throw badRequest('Only one auth mechanism allowed: the presigned URL is signed already, send no Authorization header');
  if (context.query.get('signature') !== signature(upload.emailAssetId)) throw new ApiFailure(403, 'The request signature does not match');
  const bytes = context.body as Buffer;
  if (context.headers['content-type'] !== upload.contentType) {
    throw new ApiFailure(403, `The request signature does not match: the URL was signed for Content-Type ${upload.contentType}`);
  }
  if (bytes.length !== upload.contentLength) {
    throw new ApiFailure(403, `The request signature does not match: the URL was signed for ${upload.contentLength} bytes, not ${bytes.length}`);
  }
  upload.received = { type: sniffType(bytes) ?? null, sha256: createHash('sha256').update(bytes).digest('hex') };
  context.changed();
  return answer(z.object({}), {});
}

function complete(context: RouteContext) {
  const upload = stored(context);
  const finalUrl = `https://assets.sandbox.invalid/${upload.emailAssetId}.${upload.contentType.split('/')[1]}`;
  if (upload.completedAt !== null) return answer(s.completedUpload, { emailAssetId: upload.emailAssetId, finalUrl });
  if (upload.received === null) throw badRequest('The file has not been uploaded to the presigned URL yet');
  if (upload.received.type !== upload.contentType) {
    return answer(s.uploadFailure, { message: `The uploaded file is not ${upload.contentType}`, supportedContentTypes: [...s.UPLOAD_TYPES] }, 400);
  }
  const now = context.now();
  const recent = uploads
    .of(context.state)
    .filter((other) => other.completedAt !== null && now.getTime() - Date.parse(other.completedAt) < WINDOW_HOURS * 3_600_000);
  if (recent.length >= UPLOADS_PER_WINDOW) {
    const message = `Upload limit exceeded: max ${UPLOADS_PER_WINDOW} uploads per ${WINDOW_HOURS} hours. Please contact support if you need to increase your upload limit.`;
    const oldest = recent.map((other) => other.completedAt!).sort()[0]!;
    return answer(
      s.uploadLimit,
      { message, maxUploads: UPLOADS_PER_WINDOW, windowHours: WINDOW_HOURS },
      429,
      quotaRetryAfter(oldest, WINDOW_HOURS * 3_600_000, now),
    );
  }
  upload.completedAt = now.toISOString();
  context.changed();
  return answer(s.completedUpload, { emailAssetId: upload.emailAssetId, finalUrl });
}

export const sandbox: SandboxModule = {
  slices: [uploads],
  routes: [
    { operation: 'createUpload', needs: 'content', run: create },
    { method: 'PUT', path: `${PUT_PATH}/:emailAssetId`, anonymous: true, rawBody: true, run: put },
    { operation: 'completeUpload', needs: 'content', run: complete },
  ],
};
