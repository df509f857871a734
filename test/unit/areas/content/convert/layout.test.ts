/**
 * Layout as the author meant it, held against the rendered email (`content render`'s renderer):
 * every child of React Email's containers carried, HTML's side-by-side layouts as columns, buttons
 * and rows of icons recognised, centring kept.
 */
import { describe, expect, it } from 'vitest';
import { fromHtml, fromReact } from './layout-support.js';

const REACT = (body: string) => `import { Body, Button, Column, Container, Heading, Hr, Html, Img, Link, Row, Section, Text } from '@react-email/components';

export default function Email() {
  return (
    <Html>
      <Body>
        ${body}
      </Body>
    </Html>
  );
}
`;

describe('React Email: every child of a container carried', () => {
  it('keeps a Row’s children that are not Columns, as one column', () => {
    const { text, lmx } = fromReact(
      REACT(`<Container>
          <Section>
            <Row>
              <Text>Thanks for your review of the Oak Chair.</Text>
              <Text>Every review helps other shoppers decide.</Text>
            </Row>
          </Section>
        </Container>`),
    );
    expect(text).toContain('Thanks for your review of the Oak Chair.');
    expect(text).toContain('Every review helps other shoppers decide.');
    expect(lmx).not.toContain('<Columns');
  });

  it('keeps loose content beside Columns as a column of its own', () => {
    const { text, lmx } = fromReact(
      REACT(`<Section>
            <Row>
              <Img src="https://example.com/logo.png" width="48" alt="Acme" />
              <Column><Text>Welcome to Acme, where the opening words are.</Text></Column>
            </Row>
          </Section>`),
    );
    expect(lmx).toMatch(/<Columns[^>]*>\s*<ColumnItem>\s*<Image src="https:\/\/example.com\/logo.png"/);
    expect(text).toContain('Welcome to Acme, where the opening words are.');
  });

  it('keeps a header image and the paragraphs of a Container before its Sections', () => {
    const { html, text } = fromReact(
      REACT(`<Container>
          <Img src="https://example.com/header.png" width="600" alt="Header" />
          <Text>First paragraph of the welcome.</Text>
          <Section><Text>Inside the section.</Text></Section>
          <Row><Column><Text>Left</Text></Column><Column><Text>Right</Text></Column></Row>
        </Container>`),
    );
    expect(html).toContain('https://example.com/header.png');
    expect(text).toMatch(/First paragraph of the welcome\..*Inside the section\..*Left.*Right/);
  });
});

describe('React Email: the classes of a <Tailwind> wrapper', () => {
  it('resolves the classes to the styles Tailwind’s default theme gives them, a style written beside them winning', () => {
    const { lmx, html } = fromReact(
      REACT(`<Tailwind>
          <Container className="bg-white mx-auto p-[20px]">
            <Heading className="text-black text-[24px] font-normal text-center">Join the team</Heading>
            <Text className="text-gray-600 text-[14px] leading-[24px] uppercase">Invited by Ana</Text>
            <Text className="text-[#666666]" style={{ color: '#123456' }}>Written style wins</Text>
            <Button className="bg-[#000000] rounded text-white text-[12px] font-semibold px-5 py-3" href="https://example.com/join">Join</Button>
          </Container>
        </Tailwind>`).replace('{ Body,', '{ Body, Tailwind,'),
    );
    expect(lmx).toMatch(/<H1 align="center" fontSize="24"[^>]*><Text textColor="#000000">Join the team<\/Text><\/H1>/);
    // Tailwind v4's gray-600, as its theme writes it in oklch, in hex.
    expect(lmx).toContain('<Text textColor="#4a5565">INVITED BY ANA</Text>');
    expect(lmx).toContain('#123456');
    expect(lmx).not.toContain('#666666');
    expect(lmx).toMatch(/<Button href="https:\/\/example.com\/join" bgColor="#000000" textColor="#ffffff" borderRadius="4" fontSize="12"/);
    expect(html).toContain('INVITED BY ANA');
  });

  it('lists each class it cannot resolve once, at its place', () => {
    const { findings, text } = fromReact(
      REACT(`<Tailwind>
          <Text className="text-brand sm:text-[20px] font-bold">Hello</Text>
          <Text className="text-brand">Again</Text>
        </Tailwind>`).replace('{ Body,', '{ Body, Tailwind,'),
    );
    expect(text).toContain('Hello');
    const listed = findings.remediation.filter((item) => item.construct.startsWith('the Tailwind class'));
    expect(listed.map((item) => `${item.line}:${item.column} ${item.construct}`)).toEqual([
      '8:11 the Tailwind class text-brand',
      '8:11 the Tailwind class sm:text-[20px]',
    ]);
  });
});

const HTML = (body: string) => `<!doctype html><html><head><title>Hello</title></head><body>${body}</body></html>`;

