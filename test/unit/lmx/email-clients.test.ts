/**
 * The rendered HTML against what email clients draw, from caniemail's data (the `caniemail`
 * package carries it): for each feature that Outlook for Windows, Gmail, Apple Mail or Yahoo lack,
 * the data is checked to say so still, and the HTML (read by a real parser) for the fallback the
 * well-tested frameworks use. Bad input stays bounded: empty and hostile <Style /> values, markup
 * in an icon's name, 100 icons, 4 columns of images without widths.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseLmx } from '../../../src/lmx/index.js';
import { renderLmx } from '../../../src/lmx/render/index.js';
import { attribute, readHtml } from '../../support/html.js';

type Support = Record<string, Record<string, string>>;
interface Feature {
  slug: string;
  stats: Record<string, Support>;
}
const require = createRequire(import.meta.url);
const caniemail = JSON.parse(readFileSync(require.resolve('caniemail/caniemail.json'), 'utf8')) as { data: Feature[] };
const feature = (slug: string) => caniemail.data.find((entry) => entry.slug === slug)!;
/** What a client's newest tested version does with a feature: `y`, `n`, `a` (partial), `u`. */
const support = (slug: string, family: string, platform: string) => {
  const versions = feature(slug).stats[family]?.[platform] ?? {};
  return (Object.values(versions).at(-1) ?? 'u').split(' ')[0];
};
/** Outlook for Windows up to 2016, Word's engine at its most common. */
const outlook2016 = (slug: string) => (feature(slug).stats.outlook!.windows!['2016'] ?? 'u').split(' ')[0];

const NEWSLETTER = `<Style bodyXPadding="24" />
<H1>Spring update</H1>
<Paragraph>What is new this season.</Paragraph>
<Button href="https://acme.example/start" borderRadius="12">Get started</Button>
<Image src="https://cdn.acme.example/hero.png" alt="Hero" />
<Image src="https://cdn.acme.example/logo.png" alt="Logo" width="180" />
<Columns widths="50,50"><ColumnItem><Image src="https://cdn.acme.example/a.png" alt="A" /></ColumnItem><ColumnItem><Paragraph>Beside it</Paragraph></ColumnItem></Columns>
<Section paddingLeft="20" paddingRight="20" paddingTop="16" paddingBottom="16" blockColor="#f8fafc"><Paragraph>In a card</Paragraph></Section>`;

const render = (lmx: string) => {
  const { html } = renderLmx(parseLmx(lmx).document, { subject: 'Spring update' });
  return { html, read: readHtml(html) };
};
const styleOf = (element: Parameters<typeof attribute>[0]) => attribute(element, 'style') ?? '';

describe('Outlook for Windows', () => {
  const { html, read } = render(NEWSLETTER);

  // What Outlook reads: the content of its conditional comments as markup; what others read: none of it.
  const outlookView = (html: string) => html.replace(/<!--\[if mso\]>([\s\S]*?)<!\[endif\]-->/g, '$1');
  const othersView = (html: string) => html.replace(/<!--\[if mso\]>[\s\S]*?<!\[endif\]-->/g, '');
  /** The table, row and cell tags of the markup that are not closed, or closed out of turn, in order. */
  const unbalanced = (markup: string) => {
    const open: string[] = [];
    const faults: string[] = [];
    for (const [, closing, name] of markup.matchAll(/<(\/?)(table|tr|td)\b[^>]*>/g)) {
      if (closing === '') open.push(name!);
      else if (open.at(-1) === name) open.pop();
      else faults.push(`</${name}> where <${open.at(-1) ?? 'nothing'}> is open`);
    }
    return [...faults, ...open.map((name) => `<${name}> never closed`)];
  };

  it('closes every table, row and cell it opens for Outlook alone, in turn, and the others see them balanced too', () => {
    const columns = render(
      '<Columns widths="50,50"><ColumnItem><Paragraph>A</Paragraph></ColumnItem><ColumnItem><Paragraph>B</Paragraph></ColumnItem></Columns>',
    );
    for (const rendered of [html, columns.html]) {
      expect(rendered).toContain('<!--[if mso]><table');
      expect(unbalanced(outlookView(rendered))).toEqual([]);
      expect(unbalanced(othersView(rendered))).toEqual([]);
    }
  });

  it('ignores max-width: the body gets a table of 600 px that only Outlook reads', () => {
    expect(outlook2016('css-max-width')).toBe('n');
    expect(read.errors).toEqual([]);
    expect(read.comments()).toContainEqual(expect.stringMatching(/^\[if mso\]><table role="presentation" width="600" align="center"/));
    expect(read.all('table').some((table) => attribute(table, 'width') === '600' && styleOf(table).includes('max-width:600px'))).toBe(true);
  });

  it('gets a fixed-width table around columns, as wide as the body less its padding', () => {
    expect(read.comments()).toContainEqual(expect.stringMatching(/^\[if mso\]><table role="presentation" width="552"/));
  });

  it('ignores CSS widths on images: every image has a width attribute, the LMX width or the space it has', () => {
    expect(outlook2016('css-width')).toBe('a');
    expect(outlook2016('html-width')).toBe('a');
    expect(read.all('img').map((image) => [attribute(image, 'alt'), attribute(image, 'width')])).toEqual([
      ['Hero', '552'],
      ['Logo', '180'],
      ['A', '264'],
    ]);
  });

  it("ignores a link's padding and round corners: a button's cell carries its padding, and its colour as an attribute", () => {
    expect(outlook2016('css-padding')).toBe('a');
    expect(outlook2016('css-border-radius')).toBe('n');
    const link = read.all('a').find((anchor) => attribute(anchor, 'href') === 'https://acme.example/start')!;
    expect(styleOf(link)).toContain('mso-padding-alt:0px');
    const cell = read.all('td').find((td) => attribute(td, 'bgcolor') !== undefined && styleOf(td).includes('mso-padding-alt:12px 16px'));
    expect(cell, 'the button cell').toBeDefined();
  });

  it('reads line heights its own way: each is set exactly, and the fonts are set again for Word', () => {
    expect(outlook2016('css-line-height')).toBe('a');
    const texts = [...read.all('p'), ...read.all('h1')];
    for (const text of texts) expect(styleOf(text)).toContain('mso-line-height-rule:exactly');
    expect(html).toContain('xmlns:v="urn:schemas-microsoft-com:vml"');
    expect(read.comments().some((comment) => comment.includes('<o:PixelsPerInch>96</o:PixelsPerInch>') && comment.includes('font-family:'))).toBe(true);
  });
});

