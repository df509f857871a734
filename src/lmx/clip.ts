/**
 * Gmail clips an email whose HTML passes 102 KB: the rest, with the unsubscribe link, is behind
 * "View entire message". Rendered HTML is several times its LMX (about 4 to 5 times), so a 25 KB
 * newsletter can pass it.
 */
import type { LmxProblem } from './problems.js';

export const GMAIL_CLIP_BYTES = 102 * 1024;

/** An HTML size in KB with one decimal: `104.3 KB`. */
export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** The warning for HTML of this many bytes, or undefined when Gmail shows it whole. */
export function gmailClipProblem(htmlBytes: number): LmxProblem | undefined {
  if (htmlBytes <= GMAIL_CLIP_BYTES) return undefined;
  return {
    severity: 'warning',
    rule: 'gmail-clip',
    message: `the rendered HTML is ${kilobytes(htmlBytes)}: Gmail clips an email over ${kilobytes(GMAIL_CLIP_BYTES)} and hides the rest, with the unsubscribe link, behind "View entire message"`,
    fix: 'cut it down: fewer or shorter blocks, fewer columns and icons, repeated content moved out, or split it into two emails',
    line: 1,
    column: 1,
    offset: 0,
  };
}
