/**
 * Positions counted: each block's side (left, centred, right, full width) at 600 px against where
 * the source draws it as the layout model reads it, in the fidelity line's `positions N of M`; each
 * block that stands elsewhere listed.
 */
import { describe, expect, it } from 'vitest';
import { compareColours } from '../../../../src/convert/contrast.js';
import { convertDocument } from '../../../../src/convert/document.js';
import { fidelityLine, measureFidelity } from '../../../../src/convert/fidelity.js';
import { compareLayout, recordSource, sourceOf } from '../../../../src/convert/layout/layout-carry.js';
import type { LmxBlock } from '../../../../src/convert/lmx-out.js';
import { Findings } from '../../../../src/convert/model.js';
import { readHtml } from '../../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../../src/convert/sources/mjml-source.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';

/** A React Email button of this style under a heading, in a section that centres its text. */
const REACT = (style: string) => `import { Body, Button, Container, Heading, Html, Section } from '@react-email/components';
export default function Email() {
  return (
    <Html>
      <Body>
        <Container>
          <Heading style={{ textAlign: 'center' }}>Your trial starts today</Heading>
          <Section style={{ textAlign: 'center' }}>
            <Button href="https://example.com/go" style={{ backgroundColor: '#111111', color: '#ffffff', ${style} }}>Get started</Button>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
`;

function converted(read: (findings: Findings) => ReturnType<typeof readHtml>, misplace?: (blocks: readonly LmxBlock[]) => void) {
  const findings = new Findings();
  const document = read(findings);
  const { lmx, style, blocks } = convertDocument(document, 'transactional', findings);
  misplace?.(blocks);
  const placement = compareLayout(document.body, style, blocks, findings);
  const fidelity = measureFidelity(document, lmx, findings, new Map(), { ...placement, colours: compareColours(blocks, style, findings) });
  const entries = findings.remediation.filter((item) => item.construct.startsWith('the position of')).map((item) => `${item.construct}: ${item.done}`);
  return { fidelity, line: fidelityLine(fidelity), entries, lmx };
}

const fromReact = (source: string, misplace?: (blocks: readonly LmxBlock[]) => void) =>
  converted((findings) => readReact(source, 'email.tsx', findings), misplace);

const fromMjml = (source: string) => converted((findings) => readMjml(source, 'email.mjml', findings, { readInclude: () => ({ file: '', source: '' }) }));

