import { describe, expect, it } from 'vitest';
import { LMX_TAGS, parseLmx } from '../../../../src/lmx/index.js';
import { PREVIEW_COMMENT, type RenderOptions, renderLmx } from '../../../../src/lmx/render/index.js';
import { attribute, type HtmlElement, readHtml, textOf } from '../../../support/html.js';

const render = (source: string, options: RenderOptions = {}) => {
  const { document } = parseLmx(source);
  const rendered = renderLmx(document, options);
  return { ...rendered, read: readHtml(rendered.html) };
};

/** Every tag of the specification, in the places it may stand. */
const EVERY_TAG = `<Style themeId="st_1" bodyColor="#fefefe" />
<H1>Heading one</H1>
<H2 align="center">Heading two</H2>
<H3 blockColor="#f8fafc" paddingTop="16">Heading three</H3>
<Paragraph>Mixed <Strong>bold</Strong>, <Em>italic</Em>, <Underline>under</Underline>, <Strike>struck</Strike>, <Code>code()</Code>, <Text textColor="#ff0000">red</Text> and <Link href="https://loops.so">a link</Link>.<Br />Next line.</Paragraph>
<Quote>A quotation.</Quote>
<CodeBlock>const literal = "{contact.firstName}";</CodeBlock>
<Button href="https://example.com/start" bgColor="#000000" textColor="#ffffff">Get started</Button>
<Image src="https://cdn.example.com/logo.png" alt="Company logo" width="180" href="https://example.com" />
<Divider width="80" color="#cbd5e1" />
<OrderedList start="3"><ListItem>Third</ListItem><ListItem>Fourth</ListItem></OrderedList>
<UnorderedList><ListItem>Dot</ListItem></UnorderedList>
<Columns gap="24" widths="40,60"><ColumnItem><Paragraph>Left column</Paragraph></ColumnItem><ColumnItem><Paragraph>Right column</Paragraph></ColumnItem></Columns>
<Component componentId="cmp_footer" />
<Section href="https://example.com/card" blockColor="#f1f5f9"><H2>In a section</H2></Section>
<Icons color="#808080"><Icon name="github" href="https://github.com/loops" /><Icon name="twitter" /></Icons>`;

