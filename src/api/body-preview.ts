/** How an unexpected answer is described in an error: its content type and first bytes, escaped. */
const PREVIEW_CHARS = 120;

export function describeBody(text: string, contentType: string): string {
  const head = text.slice(0, PREVIEW_CHARS);
  const escaped = JSON.stringify(head).slice(1, -1);
  const more = text.length > PREVIEW_CHARS ? '…' : '';
  return `content-type ${contentType || 'none'}, body starts "${escaped}${more}"`;
}
