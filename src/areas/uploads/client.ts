/** The upload operations of the API; the bytes themselves go to storage (src/api/outside.ts). */
import type { ApiClient } from '../../api/client.js';
import { at } from '../../platform/operation-row.js';
import { UPLOAD } from '../../platform/uploads/resource.js';
import * as s from '../../platform/uploads/schemas.js';

export function createUpload(api: ApiClient, body: { contentType: s.UploadType; contentLength: number }) {
  // Each create makes a new asset: sent again after a lost answer, it would leave one unused.
  return api.call({ method: 'POST', path: UPLOAD.operations.createUpload.path, body, idempotent: false }, s.createdUpload);
}

export function completeUpload(api: ApiClient, emailAssetId: string) {
  // Completing finalizes the one asset it names, so a second call finalizes nothing new; its 429
  // is the daily upload quota, which waiting seconds does not lift.
  return api.call({ method: 'POST', path: at(UPLOAD.operations.completeUpload, emailAssetId), idempotent: true, quota: true }, s.completedUpload);
}
