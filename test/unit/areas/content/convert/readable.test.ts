/**
 * Readable everywhere: text keeps at least the contrast it had against what it stood on in the
 * source, held against the colours the converted LMX is drawn with.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, keepContrast, rememberLook } from '../../../../../src/areas/content/convert/contrast.js';
import { Findings } from '../../../../../src/areas/content/convert/model.js';
import { fromHtml } from './layout-support.js';

const FOOTER = 'You are receiving this email because you signed up at Acme. Acme Inc, 1 Main Street, Springfield. '.repeat(4);

const page = (inner: string) => `<!doctype html><html><head><title>Order</title></head><body style="background-color:#222222;margin:0">${inner}</body></html>`;

describe('colours as the text was read', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('puts the page’s colour behind content that stood on the page: a footer of white words on a dark page stays readable', () => {
    const { lmx, html } = fromHtml(
      page(`<table width="600" align="center" bgcolor="#ffffff"><tr><td style="color:#333333">
          <p>Your order of the Oak Chair has shipped and will arrive on Friday, with tracking to follow soon.</p>
          <p>Line item: Oak Chair, one, 120 euros. Line item: Cushion, two, 40 euros. Total 160 euros.</p>
        </td></tr></table>
        <p style="color:#ffffff;text-align:center">${FOOTER}</p>`),
    );
    expect(lmx).toMatch(/^<Style backgroundColor="#222222" bodyColor="#ffffff"[^>]* textBaseColor="#333333"/);
    expect(lmx).toMatch(/<Paragraph align="center" blockColor="#222222"><Text textColor="#ffffff">You are receiving/);
    expect(html).toContain('background-color:#222222');
  });

  it('takes the base text colour from the text on the body, not from a longer footer on the page', () => {
    const { lmx } = fromHtml(
      page(`<table width="600" align="center" bgcolor="#fdf6e3"><tr><td style="color:#3b2f2f">
          <p>Oak Chair, 120 euros.</p><p>Cushion, 40 euros.</p>
        </td></tr></table>
        <p style="color:#fdf6e3">${FOOTER}</p>`),
    );
    expect(lmx).toContain('textBaseColor="#3b2f2f"');
    expect(lmx).toMatch(/<Paragraph[^>]*>Oak Chair, 120 euros.<\/Paragraph>/);
    expect(lmx).toMatch(/<Paragraph blockColor="#222222"><Text textColor="#fdf6e3">You are receiving/);
  });

  it('keeps the colour of a background it drops (an image) and of a section it flattens', () => {
    const { lmx, findings } = fromHtml(
      page(`<table width="600" align="center" bgcolor="#ffffff"><tr><td>
          <p>Welcome back to the shop, here is what is new this week for you.</p>
          <div style="background:#1a1a2e url(https://example.com/hero.jpg) no-repeat;padding:20px">
            <p style="color:#ffffff">Hero words over the picture</p>
            <div style="background-color:#f0f0f0;padding:10px"><p style="color:#333333">Nested words on grey</p></div>
          </div>
        </td></tr></table>`),
    );
    expect(lmx).toMatch(/<Section blockColor="#1a1a2e"[^>]*>\s*<Paragraph><Text textColor="#ffffff">Hero words over the picture/);
    // The inner section is flattened into the outer (sections do not nest): its dark words keep the light grey behind them.
    expect(lmx).toMatch(/<Paragraph [^>]*blockColor="#f0f0f0"[^>]*><Text textColor="#333333">Nested words on grey/);
    expect(findings.remediation.map((item) => item.construct)).toContain('the background image https://example.com/hero.jpg');
  });
});

describe('footer bands', () => {
  it('keeps a dark band coloured by its row and the light band after it apart, each text on its own colour', () => {
    const { lmx, findings } = fromHtml(
      `<!doctype html><html><head><title>Order</title></head><body style="background-color:#f4f4f4;margin:0">
        <table width="600" align="center" bgcolor="#ffffff"><tr><td>
          <p>Your order of the Oak Chair has shipped and will arrive on Friday, with tracking to follow soon.</p>
          <p>Line item: Oak Chair, one, 120 euros. Line item: Cushion, two, 40 euros. Total 160 euros.</p>
        </td></tr></table>
        <table width="600" align="center"><tr bgcolor="#1f2937"><td><p style="color:#ffffff">Follow us</p><p style="color:#ffffff">Shop, blog, help</p></td></tr>
        <tr style="background-color:#333333"><td style="color:#eeeeee"><p>Careers</p></td></tr></table>
        <table width="600" align="center"><tr><td style="color:#6b7280"><p>Acme Inc, 1 Main Street</p><p>Unsubscribe at any time</p></td></tr></table>
      </body></html>`,
    );
    expect(lmx).toMatch(
      /<Section blockColor="#1f2937"[^>]*>\s*<Paragraph[^>]*><Text textColor="#ffffff">Follow us<\/Text><\/Paragraph>\s*<Paragraph[^>]*><Text textColor="#ffffff">Shop, blog, help</,
    );
    expect(lmx).toMatch(/<Section blockColor="#333333"[^>]*>\s*<Paragraph[^>]*><Text textColor="#eeeeee">Careers</);
    expect(lmx).toMatch(/<Section blockColor="#f4f4f4"[^>]*>\s*<Paragraph[^>]*><Text textColor="#6b7280">Acme Inc/);
    // No white words in the light band's section.
    const light = lmx.slice(lmx.indexOf('<Section blockColor="#f4f4f4"'));
    expect(light.slice(0, light.indexOf('</Section>'))).not.toContain('#ffffff');
    expect(findings.remediation.map((item) => item.construct)).not.toContain('text less readable than in the source');
  });
});

describe('what cannot be kept', () => {
  it('lists a block whose contrast fell and that takes no colour of its own', () => {
    const findings = new Findings();
    // A block of a kind with no blockColor, its white words now on the white body.
    const made = { tag: 'Unknown', attrs: {}, inline: [{ tag: 'Text', attrs: { textColor: '#ffffff' }, children: [{ text: 'Footer words' }] }] };
    rememberLook(made, '#ffffff', '#222222', { file: 'email.html', line: 9, column: 3 });
    keepContrast([made], { bodyColor: '#ffffff' }, findings);
    expect(findings.remediation).toEqual([
      expect.objectContaining({ line: 9, column: 3, construct: 'text less readable than in the source', outcome: 'listed' }),
    ]);
    expect(findings.remediation[0]!.done).toBe('its contrast is 1.0:1 against its background, where the source had 15.9:1');
  });
});
