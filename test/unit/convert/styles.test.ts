/** CSS values as LMX takes them: colours as hex (CSS's named colours too; none for transparent), lengths in pixels, attribute values escaped. */
import { describe, expect, it } from 'vitest';
import { writeLmx } from '../../../src/convert/lmx-out.js';
import { hexColour, pixels } from '../../../src/convert/styles.js';
import { fromHtml } from './layout-support.js';

describe('convert’s CSS values', () => {
  it('gives a transparent colour no hex, never black', () => {
    for (const transparent of ['transparent', 'rgba(0, 0, 0, 0)', 'rgba(0 0 0 / 0)', 'rgba(0,0,0,0.0)'])
      expect(hexColour(transparent), transparent).toBeUndefined();
    expect(hexColour('rgb(0, 0, 0)')).toBe('#000000');
    // A translucent colour is the hex it shows as, on white where nothing else is under it.
    expect(hexColour('rgba(255, 128, 0, 0.5)')).toBe('#ffc080');
  });

  it('knows every named colour of CSS, in any case, and no name that is not one', () => {
    expect(hexColour('lightblue')).toBe('#add8e6');
    expect(hexColour('RebeccaPurple')).toBe('#663399');
    expect(hexColour('Navy')).toBe('#000080');
    for (const other of ['constructor', 'toString', 'currentcolor', 'bluish']) expect(hexColour(other), other).toBeUndefined();
  });

  it('carries a named colour of a source’s text into the LMX', () => {
    expect(fromHtml('<html><body><p style="color: lightblue">Hello</p></body></html>').lmx).toMatch(/#add8e6/);
  });

  it('converts points to pixels as CSS does (1pt is 4/3 px), ems at 16 px', () => {
    expect(pixels('12pt')).toBe(16);
    expect(pixels('9pt')).toBe(12);
    expect(pixels('1.5em')).toBe(24);
    expect(pixels('14px')).toBe(14);
    expect(pixels('50%')).toBeUndefined();
  });

  it('escapes a double quote, an ampersand and a "<" in an attribute', () => {
    expect(writeLmx({}, [{ tag: 'Button', attrs: { href: 'https://example.com/?q="a"&b<c' }, inline: [{ text: 'Go' }] }])).toBe(
      '<Button href="https://example.com/?q=&quot;a&quot;&amp;b&lt;c">Go</Button>\n',
    );
  });
});
