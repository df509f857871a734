/**
 * The layout model's sizing of tables, held to figures Chromium drew for React Email's rendering
 * of the corpus (test/e2e/areas/content/convert-react-browser.test.ts measures them all): a table
 * grows to what it holds, a row's cells share it out by their content, a flex box centres its
 * content, and styles read from properties of an object literal.
 */
import { describe, expect, it } from 'vitest';
import { SourceLayout } from '../../../../src/convert/layout/layout.js';
import { textWidth } from '../../../../src/convert/layout/text-width.js';
import { Findings, type SourceElement } from '../../../../src/convert/model.js';
import { readHtml } from '../../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../../src/convert/sources/mjml-source.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';
import { fromMjml } from '../layout-support.js';

const REACT = (body: string, styles = '') => `import { Body, Column, Container, Img, Row, Section, Text } from '@react-email/components';
${styles}
export default function Email() {
  return (
    <Html>
      <Body style={{ fontFamily: 'Helvetica, Arial, sans-serif' }}>
        ${body}
      </Body>
    </Html>
  );
}
`;

/** The content boxes of the elements at the given lines, laid out at a width. */
function boxes(source: string, width: number, lines: number[], read = (text: string) => readReact(text, 'email.tsx', new Findings())) {
  const { body } = read(source);
  const layout = new SourceLayout(body, width);
  const found: SourceElement[] = [];
  const walk = (node: SourceElement) => {
    if (lines.includes(node.at.line)) found.push(node);
    for (const child of node.children) if (child.type === 'element') walk(child);
  };
  walk(body);
  return lines.map((line) => {
    const box = layout.of(found.find((node) => node.at.line === line)!)!.box;
    return { left: Math.round(box.left), right: Math.round(box.right) };
  });
}

describe('the layout model sizes tables as a browser does', () => {
  it('widens the page to a Container of 580 px on a 375 px screen, as React Email’s table around the body grows to it', () => {
    // Chromium, airbnb-review.tsx at 375 px: the container 8–588, where `max-width: 100%` would hold it to 8–367.
    const source = REACT(`<Container style={{ width: '580px', maxWidth: '100%' }}>
          <Text>Hello</Text>
        </Container>`);
    expect(boxes(source, 375, [7, 8])).toEqual([
      { left: 8, right: 588 },
      { left: 8, right: 588 },
    ]);
  });

  it('shares a row out by its cells’ content: images of 64, 12 and 64 px take the room in proportion', () => {
    // Chromium, vercel-invite-user.tsx: three cells of images 64, 12 and 64 px in 423 px drawn 193, 36 and 194 px wide.
    const source = REACT(`<Section>
          <Row>
            <Column><Img src="a.png" width="64" height="64" /></Column>
            <Column><Img src="b.png" width="12" height="9" /></Column>
            <Column><Img src="c.png" width="64" height="64" /></Column>
          </Row>
        </Section>`);
    const [first, second, third] = boxes(source, 600, [9, 10, 11]);
    const extra = 584 - 140;
    expect(first).toEqual({ left: 8, right: Math.round(8 + 64 + (extra * 64) / 140) });
    expect(second!.right - second!.left).toBeCloseTo(12 + (extra * 12) / 140, -1);
    expect(third!.right).toBe(592);
  });

  it('gives way down to what each cell holds where the row asks more than there is, as twitch’s 249 + 102 + 249 px do on a phone', () => {
    // Chromium, twitch-reset-password.tsx at 375 px: cells asking 249, 102 and 249 px drawn 149, 61 and 149 px wide.
    const source = REACT(`<Section>
          <Row>
            <Column style={{ width: '249px' }} />
            <Column style={{ width: '102px' }} />
            <Column style={{ width: '249px' }} />
          </Row>
        </Section>`);
    const cells = boxes(source, 375, [9, 10, 11]).map((box) => box.right - box.left);
    expect(cells).toEqual([149, 61, 149]);
  });

  it('centres what a flex Section holds, as wide as its widest line', () => {
    const source = REACT(`<Section style={{ display: 'flex', justifyContent: 'center' }}>
          <Text>Verification code</Text>
        </Section>`);
    const [text] = boxes(source, 600, [8]);
    expect(text!.left - 8).toBeGreaterThan(200);
    expect(Math.abs(text!.left - 8 - (592 - text!.right))).toBeLessThanOrEqual(1);
  });

  it('reads a style from a property of an object literal (`style={styles.card}`), spreads followed', () => {
    const source = REACT(
      `<Section style={styles.card}>
          <Text>Padded</Text>
        </Section>`,
      "const base = { paddingLeft: '24px' };\nconst styles = { card: { ...base, paddingRight: '40px' } };",
    );
    expect(boxes(source, 600, [9])).toEqual([{ left: 32, right: 552 }]);
  });
});

