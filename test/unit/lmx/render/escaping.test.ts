/**
 * Every place the renderer writes text from an email, a value or a component into HTML, driven
 * with generated hostile text: each must come back, read as a browser reads the page, exactly as
 * it went in, with no element or attribute of its own. Removing the escaping at any one site makes
 * the text break out of its attribute or become markup, and its row here fails.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LMX_TAGS, parseLmx } from '../../../../src/lmx/index.js';
import { type RenderOptions, renderLmx } from '../../../../src/lmx/render/index.js';
import { attribute, type HtmlElement, type ReadHtml, readHtml, textOf } from '../../../support/html.js';

/** Pieces of markup and of character references, mixed with plain text. */
const PIECES = ['"', "'", '<', '>', '&', '&amp;', '&quot;', '&lt;', '<script>', '</p>', '" onerror="alert(1)', "' x='", '=', '/', 'a', 'é', ' '];
/** Hostile text that starts and ends with a letter (an address is trimmed), and no braces (which LMX reads as variables). */
const hostile = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((pieces) => `a${pieces.join('')}z`);
/** The text each site must survive, whatever is generated. */
const EXAMPLES: [string][] = [['a" onerror="alert(1)" x="z'], ['a&quot; onerror=alert(1)z'], ['a<script>alert(1)</script>z'], ["a' x='z"], ['a&amp;lt;z']];

/** Text written into LMX as its character references: the parser decodes it back to `text`. */
const inLmx = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const URL = 'https://a.example/';

interface Site {
  /** The tag and attribute it covers, or what else it is. */
  name: string;
  lmx: (text: string) => string;
  options?: (text: string) => RenderOptions;
  /** What the page shows of it: the values that must equal `expected`. */
  read: (html: ReadHtml) => (string | undefined)[];
  expected: (text: string) => string;
}

const attributesOf = (html: ReadHtml, tag: string, name: string) => html.all(tag).map((element) => attribute(element, name));
const withAttribute = (html: ReadHtml, name: string) => html.all().filter((element) => attribute(element, name) !== undefined);
const links = (html: ReadHtml) => attributesOf(html, 'a', 'href');
const same = (text: string) => text;
const address = (text: string) => `${URL}${text}`;

