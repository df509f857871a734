/**
 * The smaller things convert keeps: a visible preheader in the body, rgba colours as the hex they
 * show as, text-transform, full-width buttons, each listed construct at its own place, images left
 * at another provider's address listed, a link around an image and its caption kept on both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDirectory } from '../../support/convert-corpus.js';
import { fromHtml, fromReact } from './layout-support.js';

const HTML = (body: string, head = '') => `<!doctype html><html><head><title>Hello</title>${head}</head><body>${body}</body></html>`;

describe('places of what is listed', () => {
  it('places a Handlebars block at its own line and column, not at its text’s', () => {
    const { findings } = fromHtml(HTML('<p>\n    Your plan:\n    {{#if trial}}a trial{{else}}paid{{/if}}\n</p>'));
    const places = findings.remediation.filter((item) => item.construct.startsWith('{{')).map((item) => `${item.line}:${item.column} ${item.construct}`);
    expect(places).toEqual(['3:5 {{#if trial}}']);
  });
});

describe('the preheader', () => {
  it('takes only hidden text as the preview text; a visible preheader row stays in the body', () => {
    const visible = fromHtml(
      HTML(
        '<table><tr><td class="preheader" style="font-size:12px">Your receipt from Acme, view it in a browser</td></tr></table><p>Thanks for your order.</p>',
      ),
    );
    expect(visible.text).toContain('Your receipt from Acme, view it in a browser');
    expect(visible.previewText).toBeUndefined();
    const hidden = fromHtml(
      HTML('<div class="preheader" style="max-height:0;overflow:hidden;opacity:0;color:transparent">Your receipt is inside</div><p>Thanks for your order.</p>'),
    );
    expect(hidden.text).not.toContain('Your receipt is inside');
    expect(hidden.previewText).toBe('Your receipt is inside');
  });
});

describe('what Outlook alone hides or shows', () => {
  // Outlook's VML button inside `<!--[if mso]>`, and the button every other client draws, styled `mso-hide: all` so that Outlook skips it.
  const BUTTON = (hide: string) =>
    HTML(`<p>Please confirm your address.</p>
<!--[if mso]><v:roundrect href="https://example.com/confirm" style="height:45px;width:200px" fillcolor="#3869d4"><center>Confirm</center></v:roundrect><![endif]-->
<![if !mso]><table align="center"><tr><td align="center"><a href="https://example.com/confirm" class="button" style="background-color:#3869d4;color:#ffffff;${hide}">Confirm</a></td></tr></table><![endif]>`);

  it('carries an element styled mso-hide: all as any visible one: only Outlook hides it', () => {
    for (const hide of ['mso-hide: all;', 'mso-hide:all !important;', 'MSO-HIDE: ALL']) {
      const { lmx, text, findings } = fromHtml(BUTTON(hide));
      expect(lmx.match(/<Button href="https:\/\/example.com\/confirm"[^>]*>Confirm<\/Button>/g), hide).toHaveLength(1);
      expect(text).toContain('Confirm');
      expect(findings.remediation.map((item) => item.construct)).not.toContain('hidden text');
    }
  });

  it('keeps what Outlook alone shows, in its conditional comments, out; and display:none hidden as before', () => {
    const { lmx } = fromHtml(BUTTON(''));
    expect(lmx).not.toContain('roundrect');
    const hidden = fromHtml(HTML('<p>Shown to all</p><div><p style="display:none;mso-hide:all">for nobody at all</p></div>'));
    expect(hidden.text).not.toContain('for nobody at all');
    expect(hidden.findings.remediation.find((item) => item.construct === 'hidden text')?.done).toBe('"for nobody at all" left out, as the source hides it');
  });
});

describe('colours, case and widths LMX has no word for', () => {
  it('writes an rgba colour as the hex it shows as on its background, and lists its opacity', () => {
    const { lmx, findings } = fromHtml(
      HTML(
        '<div style="background-color:#ffffff"><p style="color:rgba(0, 0, 0, 0.5)">Half-black words on white</p><p>Plain words here and more of them</p></div>',
      ),
    );
    expect(lmx).toContain('<Text textColor="#808080">Half-black words on white</Text>');
    expect(findings.remediation.find((item) => item.construct === 'the colour rgba(0, 0, 0, 0.5)')?.done).toBe(
      'written as #808080, as it shows at 50% opacity on #ffffff',
    );
  });

  it('writes text in the case text-transform shows it, a variable’s name untouched', () => {
    const { lmx } = fromHtml(HTML('<p style="text-transform:uppercase">Hello {{ first_name }}, welcome</p>'));
    expect(lmx).toContain('<Paragraph>HELLO {data.first_name}, WELCOME</Paragraph>');
  });

  it('widens a full-width button with inner padding, listed', () => {
    const { lmx, findings } = fromHtml(
      HTML('<a href="https://example.com/go" style="display:block;width:100%;background-color:#111111;color:#ffffff;font-size:16px">Go</a>'),
    );
    expect(lmx).toMatch(/<Button href="https:\/\/example.com\/go" bgColor="#111111" textColor="#ffffff" fontSize="16" innerXPadding="100" align="center"/);
    expect(findings.remediation.map((item) => item.construct)).toContain('a full-width button (100%)');
  });

  it('keeps a link button’s own padding and tall line as its inner padding, not as space around it (Mailgen’s Neopolitan)', () => {
    const link = (style: string) =>
      fromHtml(
        HTML(
          `<p>Reset it below.</p><a href="https://example.com/reset" style="background-color:#dc4d2f;color:#ffffff;font-size:16px;${style}">Reset your password</a>`,
        ),
      ).lmx;
    // Neopolitan's face: 25 px each side of its words, and as tall as its 50 px line, where LMX's is 1.25 times 16 px: 15 more above and below.
    expect(link('display:inline-block;line-height:50px;padding:0 25px')).toMatch(/<Button [^>]*innerYPadding="15" innerXPadding="25"[^>]*>Reset your password/);
    const padded = link('padding:12px 20px;margin:8px 0');
    expect(padded).toMatch(/<Button [^>]*innerYPadding="12" innerXPadding="20"[^>]*>/);
    // Its margin below is space after it (above, the paragraph's space stands).
    expect(padded).toMatch(/<Button [^>]*paddingBottom="8"[^>]*>/);
    // A link of no padding nor line keeps the theme's.
    expect(link('display:inline-block')).not.toMatch(/<Button [^>]*inner/);
    // Kept on a phone too, where LMX's box beside the column's padding is narrower than the button: the source's face does not narrow either.
    const neopolitan = fromHtml(readFileSync(join(corpusDirectory(), 'html-mailgen/neopolitan-reset.html'), 'utf8')).lmx;
    expect(neopolitan).toMatch(/<Button [^>]*innerYPadding="15" innerXPadding="25"[^>]*paddingLeft="105"[^>]*>Reset your password/);
  });

  /** A React Email button of this style, in a section that centres its text. */
  const FIXED = (style: string) => `import { Body, Button, Container, Html, Section } from '@react-email/components';
export default function Email() {
  return (
    <Html>
      <Body>
        <Container>
          <Section style={{ textAlign: 'center' }}>
            <Button href="https://example.com/go" style={{ backgroundColor: '#111111', color: '#ffffff', ${style} }}>Get started</Button>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
`;

  it('keeps a fixed-width block button at the side its margins put it, and never calls it full-width', () => {
    const left = fromReact(FIXED("display: 'block', width: '210px'"));
    expect(left.lmx).toMatch(/<Button href="https:\/\/example.com\/go"[^>]*innerXPadding="\d+"[^>]*>/);
    expect(left.lmx).not.toMatch(/<Button [^>]*align=/);
    expect(left.findings.remediation.map((item) => `${item.construct}: ${item.done}`)).toContain(
      'a fixed-width button (210px): widened with an inner padding of 52 on each side, at the left as the source draws it',
    );
    expect(left.findings.remediation.filter((item) => item.construct.startsWith('a full-width'))).toEqual([]);
    const centred = fromReact(FIXED("display: 'block', width: '210px', margin: '0 auto'"));
    expect(centred.lmx).toMatch(/<Button [^>]*align="center"/);
    const right = fromReact(FIXED("display: 'block', width: '210px', marginLeft: 'auto'"));
    expect(right.lmx).toMatch(/<Button [^>]*align="right"/);
  });
});

