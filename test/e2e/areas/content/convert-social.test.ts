/**
 * `content convert` on MJML's social icons: each keeps the address MJML links it to, a network's
 * share page (mjml-social's SocialElement.js: `share-url` with the href as `[[URL]]`) or, for a
 * `-noshare` name, the href itself.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

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
    const lmx = readFileSync(join(out, 'transactional/social/draft.lmx'), 'utf8').replace(/>\s+</g, '><');
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
});