/** The first button among these blocks and those they hold. */
function buttonIn(blocks: readonly LmxBlock[]): LmxBlock | undefined {
  for (const block of blocks) {
    const found = block.tag === 'Button' ? block : buttonIn(block.blocks ?? []);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('positions in the fidelity line', () => {
  it('counts a fixed-width block button at the left edge, where React Email draws it, as standing there', () => {
    const { fidelity, line, entries } = fromReact(REACT("display: 'block', width: '210px'"));
    expect(fidelity.positions).toEqual({ source: 2, kept: 2 });
    expect(line).toMatch(/, positions 2 of 2$/);
    expect(entries).toEqual([]);
  });

  it('counts a full-width button as full width only where its padding reaches across the body, and lists one it does not', () => {
    // "Get started" widened by LMX's most inner padding, 100 px a side, is about 300 px of the body's 600.
    const { fidelity, entries } = fromReact(REACT("display: 'block'"));
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(entries).toEqual(['the position of <Button>: drawn centred, where the source draws it across the full width']);
    // A label long enough for the padding to reach across the body stands full width.
    const long = fromReact(
      REACT("display: 'block'").replace('Get started', 'Get started with your free trial of the whole plan, every feature included, today'),
    );
    expect(long.fidelity.positions).toEqual({ source: 2, kept: 2 });
    expect(long.entries).toEqual([]);
  });

  it('lists and counts a button drawn elsewhere than the source draws it, no other entry saying so', () => {
    // As a mapper that centres every block button would: its alignment recorded as the one it gave it, so the layout entry sees nothing.
    const { fidelity, line, entries } = fromReact(REACT("display: 'block', width: '210px'"), (blocks) => {
      const button = buttonIn(blocks)!;
      const from = sourceOf(button)!;
      button.attrs.align = 'center';
      recordSource(button, from.element, 'media', 'center', { own: from.own, position: from.position });
    });
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(line).toMatch(/, positions 1 of 2$/);
    expect(entries).toEqual(['the position of <Button>: drawn centred, where the source draws it at the left']);
  });

  it('reads a text’s position as the layout model does: its alignment', () => {
    const { fidelity } = converted((findings) =>
      readHtml(
        '<!doctype html><html><body><table width="600"><tr><td align="right"><p>Paid in full</p></td></tr><tr><td><p style="text-align:center">Thank you</p></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(fidelity.positions).toEqual({ source: 2, kept: 2 });
  });

  it('aligns a table of content’s rows as their first cells do, in a centred card (Mailgen’s receipts)', () => {
    const { fidelity, lmx } = converted((findings) =>
      readHtml(
        '<!doctype html><html><body><table width="100%"><tr><td style="text-align:center"><p>Your receipt</p><table width="100%">' +
          '<tr><th style="text-align:left">Item</th><th style="text-align:left">Description</th><th style="text-align:left">Price</th></tr>' +
          '<tr><td style="text-align:left">Tea</td><td style="text-align:left">Green, loose</td><td style="text-align:left">$2.00</td></tr>' +
          '<tr><td style="text-align:left">Cake</td><td style="text-align:left">Lemon</td><td style="text-align:left">$3.50</td></tr>' +
          '</table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Your receipt/);
    expect(lmx).toMatch(/<Paragraph(?![^>]*align)[^>]*>Tea/);
    expect(fidelity.positions.kept).toBe(fidelity.positions.source);
  });

  it('starts a table’s text at its side where only an align around it centred it, as browsers draw it (Postmark’s templates)', () => {
    const { fidelity, lmx } = converted((findings) =>
      readHtml(
        '<!doctype html><html><body><table width="100%"><tr><td align="center"><table align="center" width="570"><tr><td><p>Welcome aboard.</p></td></tr></table>' +
          '<table width="570" style="text-align:center"><tr><td><p>Thanks</p></td></tr></table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    // The first table's text at its left; the second's centred by its own CSS, which a table does pass on.
    expect(lmx).toMatch(/<Paragraph[^>]*>Welcome aboard\.<\/Paragraph>/);
    expect(lmx).not.toMatch(/<Paragraph[^>]*align[^>]*>Welcome/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Thanks<\/Paragraph>/);
    expect(fidelity.positions).toEqual({ source: 2, kept: 2 });
  });
  it('lists a button the source’s media queries make full width on a phone, which LMX draws at one width (Mailgen’s)', () => {
    const { fidelity, entries } = converted((findings) =>
      readHtml(
        '<!doctype html><html><head><style>@media only screen and (max-width: 500px) { .button { width: 100% !important; } }</style></head>' +
          '<body><table width="100%"><tr><td><p>Reset your password below.</p><table width="100%"><tr><td align="center">' +
          '<a href="https://example.com/reset" class="button" style="display:inline-block;width:200px;color:#ffffff;background-color:#dc4d2f">Reset</a>' +
          '</td></tr></table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(entries).toEqual(["the position of <Button>: drawn centred at 375 px wide, where the source's stylesheet draws it across the full width"]);
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
  });

  it('takes a button cell’s link’s phone style as the button’s (Lee Munroe’s `.btn a { width: 100% }`)', () => {
    const { entries } = converted((findings) =>
      readHtml(
        '<!doctype html><html><head><style>@media only screen and (max-width: 620px) { .btn a { width: 100% !important; } }</style></head>' +
          '<body><table width="100%"><tr><td><p>Hi there.</p><table class="btn" width="100%"><tr><td align="left"><table><tr>' +
          '<td style="background-color:#3498db"><a href="https://example.com/go" style="display:inline-block;color:#ffffff;padding:12px 25px">Go</a></td>' +
          '</tr></table></td></tr></table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(entries).toEqual([
      "the position of <Button>: drawn at the left at 600 px wide, where the source's stylesheet draws it across the full width; drawn at the left at 375 px wide, where the source's stylesheet draws it across the full width",
    ]);
  });

  it('counts and lists each picture of a carousel, which LMX draws one under another where the source shows one at a time', () => {
    const pictures = ['1', '2', '3'].map((name) => `\n<mj-carousel-image src="https://acme.example/${name}.jpg" />`).join('');
    const { fidelity, entries } = fromMjml(
      `<mjml><mj-body><mj-section><mj-column><mj-image src="https://acme.example/logo.png" width="120px" />\n<mj-carousel>${pictures}</mj-carousel></mj-column></mj-section></mj-body></mjml>`,
    );
    expect(fidelity.positions).toEqual({ source: 4, kept: 1 });
    expect(entries).toEqual(
      Array(3).fill(
        'the position of <Image>: drawn in a place of its own, one under another with the others, where the source shows one at a time in one place, with a row of thumbnails to choose it',
      ),
    );
  });

  it('lists a bold button whose label breaks across its box on a phone, where LMX draws it on one line at its side in the theme’s weight', () => {
    const button = (label: string) =>
      fromMjml(
        `<mjml><mj-body><mj-section><mj-column><mj-button href="https://acme.example/go" align="left" font-weight="700" font-size="15px" inner-padding="14px">${label}</mj-button></mj-column></mj-section></mj-body></mjml>`,
      );
    const long = button('Verify email and create your passwords →');
    expect(long.fidelity.positions).toEqual({ source: 1, kept: 0 });
    expect(long.entries).toEqual([
      "the position of <Button>: drawn at the left at 375 px wide on one line, where the source's bold label breaks across its box's full width",
    ]);
    // A label that fits a phone's box in bold too stands where the source's does.
    const short = button('Verify your email →');
    expect(short.fidelity.positions).toEqual({ source: 1, kept: 1 });
    expect(short.entries).toEqual([]);
  });
});
