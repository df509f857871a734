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
