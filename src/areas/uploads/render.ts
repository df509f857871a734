/** The text view of a finished upload. */
import type { Output } from '../../render/output.js';
import { renderFields } from '../../render/fields.js';
import { styleFor } from '../../render/style.js';
import type { CompletedUpload } from './schemas.js';

export function renderUpload(out: Output, upload: CompletedUpload): string {
  return renderFields(
    [
      ['emailAssetId', upload.emailAssetId],
      ['finalUrl', upload.finalUrl],
    ],
    undefined,
    styleFor(out).bold,
  );
}
