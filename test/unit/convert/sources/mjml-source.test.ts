/**
 * MJML read as MJML's own reader (mjml-parser-xml, on htmlparser2) reads it: Prettier's layout,
 * CRLF and comments anywhere; refused only where MJML's validation refuses, at the place.
 */
import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../../src/convert/document.js';
import { measureFidelity } from '../../../../src/convert/fidelity.js';
import { Findings, type SourceNode, textContent } from '../../../../src/convert/model.js';
import { readMjml } from '../../../../src/convert/sources/mjml-source.js';
import { parseMjmlTags } from '../../../../src/convert/sources/mjml-tags.js';

const noIncludes = { readInclude: () => ({ file: '', source: '' }) };
const read = (source: string) => {
  const findings = new Findings();
  return { document: readMjml(source, 'email.mjml', findings, noIncludes), findings };
};
/** The texts of a tree, each apart. */
const texts = (node: SourceNode): string[] => (node.type === 'element' ? node.children.flatMap(texts) : [textContent(node)]);
const textOf = (nodes: SourceNode[]) => nodes.flatMap(texts).join(' ').replace(/\s+/g, ' ').trim();

describe('the MJML reader', () => {
  it('reads a closing tag with a line break or a space before its ">", as Prettier lays MJML out', () => {
    const source = [
      '<mjml>',
      '  <mj-body>',
      '    <mj-section>',
      '      <mj-column>',
      '        <mj-text color="#111"',
      '          >Hello <b>there</b></mj-text',
      '        >',
      '        <mj-image src="https://example.com/a.png" />',
      '        <mj-button href="https://example.com/go">Go</mj-button >',
      '      </mj-column',
      '      >',
      '    </mj-section>',
      '  </mj-body>',
      '</mjml>',
    ].join('\n');
    const { document } = read(source);
    expect(textOf(document.body.children)).toBe('Hello there Go');
    const [text] = parseMjmlTags(source, 'email.mjml')[0]!.children[0]!.children[0]!.children[0]!.children;
    expect(text).toMatchObject({ name: 'mj-text', attrs: { color: '#111' }, content: { html: 'Hello <b>there</b>' }, at: { line: 5, column: 9 } });
  });

  it('reads CRLF line ends and comments anywhere, and keeps a comment in <mj-raw> out of the text', () => {
    const source =
      '<mjml>\r\n<!-- head -->\r\n<mj-body>\r\n<mj-raw><!-- [if mso]><p>Outlook only</p><![endif] --><p>Raw</p></mj-raw>\r\n<mj-section><!-- a --><mj-column><mj-text>One<!-- two --></mj-text></mj-column></mj-section>\r\n</mj-body>\r\n</mjml>\r\n';
    const { document } = read(source);
    expect(textOf(document.body.children)).toBe('Raw One');
    const section = parseMjmlTags(source, 'email.mjml')[0]!.children[0]!.children[1]!;
    expect(section.at).toEqual({ file: 'email.mjml', line: 5, column: 1 });
  });

  it('keeps the HTML of an ending tag whole, an <mj-text> inside an <mj-raw> included', () => {
    const [root] = parseMjmlTags('<mjml><mj-body><mj-raw><div>a <mj-text>b</mj-text> c</div></mj-raw></mj-body></mjml>', 'email.mjml');
    expect(root!.children[0]!.children[0]!.content!.html).toBe('<div>a <mj-text>b</mj-text> c</div>');
  });

  it('refuses an element MJML does not have, naming the place and MJML’s rule', () => {
    expect(() => read('<mjml><mj-body>\n  <mj-sectoin></mj-sectoin></mj-body></mjml>')).toThrow(
      expect.objectContaining({ message: 'email.mjml:2:3: <mj-sectoin> is not an MJML element', hint: expect.stringContaining('validTag') }),
    );
  });

  it('refuses an element where MJML’s validation does not take it, citing its rule', () => {
    expect(() => read('<mjml><mj-body><mj-column><mj-text>x</mj-text></mj-column></mj-body></mjml>')).toThrow(
      expect.objectContaining({
        message: 'email.mjml:1:16: <mj-column> cannot stand in <mj-body>',
        hint: expect.stringContaining('validChildren: "mj-column cannot be used inside mj-body, only inside: mj-section, mj-group"'),
      }),
    );
  });

  it('refuses a tag never closed, at its opening', () => {
    expect(() => read('<mjml><mj-body><mj-section>\n<mj-column></mj-section></mj-body></mjml>')).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/^email\.mjml:2:1: <mj-column> is never closed \(the closing tag at 2:12 closes its parent\)/),
      }),
    );
    expect(() => read('<mjml><mj-body><mj-section><mj-column><mj-text>x')).toThrow(
      expect.objectContaining({ message: 'email.mjml:1:39: <mj-text> is never closed (the file ends)' }),
    );
  });

  it('lists a condition between MJML elements at its place, never flattened in silence', () => {
    const { findings } = read(
      '<mjml><mj-body><mj-section><mj-column>\n{{#if trial}}\n<mj-text>Trial</mj-text>\n{{else}}\n<mj-text>Paid</mj-text>\n{{/if}}\n{% for item in items %}<mj-text>x</mj-text>{% endfor %}</mj-column></mj-section></mj-body></mjml>',
    );
    expect(findings.remediation).toEqual([
      expect.objectContaining({ line: 2, column: 1, construct: '{{#if trial}} between MJML elements', outcome: 'flattened' }),
      expect.objectContaining({ line: 7, column: 1, construct: '{% for item in items %} between MJML elements', outcome: 'flattened' }),
    ]);
  });

  it('lists the text of <mj-raw position="file-start">, which MJML writes before the doctype, at its place, and counts it lost', () => {
    // mjml-raw's README: "You can also use mj-raw to add text at the beginning of the generated html, before the <!doctype html> line."
    const { document, findings } = read(
      '<mjml>\n  <mj-raw position="file-start">This will be added at the beginning of the file</mj-raw>\n  <mj-body>\n<mj-section><mj-column><mj-text>Hello</mj-text></mj-column></mj-section>\n  </mj-body>\n</mjml>',
    );
    const { lmx } = convertDocument(document, 'transactional', findings);
    expect(lmx).not.toContain('beginning');
    const fidelity = measureFidelity(document, lmx, findings);
    // A browser shows text before the doctype at the top of the page: its words are the source's, none of them kept.
    expect(fidelity.words).toEqual({ source: 11, kept: 1 });
    expect(findings.remediation.map((item) => `${item.line}:${item.column} ${item.construct} (${item.outcome}): ${item.done}`)).toEqual([
      '2:3 text before the email’s HTML (<mj-raw position="file-start">) (dropped): dropped with its text "This will be added at the beginning of the file"',
    ]);
  });

  it('lists an <mj-raw> beside <mj-body> that MJML writes nowhere, and one in <mj-head>, each at its place', () => {
    const { document, findings } = read(
      '<mjml>\n<mj-raw>Kept nowhere</mj-raw>\n<mj-head>\n<mj-raw><meta name="x-apple-disable-message-reformatting"></mj-raw>\n</mj-head>\n<mj-body><mj-raw><!-- a comment --></mj-raw></mj-body>\n</mjml>',
    );
    const { lmx } = convertDocument(document, 'transactional', findings);
    expect(measureFidelity(document, lmx, findings).words).toEqual({ source: 0, kept: 0 });
    expect(
      findings.remediation.filter((item) => item.outcome === 'dropped').map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual([
      '4:1 raw HTML in <mj-head> (<mj-raw>): dropped',
      '2:1 <mj-raw> beside <mj-body>: dropped with its text "Kept nowhere", as MJML writes it nowhere',
    ]);
  });

  it('writes a navbar link’s address after the navbar’s base-url, as MJML writes it', async () => {
    const source =
      '<mjml><mj-body><mj-section><mj-column><mj-navbar base-url="https://mjml.io"><mj-navbar-link href="/templates">Templates</mj-navbar-link><mj-navbar-link href="/try-it-live">Try it live</mj-navbar-link></mj-navbar></mj-column></mj-section></mj-body></mjml>';
    // @ts-expect-error: mjml ships no types; the test only calls it.
    const { html } = (await import('mjml')).default(source) as { html: string };
    const drawn = [...html.matchAll(/href="(https:\/\/mjml\.io[^"]*)"/g)].map((match) => match[1]);
    expect(drawn).toEqual(['https://mjml.io/templates', 'https://mjml.io/try-it-live']);
    const { document, findings } = read(source);
    const { lmx } = convertDocument(document, 'transactional', findings);
    expect([...lmx.matchAll(/<Link href="([^"]*)"/g)].map((match) => match[1])).toEqual(drawn);
  });
});