describe('Gmail, Apple Mail and Yahoo', () => {
  const { read } = render(NEWSLETTER);

  it('Gmail takes <style> only in the head: the one rule there is, for stacking columns, is in the head', () => {
    expect(support('html-style', 'gmail', 'desktop-webmail')).toBe('a');
    const [head] = read.all('head');
    expect(read.all('style').every((element) => element.parentNode === head)).toBe(true);
  });

  it('Apple Mail reads color-scheme: the email says its colours are for light mode (Gmail and Yahoo ignore it)', () => {
    expect(support('html-meta-color-scheme', 'apple-mail', 'macos')).toBe('y');
    expect(support('html-meta-color-scheme', 'yahoo', 'desktop-webmail')).toBe('n');
    const metas = read.all('meta').map((meta) => [attribute(meta, 'name'), attribute(meta, 'content')]);
    expect(metas).toContainEqual(['color-scheme', 'light']);
    expect(metas).toContainEqual(['supported-color-schemes', 'light']);
  });

  it("Yahoo keeps the head's <style>, so columns stack there too; it, Gmail and Outlook.com drop inline SVG, as the docs say of icons", () => {
    expect(support('html-style', 'yahoo', 'desktop-webmail')).toBe('y');
    expect(read.all('style').some((element) => (element.childNodes[0] as { value?: string } | undefined)?.value?.includes('.lmx-stack'))).toBe(true);
    for (const [family, platform] of [
      ['yahoo', 'desktop-webmail'],
      ['gmail', 'desktop-webmail'],
      ['outlook', 'outlook-com'],
    ])
      expect(support('html-svg', family!, platform!), family).toBe('n');
    expect(support('html-svg', 'apple-mail', 'macos')).not.toBe('n');
  });

  it('every client shows the title: the subject', () => {
    expect(read.all('title').map((title) => title.childNodes.map((node) => ('value' in node ? node.value : '')).join(''))).toEqual(['Spring update']);
  });
});

describe('bad input stays bounded', () => {
  it('takes a <Style /> of 40 empty attributes as the default theme', () => {
    const names = ['backgroundColor', 'bodyColor', 'textBaseColor', 'textBaseFontSize', 'buttonBodyColor', 'heading1FontSize'];
    const empty = renderLmx(parseLmx(`<Style ${names.map((name) => `${name}=""`).join(' ')} />\n<Paragraph>x</Paragraph>`).document);
    const none = renderLmx(parseLmx('<Paragraph>x</Paragraph>').document);
    expect(empty.html).toBe(none.html);
    expect(empty.dropped).toEqual([]);
  });

  it('leaves a colour that tries to write CSS out of the HTML, and says so', () => {
    const rendered = renderLmx(parseLmx('<Style bodyColor="red;background:url(https://x.example/a.png)" />\n<Paragraph>x</Paragraph>').document);
    expect(rendered.html).not.toContain('url(');
    expect(rendered.dropped.map((dropped) => dropped.where)).toEqual(['<Style /> bodyColor']);
  });

  it('escapes markup in an icon name, and draws 100 icons', () => {
    const { read, html } = render(`<Icons>${'<Icon name="github" />'.repeat(99)}<Icon name="&lt;img src=x onerror=alert(1)&gt;" /></Icons>`);
    expect(read.all('svg')).toHaveLength(99);
    expect(read.all('img')).toEqual([]);
    expect(html).not.toContain('<img src=x');
  });

  it('gives each of 4 columns of images without widths a width attribute', () => {
    const column = '<ColumnItem><Image src="https://cdn.acme.example/a.png" alt="a" /></ColumnItem>';
    const { read } = render(`<Columns>${column.repeat(4)}</Columns>`);
    const widths = read.all('img').map((image) => Number(attribute(image, 'width')));
    expect(widths).toEqual([138, 126, 126, 138]);
  });
});
