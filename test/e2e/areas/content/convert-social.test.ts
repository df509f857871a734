/**
 * `content convert` on MJML's social icons: each keeps the address MJML links it to, a network's
 * share page (mjml-social's SocialElement.js: `share-url` with the href as `[[URL]]`) or, for a
 * `-noshare` name, the href itself; and the label an element holds, which MJML shows beside its
 * icon linked to the same address, under the row of icons.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { run, tempDir } from '../../../support/main.js';

const CORPUS = corpusDirectory();

/** The LMX without the padding MJML's spacing became (held by the tests of layout), for the icons and labels alone. */
const withoutSpacing = (lmx: string) => lmx.replace(/ padding(?:Top|Bottom|Left|Right)="\d+"/g, '').replace(/ bodyXPadding="\d+"/g, '');

describe('content convert: MJML social icons', () => {
  it('links each icon where MJML does: the share page of facebook and linkedin, the href of a -noshare one and of instagram', async () => {
    const root = tempDir('loopsctl-convert-src-');
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(root, 'social.mjml'),
      `<mjml><mj-body><mj-section><mj-column>
        <mj-text>Follow us</mj-text>
        <mj-social align="center">
          <mj-social-element name="facebook" href="https://acme.example/launch">Share</mj-social-element>
          <mj-social-element name="linkedin" href="https://acme.example/launch">Share</mj-social-element>
          <mj-social-element name="twitter-noshare" href="https://twitter.com/acme">Follow</mj-social-element>
          <mj-social-element name="instagram" href="https://instagram.com/acme">Follow</mj-social-element>
        </mj-social>
      </mj-column></mj-section></mj-body></mjml>`,
    );
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', join(root, 'social.mjml'), '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    const lmx = withoutSpacing(readFileSync(join(out, 'transactional/social/draft.lmx'), 'utf8')).replace(/>\s+</g, '><');
    expect(lmx).toContain(
      [
        '<Icons align="center">',
        '<Icon name="facebook" href="https://www.facebook.com/sharer/sharer.php?u=https://acme.example/launch" />',
        '<Icon name="linkedin" href="https://www.linkedin.com/shareArticle?mini=true&amp;url=https://acme.example/launch&amp;title=&amp;summary=&amp;source=" />',
        '<Icon name="twitter" href="https://twitter.com/acme" />',
        '<Icon name="instagram" href="https://instagram.com/acme" />',
        '</Icons>',
      ].join(''),
    );
  });

  // MJML's README of mj-social: "mj-social-element is an "ending tag", which means that it can contain
  // HTML code"; SocialElement.js renders that content beside the icon, in an <a> of the icon's href.
  it('keeps each label of MJML’s own example, linked where its icon links, under the icons', async () => {
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', join(CORPUS, 'mjml/social-readme.mjml'), '--out', out, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const lmx = withoutSpacing(readFileSync(join(out, 'transactional/social-readme/draft.lmx'), 'utf8')).replace(/>\s+</g, '><');
    const facebook = 'https://www.facebook.com/sharer/sharer.php?u=https://mjml.io/';
    const tweet = 'https://twitter.com/intent/tweet?url=https://mjml.io/';
    expect(lmx).toContain(
      [
        '<Icons align="center">',
        `<Icon name="facebook" href="${facebook}" />`,
        '<Icon name="google" href="https://plus.google.com/share?url=https://mjml.io/" />',
        `<Icon name="twitter" href="${tweet}" />`,
        `<Icon name="x-twitter" href="${tweet}" />`,
        '</Icons>',
        `<Paragraph align="center"><Link href="${facebook}">Facebook</Link> · <Link href="https://plus.google.com/share?url=https://mjml.io/">Google</Link> · `,
        `<Link href="${tweet}">Twitter</Link> · <Link href="${tweet}">X</Link></Paragraph>`,
      ].join(''),
    );
    const [record] = JSON.parse(result.stdout).records;
    expect(record.fidelity.words).toEqual({ source: 4, kept: 4 });
    expect(
      record.remediation.map((item: { line: number; construct: string; outcome: string }) => `${item.line} ${item.construct} (${item.outcome})`),
    ).toContain('5 the labels of <mj-social-element> (approximated)');
  });

  it('writes a vertical row’s labels one a line, in their colour, and a label with no href as text', async () => {
    const root = tempDir('loopsctl-convert-src-');
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(root, 'vertical.mjml'),
      `<mjml><mj-body><mj-section><mj-column>
        <mj-text color="#000000">Find us on the networks we post to every week</mj-text>
        <mj-social mode="vertical" align="left" color="#aa0000">
          <mj-social-element name="github" href="https://github.com/acme">Our <b>code</b></mj-social-element>
          <mj-social-element name="facebook" color="#0000aa">Share</mj-social-element>
        </mj-social>
      </mj-column></mj-section></mj-body></mjml>`,
    );
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', join(root, 'vertical.mjml'), '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    const lmx = withoutSpacing(readFileSync(join(out, 'transactional/vertical/draft.lmx'), 'utf8'));
    // At the labels' 13 px, mj-social's default, beside text of the theme's size.
    expect(lmx).toContain('<Paragraph fontSize="13"><Link href="https://github.com/acme">Our <Strong>code</Strong></Link></Paragraph>');
    expect(lmx).toContain('textLinkColor="#aa0000"');
    expect(lmx).toMatch(/<Paragraph fontSize="13"><Text textColor="#0000aa">Share<\/Text><\/Paragraph>/);
    expect(lmx).toContain('<Icon name="facebook" />');
  });
});
