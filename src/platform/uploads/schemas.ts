/** Uploads of image assets: create (a presigned URL), then complete (the public URL). */
import { z } from '../../base/shapes.js';

/** The image types the API takes, and the most bytes one may have. */
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];
export const MAX_UPLOAD_BYTES = 4_000_000;

export const createdUpload = z.looseObject({
  emailAssetId: z.string(),
  presignedUrl: z.string(),
});

export const completedUpload = z.looseObject({
  emailAssetId: z.string(),
  finalUrl: z.string(),
});
export type CompletedUpload = z.infer<typeof completedUpload>;

/** The 429 of complete: the upload quota, with its size and window. */
export const uploadLimit = z.looseObject({
  message: z.string(),
  maxUploads: z.optional(z.int()),
  windowHours: z.optional(z.int()),
});

/** The 400 and 413 of create: what was wrong, with the accepted types or the byte limit. */
export const uploadFailure = z.looseObject({
  message: z.string(),
  supportedContentTypes: z.optional(z.array(z.string())),
  maxBytes: z.optional(z.int()),
});
