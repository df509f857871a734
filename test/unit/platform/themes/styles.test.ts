import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderTheme, themeListView } from '../../../../src/areas/themes/render.js';
import { swatch } from '../../../../src/areas/themes/swatch.js';
import type { Theme } from '../../../../src/platform/themes/schemas.js';
import { Output } from '../../../../src/render/output.js';
import { styleFor } from '../../../../src/render/style.js';
import { renderTable } from '../../../../src/render/table.js';

const sink = (isTTY: boolean) => Object.assign(new Writable({ write: (_chunk, _encoding, done) => done() }), { isTTY });
/** Output asking for colour, which only a terminal gets. */
async function output(tty: boolean): Promise<Output> {
  const out = new Output({ json: false, color: true, stdout: sink(tty), stderr: sink(false), env: {} });
  await out.loadPalette();
  return out;
}

const theme: Theme = {
  id: 'th1',
  name: 'Brand',
  isDefault: true,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-02-01T00:00:00.000Z',
  styles: {
    backgroundColor: '#F5F5F5',
    backgroundXPadding: 12,
    backgroundYPadding: 12,
    bodyColor: '#ffffff',
    bodyXPadding: 24,
    bodyYPadding: 24,
    bodyFontFamily: 'Inter',
    bodyFontCategory: 'sans-serif',
    borderColor: 'transparent',
    borderWidth: 0,
    borderRadius: 8,
    buttonBodyColor: '#0057ff',
    buttonBodyXPadding: 16,
    buttonBodyYPadding: 8,
    buttonBorderColor: '#0057ff',
    buttonBorderWidth: 1,
    buttonBorderRadius: 6,
    buttonTextColor: '#fff',
    buttonTextFormat: 1,
    buttonTextFontSize: 15,
    dividerColor: '#e5e5e5',
    dividerBorderWidth: 1,
    textBaseColor: '#111111',
    textBaseFontSize: 16,
    textBaseLineHeight: 1.5,
    textBaseLetterSpacing: 0,
    textLinkColor: '#0057ff',
    heading1Color: '#000000',
    heading1FontSize: 32,
    heading1LineHeight: 1.2,
    heading1LetterSpacing: -0.5,
    heading2Color: '#000000',
    heading2FontSize: 24,
    heading2LineHeight: 1.25,
    heading2LetterSpacing: 0,
    heading3Color: '#000000',
    heading3FontSize: 20,
    heading3LineHeight: 1.3,
    heading3LetterSpacing: 0,
    footerColor: '#abcdef',
  },
};

const BACKGROUND_256 = /\x1b\[48;5;\d+m {2}\x1b\[49m/;

describe('theme swatches', () => {
  it('puts a block of the colour before a hex code, and nothing before other text', async () => {
    const style = styleFor(await output(true));
    expect(swatch(style, '#0057ff', '#0057ff')).toMatch(new RegExp(`^${BACKGROUND_256.source} #0057ff$`));
    expect(swatch(style, '#fff', '#fff')).toMatch(BACKGROUND_256);
    expect(swatch(style, 'transparent', 'transparent')).toBe('transparent');
    expect(swatch(style, '#12345', '#12345')).toBe('#12345');
  });

  it('shows swatches in the list on a colour terminal only', async () => {
    const [colour, plain] = [await output(true), await output(false)];
    expect(renderTable(colour, themeListView.columns, [themeListView.row(theme, styleFor(colour))])).toMatch(BACKGROUND_256);
    expect(renderTable(plain, themeListView.columns, [themeListView.row(theme, styleFor(plain))])).not.toContain('\x1b');
  });
});

describe('themes show', () => {
  it('prints every style grouped as in the reference, with swatches, unknown styles last', async () => {
    const text = renderTheme(await output(true), theme);
    const order = ['Page background', 'Body', 'Border', 'Button', 'Divider', 'Base text', 'Heading 1', 'Heading 2', 'Heading 3', 'Other'].map((group) =>
      text.indexOf(`\n${group}  `),
    );
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const field of Object.keys(theme.styles)) expect(text).toContain(field);
    expect(text).toMatch(new RegExp(`${BACKGROUND_256.source} #abcdef`));
    expect(text).toMatch(/ {2}Inter\n/);
    // Twelve colours are hex codes; "transparent" gets no swatch.
    expect(text.match(/\x1b\[48;5;/g)).toHaveLength(12);
  });

  it('is a record of field and value rows for scripts, its styles as JSON in one cell, with no colour', async () => {
    const text = renderTheme(await output(false), theme);
    expect(text.startsWith('FIELD\tVALUE\nid\tth1\n')).toBe(true);
    expect(text).toContain(`\nstyles\t${JSON.stringify(theme.styles)}\n`);
    expect(text).not.toContain('\u001b[');
  });
});
