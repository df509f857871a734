/** The text view of a finished upload. */

import type { CompletedUpload } from '../../platform/uploads/schemas.js';
import { renderFields } from '../../render/fields.js';
import type { Output } from '../../render/output.js';
import { renderRecord } from '../../render/table.js';

export function renderUpload(out: Output, upload: CompletedUpload): string {
  if (!out.tty) return renderRecord(out, upload);
  return renderFields(out, [
    ['emailAssetId', upload.emailAssetId],
    ['finalUrl', upload.finalUrl],
  ]);
}
