/**
 * Colours counted: each text block's text colour and background as LMX draws them (its theme's
 * colours where it sets none) against its source's, in the fidelity line's `colours N of M`; each
 * change listed once for the email, with how many blocks it holds for.
 */
import { describe, expect, it } from 'vitest';
import { compareColours } from '../../../src/convert/contrast.js';
import { convertDocument } from '../../../src/convert/document.js';
import { Findings } from '../../../src/convert/model.js';
import { readHtml } from '../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../src/convert/sources/mjml-source.js';

function colours(read: (findings: Findings) => ReturnType<typeof readHtml>) {
  const findings = new Findings();
  const { style, blocks } = convertDocument(read(findings), 'transactional', findings);
  const measure = compareColours(blocks, style, findings);
  const entries = findings.remediation.filter((item) => /^the colours? of/.test(item.construct)).map((item) => `${item.line} ${item.construct}: ${item.done}`);
  return { measure, entries };
}

const mjml = (body: string) =>
  colours((findings) => readMjml(`<mjml><mj-body>\n${body}\n</mj-body></mjml>`, 'email.mjml', findings, { readInclude: () => ({ file: '', source: '' }) }));
const html = (body: string) =>
  colours((findings) => readHtml(`<!doctype html><html><head><title>Hi</title></head><body>\n${body}\n</body></html>`, 'email.html', findings));

describe('colours in the fidelity line', () => {
  it('counts a text kept in its colour on its background as the source draws it, and lists nothing', () => {
    const { measure, entries } = html('<p style="color:#333333">Your order has shipped.</p>\n<p style="color:#333333">It arrives on Friday.</p>');
    expect(measure).toEqual({ source: 2, kept: 2 });
    expect(entries).toEqual([]);
  });

  it('lists a heading drawn in the theme’s heading colour where the source coloured it', () => {
    const { measure, entries } = mjml(
      '<mj-section><mj-column><mj-text color="#f45e43"><h1>Welcome aboard</h1>\n<p>Your account is ready.</p></mj-text></mj-column></mj-section>',
    );
    expect(measure).toEqual({ source: 2, kept: 1 });
    expect(entries).toEqual(['2 the colours of <H1>: text drawn #111827, where the source draws it #f45e43']);
  });

  it('lists one change once for the blocks it holds for: coloured headings drawn in the theme’s heading colour', () => {
    const { measure, entries } = mjml(
      '<mj-section><mj-column><mj-text color="#f45e43"><h2>One</h2>\n<h2>Two</h2>\n<h2>Three</h2>\n<p>Plain words.</p></mj-text></mj-column></mj-section>',
    );
    expect(measure).toEqual({ source: 4, kept: 1 });
    expect(entries).toEqual(['2 the colours of <H2> and 2 more text blocks: text drawn #111827, where the source draws it #f45e43']);
  });

  it('counts text and links the source gave no colour as kept in the theme’s, by design', () => {
    const { measure, entries } = html(
      '<p>Read <a href="https://example.com/a">the guide</a> or <a href="https://example.com/b">the forum</a>.</p>\n<h1>Welcome</h1>',
    );
    expect(measure).toEqual({ source: 4, kept: 4 });
    expect(entries).toEqual([]);
  });

  it('counts links in the email’s link colour as kept, and one of another colour once, as the mapping lists it', () => {
    const { measure, entries } = html(
      '<p style="color:#333333">Read <a href="https://example.com/a" style="color:#0a7d4f">the guide</a>, <a href="https://example.com/b" style="color:#0a7d4f">the forum</a> or <a href="https://example.com/c" style="color:#cc0000">the blog</a>.</p>',
    );
    expect(measure).toEqual({ source: 4, kept: 3 });
    expect(entries).toEqual([]);
  });
});