describe('text measured without drawing it', () => {
  it('takes a line of Arial-metric text within a few pixels of Chromium’s drawing', () => {
    // Chromium with Liberation Sans (Arial's metrics), 16 px: 531 px.
    const width = textWidth('Congratulations! You are joining over 3 million developers around the world', { size: 16, family: 'sans', bold: false });
    expect(Math.abs(width - 531)).toBeLessThan(6);
  });

  it('draws the pairs Arial kerns closer, as Chromium draws Foundation’s menu items', () => {
    // Chromium with Liberation Sans, 16 px: 146.4 and 47.1 px, "y." and "Tw" kerned.
    const regular = { size: 16, family: 'sans', bold: false } as const;
    expect(Math.abs(textWidth('krakenacademy.com', regular) - 146.4)).toBeLessThan(0.1);
    expect(Math.abs(textWidth('Twitter', regular) - 47.1)).toBeLessThan(0.1);
  });

  it('takes bold text in Arial Bold’s own widths, as Chromium draws E-Com Plus’s subtotal', () => {
    // Chromium with Liberation Sans Bold, 20 px: 81.2 and 264.5 px.
    const bold = { size: 20, family: 'sans', bold: true } as const;
    expect(Math.abs(textWidth('R$ 52,00', bold) - 81.2)).toBeLessThan(0.5);
    expect(Math.abs(textWidth('Confirm your email address', bold) - 264.5)).toBeLessThan(0.5);
  });
});