const SITES: Site[] = [
  { name: 'text of a paragraph', lmx: (text) => `<Paragraph>${inLmx(text)}</Paragraph>`, read: (html) => html.all('p').map(textOf), expected: same },
  { name: 'text of a code block', lmx: (text) => `<CodeBlock>${inLmx(text)}</CodeBlock>`, read: (html) => html.all('code').map(textOf), expected: same },
  {
    name: 'a value in text',
    lmx: () => '<Paragraph>{data.value}</Paragraph>',
    options: (text) => ({ values: { data: { value: text } } }),
    read: (html) => html.all('p').map(textOf),
    expected: same,
  },
  {
    name: '<Link href>',
    lmx: (text) => `<Paragraph><Link href="${URL}${inLmx(text)}">go</Link></Paragraph>`,
    read: links,
    expected: address,
  },
  {
    name: '<Link href> filled from a value',
    lmx: () => `<Paragraph><Link href="${URL}{data.value}">go</Link></Paragraph>`,
    options: (text) => ({ values: { data: { value: text } } }),
    read: links,
    expected: address,
  },
  { name: '<Button href>', lmx: (text) => `<Button href="${URL}${inLmx(text)}">Go</Button>`, read: links, expected: address },
  {
    name: '<Image src>',
    lmx: (text) => `<Image src="${URL}${inLmx(text)}" alt="x" />`,
    read: (html) => attributesOf(html, 'img', 'src'),
    expected: address,
  },
  {
    name: '<Image dynamicSrc> filled from a value',
    lmx: () => `<Image src="${URL}i.png" dynamicSrc="${URL}{data.value}" />`,
    options: (text) => ({ values: { data: { value: text } } }),
    read: (html) => attributesOf(html, 'img', 'src'),
    expected: address,
  },
  {
    name: '<Image href>',
    lmx: (text) => `<Image src="${URL}i.png" href="${URL}${inLmx(text)}" />`,
    read: links,
    expected: address,
  },
  {
    name: '<Image alt>',
    lmx: (text) => `<Image src="${URL}i.png" alt="${inLmx(text)}" />`,
    read: (html) => attributesOf(html, 'img', 'alt'),
    expected: same,
  },
  {
    name: "an inert image's alt, as its label",
    lmx: (text) => `<Image src="javascript:alert(1)" alt="${inLmx(text)}" />`,
    read: (html) => attributesOf(html, 'div', 'aria-label').filter((label) => label !== undefined),
    expected: same,
  },
  {
    name: "an inert image's alt, as its text",
    lmx: (text) => `<Image src="javascript:alert(1)" alt="${inLmx(text)}" />`,
    read: (html) =>
      html
        .all('div')
        .filter((div) => attribute(div, 'role') === 'img')
        .map(textOf),
    expected: same,
  },
  {
    name: '<Section href>',
    lmx: (text) => `<Section href="${URL}${inLmx(text)}"><Paragraph>in</Paragraph></Section>`,
    read: links,
    expected: address,
  },
  {
    name: '<Icon href>',
    lmx: (text) => `<Icons><Icon name="github" href="${URL}${inLmx(text)}" /></Icons>`,
    read: links,
    expected: address,
  },
  {
    name: "an icon's name, as its label",
    lmx: (text) => `<Icons><Icon name="${inLmx(text)}" /></Icons>`,
    read: (html) => attributesOf(html, 'span', 'aria-label').filter((label) => label !== undefined),
    expected: same,
  },
  {
    name: "an icon's name, as its text",
    lmx: (text) => `<Icons><Icon name="${inLmx(text)}" /></Icons>`,
    read: (html) =>
      html
        .all('span')
        .filter((span) => attribute(span, 'role') === 'img')
        .map(textOf),
    expected: same,
  },
  {
    name: '<Component componentId>, when the component is missing',
    lmx: (text) => `<Component componentId="${inLmx(text)}" />`,
    read: (html) => withAttribute(html, 'data-missing-component').map((element) => attribute(element, 'data-missing-component')),
    expected: same,
  },
  {
    name: '<Component componentId>, when missing, in its note',
    lmx: (text) => `<Component componentId="${inLmx(text)}" />`,
    read: (html) => withAttribute(html, 'data-missing-component').map(textOf),
    expected: (text) => `Component ${text}: not found, so not shown`,
  },
  {
    name: '<Component componentId>, when nested',
    lmx: (text) => `<Component componentId="${inLmx(text)}" />`,
    options: () => ({ componentBody: true }),
    read: (html) => withAttribute(html, 'data-nested-component').map((element) => attribute(element, 'data-nested-component')),
    expected: same,
  },
  {
    name: 'the subject, as the title',
    lmx: () => '<Paragraph>x</Paragraph>',
    options: (text) => ({ subject: text }),
    read: (html) => html.all('title').map(textOf),
    expected: same,
  },
  {
    name: 'the preview text',
    lmx: () => '<Paragraph>x</Paragraph>',
    options: (text) => ({ previewText: text }),
    read: (html) =>
      html
        .all('body')[0]!
        .childNodes.filter((node): node is HtmlElement => 'tagName' in node && node.tagName === 'div')
        .map(textOf),
    expected: same,
  },
];

/** The attribute names the renderer writes; anything else on an element was injected. */
const OWN_ATTRIBUTES = new Set([
  ...['lang', 'charset', 'name', 'content', 'role', 'width', 'cellpadding', 'cellspacing', 'border', 'style', 'align', 'valign', 'href'],
  ...['target', 'rel', 'src', 'alt', 'aria-label', 'title', 'class', 'dir', 'start'],
  ...['data-missing-variable', 'data-missing-component', 'data-nested-component'],
  // Outlook's fallbacks (VML namespaces, a cell's colour, fixed heights) and the icons' inline SVG.
  ...['xmlns', 'xmlns:v', 'xmlns:o', 'bgcolor', 'height', 'viewBox', 'd', 'fill'],
]);

describe('every escaping site of the renderer, with hostile text', () => {
  it('covers the tags that write an attribute from the email', () => {
    // A tag added to the table with an address or a label needs a row here.
    const covered = new Set(SITES.map((site) => /<(\w+)/.exec(site.name)?.[1]).filter(Boolean));
    const writing = [...LMX_TAGS.values()].filter((spec) => ['href', 'src', 'alt', 'name', 'componentId'].some((name) => name in spec.attributes));
    expect(writing.map((spec) => spec.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each(SITES.map((site) => [site.name, site] as const))('%s comes back as written, and adds no markup', (_name, site) => {
    fc.assert(
      fc.property(hostile, (text) => {
        const { document, problems } = parseLmx(site.lmx(text));
        expect(problems).toEqual([]);
        const html = readHtml(renderLmx(document, site.options?.(text)).html);
        expect(site.read(html)).toEqual([site.expected(text)]);
        expect(html.all('script')).toEqual([]);
        // One assertion for the page, not one an attribute: the page has hundreds, and each costs an expect.
        const injected = html
          .all()
          .flatMap((element) => element.attrs.filter(({ name }) => !OWN_ATTRIBUTES.has(name)).map(({ name }) => `<${element.tagName} ${name}>`));
        expect(injected).toEqual([]);
      }),
      { examples: EXAMPLES, numRuns: 60 },
    );
  });
});
