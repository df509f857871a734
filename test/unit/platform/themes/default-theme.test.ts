/** One default theme: every style named, the sandbox's seed holding it, the renderer drawing with it. */
import { describe, expect, it } from 'vitest';
import { emailStyles } from '../../../../src/lmx/theme.js';
import { DEFAULT_THEME_STYLES } from '../../../../src/platform/themes/default-theme.js';
import { THEME_STYLES } from '../../../../src/platform/themes/style-names.js';
import { seedState } from '../../../support/sandbox.js';

describe('the default theme', () => {
  it('gives every style the API knows, each of its kind', () => {
    expect(Object.keys(DEFAULT_THEME_STYLES).sort()).toEqual(Object.keys(THEME_STYLES).sort());
    for (const [name, kind] of Object.entries(THEME_STYLES))
      expect(typeof DEFAULT_THEME_STYLES[name as keyof typeof THEME_STYLES], name).toBe(kind === 'number' ? 'number' : 'string');
  });

  it("is the sandbox's default theme, value for value", () => {
    const state = seedState() as { themes: { isDefault: boolean; styles: unknown }[] };
    expect(state.themes.find((theme) => theme.isDefault)!.styles).toEqual(DEFAULT_THEME_STYLES);
  });

  it('is what an email without a theme is drawn with, and what an empty <Style /> attribute leaves', () => {
    const none = emailStyles(undefined, undefined).styles;
    expect(none.text).toEqual({ color: '#374151', fontSize: 14, lineHeight: '150%', letterSpacing: 0 });
    expect(none.bodyXPadding).toBe(0);
    const empty = emailStyles(DEFAULT_THEME_STYLES, {
      kind: 'element',
      name: 'Style',
      attributes: [{ name: 'textBaseFontSize', value: '', parts: [], position: { line: 1, column: 1, offset: 0 } }],
      children: [],
      selfClosing: true,
      position: { line: 1, column: 1, offset: 0 },
      end: 0,
    } as never);
    expect(empty.styles).toEqual(none);
    expect(empty.dropped).toEqual([]);
  });
});
