/**
 * Bounds a paged listing that the API drives with its cursors, so that a server returning the same
 * cursor again, an endless chain of new ones, or cursors of any size cannot keep a listing going
 * forever or fill the memory. Seen cursors are kept as short digests, not as the cursors.
 */

import { builtinModule } from '../base/builtin.js';
import { InvalidResponseError } from '../base/errors.js';

/** No cursor of the API is anywhere near this long. */
export const MAX_CURSOR_CHARS = 2048;
/** Pages beyond the announced totalPages allowed for a list that grows while it is read. */
const MIN_EXTRA_PAGES = 10;

export interface CursorGuardOptions {
  maxCursorChars?: number;
  minExtraPages?: number;
}

/** Of one page's pagination, what the guard reads. */
export interface PageCursor {
  nextCursor?: string | null;
  totalPages?: number;
}

/**
 * Use one per listing: after each page, pass its pagination to `follow`, which returns the cursor
 * to ask for next, or undefined when the listing is over, and throws InvalidResponseError (exit 9)
 * instead of following a cursor seen before, one too long, or one past the pages announced.
 */
export class CursorGuard {
  private readonly seen = new Set<string>();
  private readonly maxCursorChars: number;
  private readonly minExtraPages: number;
  private pages = 0;
  /** Set from the first page: the count of pages the API announced, plus a margin. */
  private maxPages: number | undefined;

  constructor(options: CursorGuardOptions = {}) {
    this.maxCursorChars = options.maxCursorChars ?? MAX_CURSOR_CHARS;
    this.minExtraPages = options.minExtraPages ?? MIN_EXTRA_PAGES;
  }

  follow(pagination: PageCursor): string | undefined {
    this.pages += 1;
    if (this.maxPages === undefined) {
      const announced = Number.isSafeInteger(pagination.totalPages) && pagination.totalPages! > 0 ? pagination.totalPages! : 1;
      // A tenth more, and at least a few pages, for items added while the listing runs.
      this.maxPages = announced + Math.max(this.minExtraPages, Math.ceil(announced / 10));
    }
    const next = pagination.nextCursor;
    if (next === undefined || next === null || next === '') return undefined;
    if (next.length > this.maxCursorChars) {
      throw new InvalidResponseError(
        `the API returned a cursor of ${next.length} characters, more than the ${this.maxCursorChars} loopsctl follows; stopping`,
        { status: 200 },
      );
    }
    const digest = digestOf(next);
    if (this.seen.has(digest)) {
      throw new InvalidResponseError(`the API returned a cursor it had returned before, after ${this.pages} pages; stopping instead of looping`, {
        status: 200,
      });
    }
    if (this.pages >= this.maxPages) {
      throw new InvalidResponseError(`the API still offers a next page after ${this.pages} pages, well past the number it announced; stopping`, {
        status: 200,
        hint: 'the list may be growing faster than it can be read; narrow it, or read it again later',
      });
    }
    this.seen.add(digest);
    return next;
  }
}

/**
 * A short SHA-256 digest; node:crypto is loaded on the first cursor, so a listing of one page
 * (most of them) never loads it.
 */
function digestOf(cursor: string): string {
  const { createHash } = builtinModule('node:crypto');
  return createHash('sha256').update(cursor).digest('base64url').slice(0, 16);
}