describe('MJML’s columns and groups as its compiler lays them out', () => {
  const mjml = (source: string, width: number, lines: number[]) =>
    boxes(source, width, lines, (text) => readMjml(text, 'email.mjml', new Findings(), { readInclude: () => ({ file: '', source: '' }) }));
  const text = (words: string) => `<mj-text>${words}</mj-text>`;

  it('keeps a group’s columns side by side on a phone, where a section’s own stack', () => {
    // mjml-group's README: "Prevent adjacent mj-column instances from stacking on mobile by wrapping them inside an mj-group tag".
    // Chromium, the page mjml 4.18 compiles this to: at 600 px 25–275, 325–425, 475–575; at 375 px 25–350, 25–163, 213–350.
    const source = `<mjml><mj-body><mj-section>
<mj-column>
${text('Alone in its column, a few words')}
</mj-column>
<mj-group>
<mj-column>
${text('Left of the group')}
</mj-column>
<mj-column>
${text('Right of the group')}
</mj-column>
</mj-group>
</mj-section></mj-body></mjml>`;
    expect(mjml(source, 600, [3, 7, 10])).toEqual([
      { left: 25, right: 275 },
      { left: 325, right: 425 },
      { left: 475, right: 575 },
    ]);
    expect(mjml(source, 375, [3, 7, 10])).toEqual([
      { left: 25, right: 350 },
      { left: 25, right: 163 },
      { left: 213, right: 350 },
    ]);
  });

  it('writes a group’s columns as LMX columns that do not stack, and a section’s as columns that do', () => {
    const group = fromMjml(
      `<mjml><mj-body><mj-section><mj-group><mj-column>${text('Easy and quick')}</mj-column><mj-column>${text('Responsive')}</mj-column></mj-group></mj-section></mj-body></mjml>`,
    );
    expect(group.lmx).toMatch(/<Columns [^>]*stackOnMobile="false"/);
    const section = fromMjml(
      `<mjml><mj-body><mj-section><mj-column>${text('Easy and quick')}</mj-column><mj-column>${text('Responsive')}</mj-column></mj-section></mj-body></mjml>`,
    );
    expect(section.lmx).toMatch(/<Columns /);
    expect(section.lmx).not.toContain('stackOnMobile');
  });

  it('makes columns that wrap, their widths over 100%, rows of the columns that fit on each line, as MJML draws them', () => {
    // Covalent's account information: a title column of 100%, then three pairs of 40% and 60%, one section.
    const pair = (label: string, value: string) =>
      `<mj-column width="40%"><mj-text>${label}</mj-text></mj-column><mj-column width="60%"><mj-text>${value}</mj-text></mj-column>`;
    const { lmx, findings } = fromMjml(
      `<mjml><mj-body><mj-section padding="0"><mj-column width="100%"><mj-text font-weight="300">Your account information</mj-text></mj-column>${pair('Account name:', 'Credit Saison')}${pair('Username:', 'ada@example.com')}</mj-section></mj-body></mjml>`,
    );
    // Each column read once: what its text loses is listed once.
    expect(findings.remediation.filter((item) => item.construct === 'font-weight 300')).toHaveLength(1);
    const rows = lmx.split('<Columns ').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => /widths="([\d,]+)"/.exec(row)?.[1])).toEqual(['40,60', '40,60']);
    expect(rows[0]).toMatch(/Account name:[\s\S]*Credit Saison/);
    expect(rows[1]).toMatch(/Username:[\s\S]*ada@example.com/);
    expect(lmx.indexOf('Your account information')).toBeLessThan(lmx.indexOf('<Columns '));
  });

  it('draws an <mj-table> as wide as its column, as MJML compiles it (`width="100%"`, no spacing), whatever it holds', () => {
    // Chromium, mjml 4.18: the table's row at 25–575 at 600 px, 25–350 at 375.
    const source = `<mjml><mj-body><mj-section><mj-column><mj-table>
<tr><td>Tea</td><td>$4</td></tr>
</mj-table></mj-column></mj-section></mj-body></mjml>`;
    expect(mjml(source, 600, [2])).toEqual([{ left: 25, right: 575 }]);
    expect(mjml(source, 375, [2])).toEqual([{ left: 25, right: 350 }]);
  });

  it('gives a column or group its width from 480 px up only: narrower, it is as wide as its section', () => {
    // Chromium, mjml 4.18: the column of 60% at 145–455 at 600 px, 25–350 at 375; the group of 80% in a section padded 10 px
    // at 375 px is the section's width, its columns of 30% and 70% at 35–92 and 142–340.
    const column = `<mjml><mj-body><mj-section>
<mj-column width="60%">
${text('A narrow column alone')}
</mj-column>
</mj-section></mj-body></mjml>`;
    expect(mjml(column, 600, [3])).toEqual([{ left: 145, right: 455 }]);
    expect(mjml(column, 375, [3])).toEqual([{ left: 25, right: 350 }]);
    const group = `<mjml><mj-body><mj-section padding="0 10px">
<mj-group width="80%" background-color="#eeeeee">
<mj-column width="30%">
${text('Narrow one')}
</mj-column>
<mj-column width="70%">
${text('Wide one with more words')}
</mj-column>
</mj-group>
</mj-section></mj-body></mjml>`;
    expect(mjml(group, 600, [4, 7])).toEqual([
      { left: 93, right: 182 },
      { left: 232, right: 507 },
    ]);
    expect(mjml(group, 375, [4, 7])).toEqual([
      { left: 35, right: 92 },
      { left: 142, right: 340 },
    ]);
  });

  it('breaks an address written out after its slashes, question marks and hyphens, as Chromium does, so it holds no table open', () => {
    // Chromium, Mailgen's Neopolitan theme at 375 px: the fallback link `https://mailgen.js/confirm?s=…` breaks after
    // `mailgen.js/` and `confirm?`, its cell 237 px wide; a word of letters alone does not break.
    const html = (word: string) =>
      `<html><body style="margin: 0">\n<table cellpadding="0" cellspacing="0"><tr><td>\n<p style="margin: 0">${word}</p>\n</td></tr></table>\n</body></html>`;
    const read = (source: string) => readHtml(source, 'email.html', new Findings());
    const [address] = boxes(html('https://example.com/reset-password/confirm?token=abc'), 200, [3], read);
    expect(address!.right).toBeLessThanOrEqual(200);
    expect(address!.right).toBeGreaterThan(120);
    const [word] = boxes(html('Supercalifragilisticexpialidocious'), 200, [3], read);
    expect(word!.right).toBeGreaterThan(200);
  });
});

describe('a part one screen hides', () => {
  it('lays out a desktop’s table on a wide screen and not on a phone whose media query hides it, as Chromium draws nothing there', () => {
    const html = `<!doctype html><html><head><style>@media (max-width: 480px) { .desktop-only { display: none } }</style></head><body>
<table class="desktop-only" width="100%"><tr><td>
<p>Stoneware mug</p>
</td></tr></table>
</body></html>`;
    const { body } = readHtml(html, 'email.html', new Findings());
    const paragraph = (node: SourceElement): SourceElement | undefined =>
      node.name === 'p' ? node : node.children.flatMap((child) => (child.type === 'element' ? [paragraph(child)] : [])).find(Boolean);
    const found = paragraph(body)!;
    expect(new SourceLayout(body, 600).of(found)).toBeDefined();
    expect(new SourceLayout(body, 375).of(found)).toBeUndefined();
  });
});