describe('renderLmx', () => {
  it('renders every tag of the specification to semantic HTML that parses without errors', () => {
    const footer = parseLmx('<Paragraph>Footer from the component</Paragraph>').document;
    const { read, missing, missingComponents } = render(EVERY_TAG, { components: new Map([['cmp_footer', footer]]) });
    expect(read.errors).toEqual([]);
    // The corpus holds every tag the table knows: a new tag without a rendering fails here.
    for (const name of LMX_TAGS.keys()) expect(EVERY_TAG, name).toContain(`<${name}`);
    const text = (tag: string) => read.all(tag).map(textOf);
    expect(text('h1')).toEqual(['Heading one']);
    expect(text('h2')).toEqual(['Heading two', 'In a section']);
    expect(text('h3')).toEqual(['Heading three']);
    expect(text('strong')).toEqual(['bold']);
    expect(text('em')).toEqual(['italic']);
    expect(text('u')).toEqual(['under']);
    expect(text('s')).toEqual(['struck']);
    expect(text('blockquote')).toEqual(['A quotation.']);
    expect(read.all('br')).toHaveLength(1);
    // Raw text keeps its braces: a code block's variables are not variables.
    expect(read.all('pre').map(textOf)).toEqual(['const literal = "{contact.firstName}";']);
    expect(read.all('pre')[0]!.childNodes.some((node) => node.nodeName === 'code')).toBe(true);
    expect(text('code')).toContain('code()');
    expect(read.all('img').map((img) => [attribute(img, 'src'), attribute(img, 'alt'), attribute(img, 'width')])).toEqual([
      ['https://cdn.example.com/logo.png', 'Company logo', '180'],
    ]);
    expect(read.all('hr')).toHaveLength(1);
    expect(attribute(read.all('ol')[0]!, 'start')).toBe('3');
    expect(read.all('li').map(textOf)).toEqual(['Third', 'Fourth', 'Dot']);
    expect(text('p')).toEqual(expect.arrayContaining(['Left column', 'Right column', 'Footer from the component']));
    const links = read.all('a').map((a) => [attribute(a, 'href'), textOf(a)]);
    expect(links).toEqual(
      expect.arrayContaining([
        ['https://loops.so', 'a link'],
        ['https://example.com/start', 'Get started'],
        ['https://example.com', ''],
        ['https://example.com/card', 'In a section'],
        ['https://github.com/loops', 'github'],
      ]),
    );
    // An icon without an address is shown, not linked; each is drawn as its glyph, named for a screen reader.
    expect(
      read
        .all('svg')
        .filter((svg) => attribute(svg, 'role') === 'img')
        .map((svg) => attribute(svg, 'aria-label')),
    ).toEqual(['github', 'twitter']);
    expect(missing).toEqual([]);
    expect(missingComponents).toEqual([]);
  });

  it('lays the email out in presentation tables with inline styles, says it is a local preview, and sets the language', () => {
    const { read, html } = render('<Paragraph>Hello</Paragraph>', { subject: 'Welcome', previewText: 'Your account is ready' });
    // Besides Outlook's conditional comments, one comment: that this is a local preview.
    expect(read.comments().filter((comment) => !comment.startsWith('[if mso]'))).toEqual([` ${PREVIEW_COMMENT} `]);
    expect(attribute(read.all('html')[0]!, 'lang')).toBe('en');
    expect(read.all('title').map(textOf)).toEqual(['Welcome']);
    const tables = read.all('table');
    expect(tables.length).toBeGreaterThan(2);
    for (const table of tables) expect(attribute(table, 'role')).toBe('presentation');
    expect(read.all('table').some((table) => attribute(table, 'width') === '600')).toBe(true);
    // The platform's default theme sets text at 14 px.
    expect(read.all('p').every((p) => attribute(p, 'style')?.includes('font-size:14px'))).toBe(true);
    // The preheader: hidden text, shown by clients beside the subject.
    expect(read.all('div').some((div) => textOf(div) === 'Your account is ready' && attribute(div, 'style')!.includes('display:none'))).toBe(true);
    expect(read.all('script')).toEqual([]);
    expect(html).not.toContain('class="lmx-stack"');
  });

  it("draws with the theme's styles, under the <Style /> attributes", () => {
    const theme = { backgroundColor: '#e6f2f8', bodyColor: '#f0f0f0', buttonBodyColor: '#0e7490', textBaseColor: '#1f3b4d', heading1FontSize: 40 };
    const { read, dropped } = render('<Style bodyColor="#ffffff" />\n<H1>Title</H1>\n<Button href="https://x.example">Go</Button>', { theme });
    expect(dropped).toEqual([]);
    const style = (element: HtmlElement) => attribute(element, 'style') ?? '';
    expect(style(read.all('body')[0]!)).toContain('background-color:#e6f2f8');
    // The body's colour is the <Style /> override, not the theme's.
    const body = read.all('table').find((table) => attribute(table, 'width') === '600')!;
    expect(style(body)).toContain('background-color:#ffffff');
    expect(style(read.all('h1')[0]!)).toContain('font-size:40px');
    expect(read.all('td').some((td) => style(td).includes('background-color:#0e7490'))).toBe(true);
  });

  it("draws a list item's block style: its background, corner radius and padding", () => {
    const { read, dropped } = render(
      '<UnorderedList><ListItem blockColor="#f8fafc" blockBorderRadius="6" paddingLeft="8" paddingTop="4">Tinted</ListItem><ListItem>Plain</ListItem></UnorderedList>',
    );
    expect(dropped).toEqual([]);
    const [tinted, plain] = read.all('li').map((li) => attribute(li, 'style') ?? '');
    expect(tinted).toContain('background-color:#f8fafc');
    expect(tinted).toContain('border-radius:6px');
    expect(tinted).toContain('padding:4px 0px 0px 8px');
    expect(plain).not.toContain('background-color');
  });

  it('fills variables from the values, then the fallbacks; one with neither stays visible as written, and is named', () => {
    const { read, missing } = render('<Paragraph>Hi {contact.firstName} from {contact.company}, on {event.plan}: {contact.city}</Paragraph>', {
      values: { contact: { firstName: 'Ada', company: 42 } },
      fallbacks: { event: { plan: 'the free plan' }, contact: { firstName: 'there' } },
    });
    const paragraph = read.all('p')[0]!;
    expect(textOf(paragraph)).toBe('Hi Ada from 42, on the free plan: {contact.city}');
    expect(read.all('span').map((span) => attribute(span, 'data-missing-variable'))).toEqual(['{contact.city}']);
    expect(missing).toEqual(['{contact.city}']);
  });

  it('fills variables in the attributes that take them, and in the subject', () => {
    const { read } = render('<Button href="https://app.example.com/reset?token={data.token}">Reset</Button>', {
      values: { data: { token: 'a&b"c', name: 'Ada' } },
      subject: 'Reset your password, {data.name}',
    });
    expect(attribute(read.all('a')[0]!, 'href')).toBe('https://app.example.com/reset?token=a&b"c');
    expect(read.all('title').map(textOf)).toEqual(['Reset your password, Ada']);
  });
});

