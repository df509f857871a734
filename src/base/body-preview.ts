/** How an unexpected answer is described in an error: its content type and first bytes, escaped. */
const PREVIEW_CHARS = 120;

/** Characters JSON.stringify leaves as they are, though a terminal may act on them: DEL and C1. */
const DEL_AND_C1 = /[\u007f-\u009f]/g;

export function describeBody(text: string, contentType: string): string {
  const more = text.length > PREVIEW_CHARS ? '…' : '';
  return `content-type ${escapeControls(contentType) || 'none'}, body starts "${escapeControls(text.slice(0, PREVIEW_CHARS))}${more}"`;
}

/** JSON string escapes for every control character, C0, DEL and C1 alike, without the quotes. */
export function escapeControls(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(DEL_AND_C1, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