describe('a cell one screen hides', () => {
  it('lays out no box for a cell a phone’s media query hides, and gives its room to the row’s other cells (Mailgen Salted’s header link)', () => {
    const html = `<!doctype html><html><head><style>@media screen and (max-width: 525px) { td[class="mobile-hide"] { display: none } }</style></head><body style="margin: 0">
<table cellpadding="0" cellspacing="0" width="100%"><tr><td class="mobile-hide" width="200">
<p>Mailgen</p>
</td><td>
<p>Your receipt</p>
</td></tr></table>
</body></html>`;
    const { body } = readHtml(html, 'email.html', new Findings());
    const paragraphs = (node: SourceElement): SourceElement[] =>
      node.name === 'p' ? [node] : node.children.flatMap((child) => (child.type === 'element' ? paragraphs(child) : []));
    const [hidden, shown] = paragraphs(body);
    expect(new SourceLayout(body, 600).of(hidden!)).toBeDefined();
    expect(new SourceLayout(body, 600).of(shown!)!.box.left).toBeGreaterThanOrEqual(200);
    expect(new SourceLayout(body, 375).of(hidden!)).toBeUndefined();
    expect(new SourceLayout(body, 375).of(shown!)!.box).toEqual({ left: 0, right: 375 });
  });
});

describe('cells a phone’s media query makes inline-blocks', () => {
  const html = `<!doctype html><html><head><style>@media only screen and (max-width: 596px) { th.item { display: inline-block !important; width: auto !important } th.half { display: inline-block !important; width: 50% !important } }</style></head><body style="margin: 0">
<table style="width: 100%; border-collapse: collapse"><tr style="text-align: center"><th class="item" style="padding: 10px">
<img src="a.png" width="150" height="20">
</th><th class="item" style="padding: 10px">
<img src="b.png" width="150" height="20">
</th><th class="item" style="padding: 10px">
<img src="c.png" width="150" height="20">
</th></tr></table>
<table style="width: 100%; border-collapse: collapse"><tr><th class="half" style="padding: 0">
<p>Left</p>
</th><th class="half" style="padding: 0">
<p>Right</p>
</th></tr></table>
</body></html>`;
  const found = (name: string) => {
    const { body } = readHtml(html, 'email.html', new Findings());
    const all = (node: SourceElement): SourceElement[] =>
      node.name === name ? [node] : node.children.flatMap((child) => (child.type === 'element' ? all(child) : []));
    return { body, nodes: all(body) };
  };

  it('flows them as a line of words, each as wide as what it holds, every line centred as the row aligns its text (Foundation’s menu)', () => {
    const { body, nodes } = found('img');
    const layout = new SourceLayout(body, 375);
    // Two of 170 px fit in 375, centred; the third goes to a line of its own, centred too.
    expect(nodes.map((node) => layout.of(node)!.box)).toEqual([
      { left: 27.5, right: 177.5 },
      { left: 197.5, right: 347.5 },
      { left: 112.5, right: 262.5 },
    ]);
  });

  it('gives those of a share of the row that share (Foundation’s small columns)', () => {
    const { body, nodes } = found('p');
    const layout = new SourceLayout(body, 375);
    expect(nodes.map((node) => layout.of(node)!.box)).toEqual([
      { left: 0, right: 187.5 },
      { left: 187.5, right: 375 },
    ]);
  });
});

describe('a table whose rows ask their widths in different columns', () => {
  it('grows to the widest of each column summed, as Chromium sizes E-Com Plus’s cart on a phone, not to the widest row', () => {
    const html = `<!doctype html><html><body style="margin: 0">
<table align="center" cellpadding="0" cellspacing="0" style="width: 50%; border-collapse: collapse"><tr><td>
<img src="a.png" width="150" height="20">
</td><td>
<img src="b.png" width="10" height="20">
</td></tr><tr><td>
<img src="c.png" width="10" height="20">
</td><td>
<img src="d.png" width="150" height="20">
</td></tr></table>
</body></html>`;
    const { body } = readHtml(html, 'email.html', new Findings());
    const all = (node: SourceElement, name: string): SourceElement[] =>
      node.name === name ? [node] : node.children.flatMap((child) => (child.type === 'element' ? all(child, name) : []));
    const layout = new SourceLayout(body, 375);
    // Each row asks 160 px; the columns 150 each: the table is 300 px, centred on the screen, its cells side by side in it.
    expect(layout.frameOf(all(body, 'table')[0]!)).toEqual({ left: 37.5, right: 337.5 });
    expect(all(body, 'td').map((cell) => layout.of(cell)!.box)).toEqual([
      { left: 37.5, right: 187.5 },
      { left: 187.5, right: 337.5 },
      { left: 37.5, right: 187.5 },
      { left: 187.5, right: 337.5 },
    ]);
  });
});