describe('renderLmx with hostile input', () => {
  const SCRIPT = '<script>alert(1)</script><img src=x onerror="alert(2)">';

  it('escapes values holding HTML or a script: they are text, never elements', () => {
    const { read, html } = render(
      '<H1>Hi {data.name}</H1><Image src="https://cdn.example.com/a.png" alt="{data.name}" /><Button href="https://x.example">{data.name}</Button>',
      {
        values: { data: { name: SCRIPT } },
        subject: '{data.name}',
      },
    );
    expect(read.all('script')).toEqual([]);
    expect(read.all('img').map((img) => attribute(img, 'src'))).toEqual(['https://cdn.example.com/a.png']);
    expect(read.all('img').flatMap((img) => img.attrs.map((attr) => attr.name))).not.toContain('onerror');
    expect(textOf(read.all('h1')[0]!)).toBe(`Hi ${SCRIPT}`);
    expect(attribute(read.all('img')[0]!, 'alt')).toBe(SCRIPT);
    expect(textOf(read.all('title')[0]!)).toBe(SCRIPT);
    expect(html).not.toContain('<script>');
  });

  it('escapes text of the LMX itself, as decoded from its character references', () => {
    const { read } = render('<Paragraph>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</Paragraph><CodeBlock>&lt;b&gt;bold&lt;/b&gt;</CodeBlock>');
    expect(read.all('script')).toEqual([]);
    expect(read.all('b')).toEqual([]);
    expect(textOf(read.all('p')[0]!)).toBe('<script>alert(1)</script> & more');
  });

  it('never writes a theme or <Style /> value that is not a colour or a number into CSS, and names what it left out', () => {
    const hostile = 'red;background:url(javascript:alert(1))';
    const { html, dropped } = render(
      `<Style textBaseColor="${hostile}" bodyXPadding="10px;position:fixed" /><Paragraph>Hi</Paragraph><Button bgColor="${hostile}" href="https://x.example">Go</Button>`,
      {
        theme: { backgroundColor: hostile, bodyFontFamily: 'Arial;}</style><script>alert(1)</script>', buttonBodyColor: '#123456' },
      },
    );
    expect(html).not.toContain('javascript');
    expect(html).not.toContain('position:fixed');
    expect(html).not.toContain('alert');
    expect(html).toContain('background-color:#123456');
    expect(dropped.map((entry) => entry.where).sort()).toEqual([
      '<Button> bgColor',
      '<Style /> bodyXPadding',
      '<Style /> textBaseColor',
      'theme style backgroundColor',
      'theme style bodyFontFamily',
    ]);
  });

  it('writes live the links of every scheme the check takes: web, email and phone', () => {
    const urls = ['https://acme.example', 'http://acme.example', 'mailto:help@acme.example', 'tel:+15550100', 'SMS:+15550100'];
    const { read, inert } = render(`<Paragraph>${urls.map((url) => `<Link href="${url}">x</Link>`).join(' ')}</Paragraph>`);
    expect(read.all('a').map((a) => attribute(a, 'href'))).toEqual(urls);
    expect(inert).toEqual([]);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/x',
  ])('does not write a live link or image to %j', (url) => {
    const escaped = url.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\t/g, '&#9;');
    const { read, inert } = render(
      `<Paragraph><Link href="${escaped}">link</Link></Paragraph><Button href="{data.url}">button</Button><Image src="${escaped}" alt="picture" href="${escaped}" /><Section href="${escaped}"><Paragraph>card</Paragraph></Section><Icons><Icon name="link" href="${escaped}" /></Icons>`,
      { values: { data: { url } } },
    );
    expect(read.all('a')).toEqual([]);
    expect(read.all('img')).toEqual([]);
    expect(textOf(read.all('body')[0]!)).toContain('link');
    expect(textOf(read.all('body')[0]!)).toContain('button');
    expect(read.all('div').some((div) => attribute(div, 'role') === 'img' && attribute(div, 'aria-label') === 'picture')).toBe(true);
    expect(inert.length).toBe(6);
  });

  it("names a section's link it does not write, when the section holds links of its own", () => {
    const { read, inert } = render(
      '<Section href="https://acme.example/card"><Paragraph>See <Link href="https://acme.example/docs">the docs</Link></Paragraph></Section>\n<Section href="https://acme.example/plain"><Paragraph>plain</Paragraph></Section>',
    );
    expect(read.all('a').map((a) => attribute(a, 'href'))).toEqual(['https://acme.example/docs', 'https://acme.example/plain']);
    expect(inert).toEqual([
      { tag: 'Section', attribute: 'href', value: 'https://acme.example/card', reason: expect.stringContaining('the section holds links of its own') },
    ]);
  });

  it('shows a component it cannot find as a placeholder, and names it', () => {
    const { read, missingComponents } = render('<Component componentId="cmp_gone" />');
    expect(missingComponents).toEqual(['cmp_gone']);
    expect(read.all('p').map((p) => attribute(p, 'data-missing-component'))).toEqual(['cmp_gone']);
  });

  it('never expands a component inside a component: one that embeds itself or another is drawn once, with a placeholder', () => {
    const components = new Map([
      ['cmp_loop', parseLmx('<Paragraph>loop</Paragraph>\n<Component componentId="cmp_loop" />').document],
      ['cmp_a', parseLmx('<Paragraph>a</Paragraph>\n<Component componentId="cmp_b" />').document],
      ['cmp_b', parseLmx('<Paragraph>b</Paragraph>\n<Component componentId="cmp_a" />').document],
    ]);
    const email = render('<Component componentId="cmp_loop" />\n<Component componentId="cmp_a" />', { components });
    expect(email.read.all('p').map((p) => [textOf(p), attribute(p, 'data-nested-component')])).toEqual([
      ['loop', undefined],
      ['Component cmp_loop: components do not nest, so not shown', 'cmp_loop'],
      ['a', undefined],
      ['Component cmp_b: components do not nest, so not shown', 'cmp_b'],
    ]);
    expect(email.nestedComponents).toEqual(['cmp_loop', 'cmp_b']);
    // A component's own body: its <Component> is already one inside another.
    const body = render('<Paragraph>loop</Paragraph>\n<Component componentId="cmp_loop" />', { components, componentBody: true });
    expect(body.read.all('p').map(textOf)).toEqual(['loop', 'Component cmp_loop: components do not nest, so not shown']);
    expect(body.nestedComponents).toEqual(['cmp_loop']);
  });
});