describe('images', () => {
  it('lists an image left at the old provider’s address when it is not uploaded', () => {
    const { findings } = fromHtml(
      HTML('<img src="https://mcusercontent.com/abc/images/logo.png" alt="Logo"><img src="https://cdn.example.com/hero.png" alt="Hero">'),
    );
    const listed = findings.remediation.filter((item) => item.construct.startsWith('<img'));
    expect(listed.map((item) => `${item.construct} ${item.todo}`)).toEqual([
      '<img src="https://mcusercontent.com/abc/images/logo.png"> convert again with --upload to copy it to the account’s storage',
    ]);
  });
});

describe('opacity', () => {
  it('lists a span’s colour and a box’s background written with an opacity, each once', () => {
    const { lmx, findings } = fromHtml(
      HTML(
        '<div style="background:rgba(255, 0, 0, 0.25)"><p>Words on pink, <span style="color:rgba(0,0,255,0.5)">blue-ish</span> and <span style="color:rgba(0,0,255,0.5)">again</span></p></div>',
      ),
    );
    // The box holds all the text: it is the body.
    expect(lmx).toMatch(/<Style bodyColor="#ffbfbf"[^>]*\/>/);
    expect(lmx).toContain('<Text textColor="#8060df">blue-ish</Text>');
    const listed = findings.remediation.filter((item) => item.construct.startsWith('the colour')).map((item) => `${item.construct}: ${item.done}`);
    expect(listed).toEqual([
      'the colour rgba(255, 0, 0, 0.25): written as #ffbfbf, as it shows at 25% opacity on #ffffff',
      'the colour rgba(0,0,255,0.5): written as #8060df, as it shows at 50% opacity on #ffbfbf',
    ]);
  });
});

