/** An upload as a resource of the API (operation-row.ts): an image sent to a presigned address, then completed as an email asset. */
import type { ResourceRow } from '../operation-row.js';

export const UPLOAD = {
  noun: 'upload',
  operations: {
    createUpload: { method: 'POST', path: '/v1/uploads' },
    completeUpload: { method: 'POST', path: '/v1/uploads/{emailAssetId}/complete' },
  },
} as const satisfies ResourceRow;
