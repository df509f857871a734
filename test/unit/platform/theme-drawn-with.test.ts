/** Which theme an email is drawn with (src/platform/themes/drawn-with.ts), the one pick of the renderers and the write gate. */
import { describe, expect, it } from 'vitest';
import { themeDrawnWith } from '../../../src/platform/themes/drawn-with.js';

const THEMES = [
  { id: 'h-dark', isDefault: false },
  { id: 'h-default', isDefault: true },
];

describe('the theme an email is drawn with', () => {
  it('is the one its <Style themeId> names, exactly as written', () => {
    expect(themeDrawnWith('h-dark', THEMES)?.id).toBe('h-dark');
  });

  it.each([
    ['none named', undefined],
    ['an empty id', ''],
    ['a theme the account does not hold', 'h-gone'],
    ['a stray space', ' h-dark'],
    ['another case', 'H-Dark'],
  ])('is the default theme for %s', (_what, themeId) => {
    expect(themeDrawnWith(themeId, THEMES)?.id).toBe('h-default');
  });

  it('is none where the account has no default theme', () => {
    expect(themeDrawnWith('h-gone', [{ id: 'h-dark', isDefault: false }])).toBeUndefined();
  });
});