describe('a link around an image and its caption', () => {
  it('links the image and the text, each, where a client follows the one link wherever it is clicked', () => {
    const { lmx } = fromReact(
      [
        "import { Body, Html, Img, Link, Section } from '@react-email/components';",
        'export default function Card() {',
        '  return (<Html><Body><Section>',
        '    <Link href="https://wallet.example/apply"><Img src="https://cdn.example/wallet.png" alt="Wallet" width="28" height="28" /><span>Apply in minutes</span></Link>',
        '  </Section></Body></Html>);',
        '}',
      ].join('\n'),
    );
    expect(lmx).toContain('<Image src="https://cdn.example/wallet.png" alt="Wallet" href="https://wallet.example/apply" width="28" align="left" />');
    expect(lmx).toContain('<Paragraph><Link href="https://wallet.example/apply">Apply in minutes</Link></Paragraph>');
  });
});

describe('words a margin keeps apart', () => {
  it('writes a space between links in a row that only their margin separates, as the source draws a gap there', () => {
    const { lmx } = fromReact(`import { Body, Html, Link, Section } from '@react-email/components';
export default function Email() {
  return (
    <Html>
      <Body>
        <Section>
          <Link href="https://lumen.example/guide" style={{ marginRight: 8 }}>Read the guide</Link>
          <Link href="https://lumen.example/community">Ask the community</Link>
        </Section>
      </Body>
    </Html>
  );
}
`);
    expect(lmx).toContain(
      '<Link href="https://lumen.example/guide">Read the guide</Link> <Link href="https://lumen.example/community">Ask the community</Link>',
    );
  });

  it('writes a space after a padded word before the text it stands against, and none where the source already has one', () => {
    const { lmx } = fromHtml(HTML('<p><strong style="padding-right:6px">Total</strong>$93.50 <span style="margin-left:4px">paid</span></p>'));
    expect(lmx).toContain('<Strong>Total</Strong> $93.50 paid');
  });
});
