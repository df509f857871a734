/** What a source shows and its LMX lacks is listed at its source place, unless a rule named it already. */
import { describe, expect, it } from 'vitest';
import { fidelityLine, measureFidelity } from '../../../src/convert/fidelity.js';
import { element, Findings, text } from '../../../src/convert/model.js';

const at = (line: number, column = 1) => ({ file: 'email.html', line, column });

function source() {
  return {
    body: element('body', at(1), [
      element('p', at(2), [text('Welcome aboard, friend.', at(2, 4))]),
      element('p', at(3), [element('a', at(3, 4), [text('Read the guide', at(3, 20))], { href: 'https://example.com/guide' })]),
      element('img', at(4), [], { src: 'https://example.com/logo.png' }),
      element('div', at(5), [text('A footer a rule dropped', at(5, 6))]),
      element('p', at(6), [text('Shh', at(6, 30))], {}, { display: 'none' }),
    ]),
  };
}

describe('measureFidelity', () => {
  it('counts what the LMX keeps, and lists as not carried, at its place, what no rule named', () => {
    const findings = new Findings();
    findings.add(at(5), 'a footer', 'dropped', 'dropped', 'nothing');
    const fidelity = measureFidelity(source(), '<Paragraph>Welcome aboard.</Paragraph>\n<Paragraph>Read the guide</Paragraph>\n', findings);
    expect(fidelity).toEqual({
      words: { source: 11, kept: 5 },
      links: { source: 1, kept: 0 },
      images: { source: 1, kept: 0 },
      layout: { source: 0, kept: 0 },
      positions: { source: 0, kept: 0 },
      colours: { source: 0, kept: 0 },
    });
    expect(fidelityLine(fidelity)).toBe(
      '5 of 11 words kept (45.5%), links 0 of 1, images 0 of 1, layout: 0 of 0 blocks as the source, colours 0 of 0, positions 0 of 0',
    );
    expect(findings.remediation.slice(1).map((item) => `${item.line}:${item.column} ${item.construct} (${item.outcome})`)).toEqual([
      '2:4 the text "friend" (not carried)',
      '3:4 the link to https://example.com/guide (not carried)',
      '4:1 the image https://example.com/logo.png (not carried)',
      '6:1 text hidden by display:none: "Shh" (listed)',
    ]);
  });

  it('lists nothing when the LMX holds it all, an image by the original address --upload replaced', () => {
    const findings = new Findings();
    findings.add(at(5), 'a footer', 'dropped', 'dropped', 'nothing');
    findings.add(at(6), 'hidden text', 'dropped', 'dropped', 'nothing');
    const lmx = [
      '<Paragraph>Welcome aboard, friend.</Paragraph>',
      '<Paragraph><Link href="https://example.com/guide">Read the guide</Link></Paragraph>',
      '<Image src="https://cdn.loops.example/abc.png" />',
      '',
    ].join('\n');
    const fidelity = measureFidelity(source(), lmx, findings, new Map([['https://example.com/logo.png', 'https://cdn.loops.example/abc.png']]));
    expect(fidelity).toEqual({
      words: { source: 11, kept: 6 },
      links: { source: 1, kept: 1 },
      images: { source: 1, kept: 1 },
      layout: { source: 0, kept: 0 },
      positions: { source: 0, kept: 0 },
      colours: { source: 0, kept: 0 },
    });
    expect(findings.remediation).toHaveLength(2);
  });
});