describe('HTML: layouts of tables and tricks', () => {
  it('makes hybrid (ghost) columns <Columns>, Outlook’s conditional table never printed', () => {
    const { lmx, text } = fromHtml(
      HTML(`<div style="max-width:600px;margin:0 auto">
        <!--[if mso]><table role="presentation" width="600"><tr><td width="200" valign="top"><![endif]-->
        <div class="column" style="display:inline-block;max-width:200px;width:100%;vertical-align:top"><p>Left words here</p></div>
        <!--[if mso]></td><td width="400" valign="top"><![endif]-->
        <div class="column" style="display:inline-block;max-width:400px;width:100%;vertical-align:top"><p>Right words here</p></div>
        <!--[if mso]></td></tr></table><![endif]-->
      </div>`),
    );
    expect(lmx).toMatch(
      /<Columns gap="12" widths="33,67">\s*<ColumnItem>\s*<Paragraph[^>]*>Left words here<\/Paragraph>\s*<\/ColumnItem>\s*<ColumnItem>\s*<Paragraph[^>]*>Right words here<\/Paragraph>/,
    );
    expect(text).toBe('Left words here Right words here');
    expect(lmx).not.toContain('endif');
  });

  it('makes a presentation table of 2 to 4 cells <Columns>, centring kept', () => {
    const { lmx } = fromHtml(
      HTML(`<table role="presentation" width="100%"><tr>
        <td width="50%" align="center"><p>Fast delivery</p></td>
        <td width="50%" align="center"><p>Free returns</p></td>
      </tr></table>`),
    );
    expect(lmx).toMatch(
      /<Columns gap="12" stackOnMobile="false"[^>]*>\s*<ColumnItem>\s*<Paragraph align="center"[^>]*>Fast delivery<\/Paragraph>\s*<\/ColumnItem>\s*<ColumnItem>\s*<Paragraph align="center"[^>]*>Free returns/,
    );
  });

  it('recognises a button whose class is on the cell or table around its link, with their colours', () => {
    const { lmx } = fromHtml(
      HTML(`<table class="button" role="presentation" align="center"><tr>
        <td bgcolor="#348eda" style="border-radius:6px;padding:12px 24px"><a href="https://example.com/start" style="color:#ffffff;text-decoration:none">Get started</a></td>
      </tr></table>`),
    );
    expect(lmx).toMatch(
      /<Button href="https:\/\/example.com\/start" bgColor="#348eda" textColor="#ffffff" borderRadius="6"[^>]*align="center"[^>]*>Get started<\/Button>/,
    );
  });

  it('makes a row of linked social icons <Icons>, each with its link, centred', () => {
    const { lmx, html } = fromHtml(
      HTML(`<table role="presentation" align="center"><tr>
        <td><a href="https://www.facebook.com/acme"><img src="https://cdn.example.com/fb.png" alt="Facebook" width="24"></a></td>
        <td><a href="https://x.com/acme"><img src="https://cdn.example.com/x.png" alt="X" width="24"></a></td>
        <td><a href="https://www.instagram.com/acme"><img src="https://cdn.example.com/ig.png" alt="Instagram" width="24"></a></td>
        <td><a href="https://www.linkedin.com/company/acme"><img src="https://cdn.example.com/in.png" alt="LinkedIn" width="24"></a></td>
        <td><a href="https://www.youtube.com/@acme"><img src="https://cdn.example.com/yt.png" alt="YouTube" width="24"></a></td>
      </tr></table>`),
    );
    expect(lmx.replace(/>\s+</g, '><')).toContain(
      '<Icons align="center"><Icon name="facebook" href="https://www.facebook.com/acme" /><Icon name="x-twitter" href="https://x.com/acme" /><Icon name="instagram" href="https://www.instagram.com/acme" /><Icon name="linkedin" href="https://www.linkedin.com/company/acme" /><Icon name="youtube" href="https://www.youtube.com/@acme" /></Icons>',
    );
    for (const address of ['https://www.facebook.com/acme', 'https://x.com/acme', 'https://www.youtube.com/@acme']) expect(html).toContain(`href="${address}"`);
  });

  it('keeps linked images of no known network as linked images, not as text', () => {
    const { lmx } = fromHtml(
      HTML(`<table role="presentation"><tr>
        <td><a href="https://example.com/a"><img src="https://example.com/a.png" alt="A"></a></td>
        <td><a href="https://example.com/b"><img src="https://example.com/b.png" alt="B"></a></td>
      </tr></table>`),
    );
    expect(lmx).toContain('<Image src="https://example.com/a.png" alt="A" href="https://example.com/a"');
    expect(lmx).toContain('<Image src="https://example.com/b.png" alt="B" href="https://example.com/b"');
  });
});

describe('centring', () => {
  it('keeps an image centred by its auto margins, and text centred by its alignment', () => {
    const { lmx } = fromReact(
      REACT(`<Container>
          <Img src="https://example.com/logo.png" width="120" alt="Acme" style={{ margin: '0 auto' }} />
          <Text style={{ textAlign: 'center' }}>Centred words</Text>
        </Container>`),
    );
    expect(lmx).toMatch(/<Image src="https:\/\/example.com\/logo.png" alt="Acme" width="120" align="center"/);
    expect(lmx).toContain('<Paragraph align="center" lineHeight="171">Centred words</Paragraph>');
  });
});
