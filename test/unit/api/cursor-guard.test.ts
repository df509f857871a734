import { describe, expect, it } from 'vitest';
import { CursorGuard, MAX_CURSOR_CHARS } from '../../../src/api/cursor-guard.js';
import { InvalidResponseError } from '../../../src/base/errors.js';

describe('CursorGuard', () => {
  it('follows new cursors, and ends at a null or empty one', () => {
    const guard = new CursorGuard();
    expect(guard.follow({ totalPages: 3, nextCursor: 'a' })).toBe('a');
    expect(guard.follow({ totalPages: 3, nextCursor: 'b' })).toBe('b');
    expect(guard.follow({ totalPages: 3, nextCursor: null })).toBeUndefined();
    expect(new CursorGuard().follow({ totalPages: 1, nextCursor: '' })).toBeUndefined();
  });

  it('refuses a cursor seen before, without quoting it', () => {
    const guard = new CursorGuard();
    guard.follow({ totalPages: 5, nextCursor: 'secret-looking-cursor' });
    guard.follow({ totalPages: 5, nextCursor: 'other' });
    expect(() => guard.follow({ totalPages: 5, nextCursor: 'secret-looking-cursor' })).toThrow(InvalidResponseError);
    expect(() => guard.follow({ totalPages: 5, nextCursor: 'other' })).toThrow(
      expect.objectContaining({
        message: 'the API returned a cursor it had returned before, after 4 pages; stopping instead of looping',
        exitCode: 9,
      }),
    );
  });

  it('refuses a cursor longer than 2048 characters', () => {
    expect(MAX_CURSOR_CHARS).toBe(2048);
    expect(new CursorGuard().follow({ totalPages: 2, nextCursor: 'x'.repeat(2048) })).toHaveLength(2048);
    expect(() => new CursorGuard().follow({ totalPages: 2, nextCursor: 'x'.repeat(2049) })).toThrow(
      'the API returned a cursor of 2049 characters, more than the 2048 loopsctl follows; stopping',
    );
  });

  it('stops an endless chain of new cursors a margin past the pages announced on the first page', () => {
    const guard = new CursorGuard();
    let followed = 0;
    const chain = () => {
      for (;;) {
        // A server that keeps raising totalPages does not move the bound.
        guard.follow({ totalPages: 3 + followed, nextCursor: `c${followed}` });
        followed += 1;
      }
    };
    expect(chain).toThrow(/still offers a next page after 13 pages/);
    expect(followed).toBe(12);
  });

  it('allows a tenth more pages than announced for a long list', () => {
    const guard = new CursorGuard();
    let pages = 0;
    expect(() => {
      for (;;) {
        pages += 1;
        guard.follow({ totalPages: 500, nextCursor: `c${pages}` });
      }
    }).toThrow(InvalidResponseError);
    expect(pages).toBe(550);
  });

  it('keeps digests, not cursors: memory does not grow with cursor size', () => {
    const guard = new CursorGuard();
    for (let index = 0; index < 5; index += 1) guard.follow({ totalPages: 10, nextCursor: `${index}`.padEnd(2000, 'y') });
    const seen = (guard as unknown as { seen: Set<string> }).seen;
    expect([...seen].map((digest) => digest.length)).toEqual([16, 16, 16, 16, 16]);
  });
});
