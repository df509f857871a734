/**
 * The fidelity of `content convert` on the project's corpus of public templates (laid out by
 * test/support/convert-corpus.ts from the packages that publish them and test/corpus/convert; sources
 * and licences in its README): every email converts, passes `content check`,
 * and what its source shows and its LMX lacks is listed. The words a reader sees are counted here
 * with readers of the test's own (parse5, htmlparser2, Babel; an HTML email's stylesheet applied by
 * juice as a desktop draws it, which hides what its classes hide), apart from convert's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJs } from '@babel/parser';
import { Parser } from 'htmlparser2';
import juice from 'juice';
import { type DefaultTreeAdapterMap, parse, parseFragment } from 'parse5';
import { parse as parseCss } from 'postcss';
import { describe, expect, it } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { run, tempDir } from '../../../support/main.js';

const CORPUS = corpusDirectory();

type HtmlNode = DefaultTreeAdapterMap['node'];

/** The words of HTML a reader sees: no head, style, script or element hidden by display:none. */
function htmlWords(node: HtmlNode, words: string[] = []): string[] {
  if (node.nodeName === '#text') words.push(...wordsOf((node as DefaultTreeAdapterMap['textNode']).value));
  if (!('childNodes' in node)) return words;
  const element = node as DefaultTreeAdapterMap['element'];
  if (['head', 'style', 'script', 'title'].includes(element.tagName)) return words;
  if (/display:\s*none/i.test(element.attrs?.find((attribute) => attribute.name === 'style')?.value ?? '')) return words;
  for (const child of element.childNodes) htmlWords(child, words);
  return words;
}

/** MJML's words: the HTML inside the elements that show text, read as MJML cuts it out. */
function mjmlWords(source: string): string[] {
  const words: string[] = [];
  const showing = new Set(['mj-text', 'mj-button', 'mj-table', 'mj-navbar-link', 'mj-accordion-title', 'mj-accordion-text', 'mj-raw', 'mj-social-element']);
  let start: { name: string; at: number } | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        if (start === undefined && showing.has(name)) start = { name, at: parser.endIndex + 1 };
      },
      onclosetag(name) {
        if (start?.name !== name) return;
        words.push(...htmlWords(parseFragment(source.slice(start.at, parser.startIndex)) as unknown as HtmlNode));
        start = undefined;
      },
    },
    { recognizeSelfClosing: true, lowerCaseAttributeNames: false },
  );
  parser.write(source);
  parser.end();
  return words;
}

/** React Email's words: the JSX text of the template and the literal strings it shows, but its <Preview>. */
function reactWords(source: string): string[] {
  const words: string[] = [];
  const walk = (node: any, inPreview: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => walk(child, inPreview));
    if (node.type === 'JSXElement') {
      const preview = inPreview || node.openingElement.name.name === 'Preview';
      for (const child of node.children) {
        if (child.type === 'JSXText' && !preview) words.push(...wordsOf(child.value));
        else if (child.type === 'JSXExpressionContainer' && child.expression.type === 'StringLiteral' && !preview)
          words.push(...wordsOf(child.expression.value));
        else walk(child, preview);
      }
      return;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc' && key !== 'extra') walk(value, inPreview);
  };
  walk(parseJs(source, { sourceType: 'module', plugins: ['jsx', 'typescript'] }).program, false);
  return words;
}

/** Words: letters and digits, template tags (Campaign Monitor's `[firstname,fallback=…]` too) left out. */
const wordsOf = (text: string) =>
  text
    .replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\*\|[^|]*\|\*|\[[A-Za-z]\w*,\s*fallback=[^\]]*\]|\[(?:firstname|lastname|fullname|email)\]/gi, ' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** The words of LMX: its text, tags and variables left out, entities decoded. */
function lmxWords(lmx: string): string[] {
  const text = lmx
    .replace(/\{(?:contact|event|data)\.[\w-]+\}/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
  return wordsOf(text);
}

/** The words of `words` that `held` lacks, each as often as it lacks it. */
function lacking(words: readonly string[], held: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const word of held) counts.set(word, (counts.get(word) ?? 0) + 1);
  return words.filter((word) => {
    const left = counts.get(word) ?? 0;
    counts.set(word, left - 1);
    return left <= 0;
  });
}

/** The opening tags of template languages' blocks, found apart from convert: Handlebars' and Mustache's `{{#x}}` and `{{^x}}`, Liquid's and Jinja's loops and conditions, Mailchimp's conditions. */
const BLOCK_OPENING = /\{\{~?\s*[#^]\s*[A-Za-z_]|\{%-?\s*(?:for|if|unless|case)\b|\*\|(?:IF|IFNOT|INTERESTED):/g;

/** The lines of a source that open a block. */
const blockLines = (source: string) => [...source.matchAll(BLOCK_OPENING)].map((match) => source.slice(0, match.index).split('\n').length);

/**
 * An HTML email as a desktop draws it at 600 px: the rules of its `min-width` media queries up to
 * that width made every screen's, for juice to inline (the twin a phone shows, `.mobile-only`, hidden).
 */
function atDesktop(source: string): string {
  return source.replace(/(<style[^>]*>)([\s\S]*?)(<\/style>)/gi, (written, open: string, css: string, close: string) => {
    let root: ReturnType<typeof parseCss>;
    try {
      root = parseCss(css);
    } catch {
      return written;
    }
    root.walkAtRules('media', (media) => {
      const from = /^\s*\(\s*min-width\s*:\s*(\d+)px\s*\)\s*$/i.exec(media.params);
      if (from !== null && Number(from[1]) <= 600) media.replaceWith(media.nodes ?? []);
    });
    return `${open}${root.toString()}${close}`;
  });
}

const READERS: Record<string, (source: string) => string[]> = {
  mjml: mjmlWords,
  tsx: reactWords,
  html: (source) => htmlWords(parse(juice(atDesktop(source), { preserveMediaQueries: true })) as unknown as HtmlNode),
};

interface Measure {
  source: number;
  kept: number;
}
interface ConvertedRecord {
  source: string;
  path: string;
  remediation: { file: string; line: number; column: number; construct: string; outcome: string; done: string }[];
  fidelity: { words: Measure; links: Measure; images: Measure; layout: Measure; positions: Measure; colours: Measure };
}

const emails = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.(mjml|tsx|html)$/.test(file))
  .sort();

describe('content convert on the corpus of public templates', () => {
  it('holds at least 30 emails, MJML, React Email and HTML', () => {
    expect(emails.length).toBeGreaterThanOrEqual(30);
    for (const extension of ['mjml', 'tsx', 'html']) expect(emails.filter((file) => file.endsWith(`.${extension}`)).length).toBeGreaterThanOrEqual(5);
  });

  it('converts every email; content check passes each (exit 0); every word, link and image its LMX lacks is listed', async () => {
    const out = join(tempDir('loopsctl-corpus-'), 'loops');
    const result = await run(['content', 'convert', CORPUS, '--out', out, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const records = (JSON.parse(result.stdout).records as ConvertedRecord[]).filter((record) => record.fidelity !== undefined);
    expect(records.map((record) => record.source.slice(CORPUS.length + 1)).sort()).toEqual(emails);
    // Every record as converted passes content check: exit 0 (its warnings are on convert's list too).
    const check = await run(['content', 'check', out, '--json']);
    expect(check.code, check.stderr).toBe(0);
    const errors = (JSON.parse(check.stdout) as { file: string; errors: { rule: string; message: string }[] }[]).flatMap((checked) =>
      checked.errors.map((error) => `${checked.file}: ${error.rule}: ${error.message}`),
    );
    expect(errors).toEqual([]);
    // Each email's figures as measured: words, links and images kept, of those its source shows.
    const measured: { [file: string]: string } = {};
    // The blocks of a template language (loops, conditions, `{{#with}}`) each listed at their line, as LMX has none.
    const blocks: { [file: string]: string } = {};
    for (const record of records) {
      const file = record.source.slice(CORPUS.length + 1);
      const { words, links, images, layout, positions, colours } = record.fidelity;
      // The blocks that stand and align as the source's at 600 and 375 px (held to Chromium's rendering by convert-layout-browser.test.ts),
      // those at the side the source draws them at, and the text blocks in the source's colours.
      measured[file] =
        `words ${words.kept}/${words.source}, links ${links.kept}/${links.source}, images ${images.kept}/${images.source}, ` +
        `layout ${layout.kept}/${layout.source}, positions ${positions.kept}/${positions.source}, colours ${colours.kept}/${colours.source}`;
      // A block at another side or in other colours than the source's is listed, by the layout's entry or its own.
      if (colours.kept < colours.source)
        expect(
          record.remediation.some((item) => /^(the colours? of|text less readable|a link in #|\d+ links in #)/.test(item.construct)),
          file,
        ).toBe(true);
      if (positions.kept < positions.source)
        expect(
          record.remediation.some((item) => /^the (layout|position) of </.test(item.construct)),
          file,
        ).toBe(true);
      // Counted apart from convert: the words the LMX lacks are no more than convert says, and each of those is listed.
      // (A React template's words shown through an expression computed when the app runs, `steps.map(…)`, are
      // listed at the expression, and counted by neither.)
      const extension = file.slice(file.lastIndexOf('.') + 1);
      const source = READERS[extension]!(readFileSync(join(CORPUS, file), 'utf8'));
      const lmx = readFileSync(join(out, record.path, 'draft.lmx'), 'utf8');
      const lost = lacking(source, lmxWords(lmx));
      if (extension !== 'tsx') {
        const lines = blockLines(readFileSync(join(CORPUS, file), 'utf8'));
        const flattened = new Set(record.remediation.filter((item) => item.outcome === 'flattened').map((item) => item.line));
        if (lines.length > 0) blocks[file] = `${lines.filter((line) => flattened.has(line)).length} of ${lines.length} listed`;
      }
      if (extension !== 'tsx') expect(lost.length, `${file}: ${lost.join(' ')}`).toBeLessThanOrEqual(words.source - words.kept);
      const notCarried = record.remediation.filter((item) => item.outcome === 'not carried');
      const named = record.remediation.filter((item) => item.outcome === 'dropped');
      if (words.kept < words.source) expect(notCarried.length + named.length, file).toBeGreaterThan(0);
      if (links.kept < links.source || images.kept < images.source) expect(record.remediation.length, file).toBeGreaterThan(0);
    }
    expect(blocks).toMatchInlineSnapshot(`
      {
        "foundation-emails-mc/marketing.html": "1 of 1 listed",
        "mjml-vendure/order-confirmation.mjml": "12 of 12 listed",
        "mjml/raw-readme-2.mjml": "1 of 1 listed",
      }
    `);
    expect(measured).toMatchInlineSnapshot(`
      {
        "foundation-emails-cm/drip.html": "words 90/94, links 5/5, images 7/7, layout 12/17, positions 16/16, colours 17/17",
        "foundation-emails-cm/hero.html": "words 118/119, links 1/1, images 2/2, layout 20/23, positions 21/21, colours 23/23",
        "foundation-emails-cm/marketing.html": "words 103/112, links 5/5, images 9/9, layout 14/27, positions 26/27, colours 27/27",
        "foundation-emails-cm/newsletter.html": "words 116/120, links 0/0, images 1/1, layout 8/12, positions 12/12, colours 16/16",
        "foundation-emails-cm/password.html": "words 40/42, links 0/0, images 1/1, layout 9/9, positions 7/8, colours 8/8",
        "foundation-emails-cm/sidebar-hero.html": "words 232/233, links 1/1, images 2/2, layout 31/34, positions 28/32, colours 35/35",
        "foundation-emails-mc/basic.html": "words 122/122, links 1/2, images 1/1, layout 10/18, positions 16/16, colours 17/17",
        "foundation-emails-mc/drip.html": "words 90/94, links 5/7, images 7/7, layout 12/17, positions 16/16, colours 17/17",
        "foundation-emails-mc/hero.html": "words 118/119, links 1/2, images 2/2, layout 13/23, positions 21/21, colours 23/23",
        "foundation-emails-mc/marketing.html": "words 103/113, links 5/8, images 9/9, layout 14/27, positions 26/27, colours 27/27",
        "foundation-emails-mc/newsletter-2.html": "words 176/180, links 0/1, images 2/2, layout 6/16, positions 15/16, colours 16/16",
        "foundation-emails-mc/newsletter.html": "words 116/120, links 0/1, images 1/1, layout 8/12, positions 12/12, colours 16/16",
        "foundation-emails-mc/password.html": "words 40/42, links 0/1, images 1/1, layout 9/9, positions 7/8, colours 8/8",
        "foundation-emails-mc/sidebar-hero.html": "words 232/233, links 1/2, images 2/2, layout 11/34, positions 28/32, colours 35/35",
        "foundation-emails-mc/sidebar.html": "words 199/200, links 1/2, images 1/1, layout 7/30, positions 24/28, colours 30/30",
        "foundation-emails-mc/welcome.html": "words 58/58, links 0/2, images 1/1, layout 6/14, positions 14/14, colours 14/14",
        "foundation-emails/basic.html": "words 124/124, links 1/1, images 1/1, layout 10/18, positions 16/16, colours 17/17",
        "foundation-emails/drip.html": "words 94/94, links 5/5, images 7/7, layout 12/17, positions 16/16, colours 19/19",
        "foundation-emails/hero.html": "words 121/121, links 1/1, images 2/2, layout 13/24, positions 22/22, colours 24/24",
        "foundation-emails/marketing.html": "words 110/110, links 5/5, images 9/9, layout 14/27, positions 26/27, colours 30/30",
        "foundation-emails/newsletter-2.html": "words 180/180, links 0/0, images 2/2, layout 6/16, positions 15/16, colours 17/17",
        "foundation-emails/newsletter.html": "words 120/120, links 0/0, images 1/1, layout 8/12, positions 12/12, colours 17/17",
        "foundation-emails/order.html": "words 147/147, links 0/0, images 1/1, layout 16/22, positions 20/20, colours 20/20",
        "foundation-emails/password.html": "words 42/42, links 0/0, images 1/1, layout 9/9, positions 7/8, colours 9/9",
        "foundation-emails/sidebar-hero.html": "words 235/235, links 1/1, images 2/2, layout 11/35, positions 29/33, colours 36/36",
        "foundation-emails/sidebar.html": "words 200/200, links 1/1, images 1/1, layout 7/31, positions 25/29, colours 31/31",
        "foundation-emails/welcome.html": "words 58/58, links 0/0, images 1/1, layout 6/14, positions 14/14, colours 14/14",
        "html-authjs/sign-in.html": "words 20/20, links 1/1, images 0/0, layout 3/3, positions 3/3, colours 3/3",
        "html-ecomplus/abandoned-cart.html": "words 82/82, links 5/5, images 2/2, layout 9/19, positions 19/19, colours 21/21",
        "html-ecomplus/delivered.html": "words 120/120, links 5/5, images 2/2, layout 14/28, positions 28/28, colours 30/30",
        "html-ecomplus/new-order-pt-br.html": "words 128/128, links 6/6, images 2/2, layout 15/29, positions 29/29, colours 32/32",
        "html-ecomplus/new-order.html": "words 119/119, links 6/6, images 2/2, layout 15/29, positions 29/29, colours 32/32",
        "html-ecomplus/paid.html": "words 111/111, links 6/6, images 2/2, layout 14/28, positions 28/28, colours 31/31",
        "html-ecomplus/promo.html": "words 34/34, links 4/4, images 2/2, layout 8/11, positions 11/11, colours 12/12",
        "html-ecomplus/refunded.html": "words 37/37, links 4/4, images 1/1, layout 7/8, positions 8/8, colours 9/9",
        "html-ecomplus/shipped.html": "words 142/142, links 7/7, images 2/2, layout 16/30, positions 30/30, colours 34/34",
        "html-ecomplus/welcome.html": "words 29/29, links 3/3, images 1/1, layout 7/7, positions 7/7, colours 7/7",
        "html-leemunroe/email-styled.html": "words 72/72, links 3/3, images 0/0, layout 7/7, positions 6/7, colours 9/9",
        "html-leemunroe/email.html": "words 72/72, links 3/3, images 0/0, layout 7/7, positions 6/7, colours 9/9",
        "html-mailgen/cerberus-readme-action.html": "words 75/75, links 6/6, images 0/0, layout 11/12, positions 10/10, colours 12/13",
        "html-mailgen/cerberus-readme-table.html": "words 48/48, links 2/2, images 0/0, layout 12/12, positions 12/12, colours 12/13",
        "html-mailgen/cerberus-receipt-styled.html": "words 70/70, links 3/3, images 0/0, layout 12/12, positions 11/11, colours 11/12",
        "html-mailgen/cerberus-receipt.html": "words 70/70, links 3/3, images 0/0, layout 12/12, positions 11/11, colours 11/12",
        "html-mailgen/cerberus-reset.html": "words 54/54, links 3/3, images 0/0, layout 9/9, positions 8/8, colours 8/9",
        "html-mailgen/cerberus-welcome.html": "words 50/50, links 3/3, images 0/0, layout 9/9, positions 8/8, colours 8/9",
        "html-mailgen/default-readme-action.html": "words 75/75, links 6/6, images 0/0, layout 9/10, positions 8/10, colours 12/13",
        "html-mailgen/default-readme-table.html": "words 48/48, links 2/2, images 0/0, layout 12/12, positions 12/12, colours 12/13",
        "html-mailgen/default-receipt-styled.html": "words 70/70, links 3/3, images 0/0, layout 11/11, positions 10/11, colours 11/12",
        "html-mailgen/default-receipt.html": "words 70/70, links 3/3, images 0/0, layout 11/11, positions 10/11, colours 11/12",
        "html-mailgen/default-reset.html": "words 54/54, links 3/3, images 0/0, layout 8/8, positions 7/8, colours 8/9",
        "html-mailgen/default-welcome.html": "words 50/50, links 3/3, images 0/0, layout 8/8, positions 7/8, colours 8/9",
        "html-mailgen/neopolitan-readme-action.html": "words 75/75, links 6/6, images 0/0, layout 2/12, positions 10/10, colours 12/13",
        "html-mailgen/neopolitan-readme-table.html": "words 48/48, links 2/2, images 0/0, layout 0/13, positions 12/12, colours 13/13",
        "html-mailgen/neopolitan-receipt-styled.html": "words 70/70, links 3/3, images 0/0, layout 1/11, positions 10/10, colours 11/11",
        "html-mailgen/neopolitan-receipt.html": "words 70/70, links 3/3, images 0/0, layout 1/11, positions 10/10, colours 11/11",
        "html-mailgen/neopolitan-reset.html": "words 54/54, links 3/3, images 0/0, layout 1/9, positions 7/7, colours 8/8",
        "html-mailgen/neopolitan-welcome.html": "words 50/50, links 3/3, images 0/0, layout 1/9, positions 7/7, colours 8/8",
        "html-mailgen/postmark-receipt.html": "words 66/66, links 3/3, images 0/0, layout 11/11, positions 10/11, colours 11/12",
        "html-mailgen/postmark-reset.html": "words 50/50, links 3/3, images 0/0, layout 8/8, positions 7/8, colours 8/9",
        "html-mailgen/postmark-welcome.html": "words 46/46, links 3/3, images 0/0, layout 8/8, positions 7/8, colours 8/9",
        "html-mailgen/salted-readme-action.html": "words 72/72, links 6/6, images 0/0, layout 3/12, positions 9/9, colours 10/12",
        "html-mailgen/salted-readme-table.html": "words 45/45, links 2/2, images 0/0, layout 0/12, positions 11/11, colours 12/12",
        "html-mailgen/salted-receipt-styled.html": "words 67/67, links 3/3, images 0/0, layout 1/12, positions 10/10, colours 11/11",
        "html-mailgen/salted-receipt.html": "words 67/67, links 3/3, images 0/0, layout 1/12, positions 10/10, colours 11/11",
        "html-mailgen/salted-reset.html": "words 51/51, links 3/3, images 0/0, layout 1/9, positions 7/7, colours 7/8",
        "html-mailgen/salted-welcome.html": "words 47/47, links 3/3, images 0/0, layout 1/9, positions 7/7, colours 7/8",
        "html-mailgun/action.html": "words 42/42, links 2/2, images 0/0, layout 5/5, positions 5/5, colours 6/6",
        "html-mailgun/alert.html": "words 49/49, links 2/2, images 0/0, layout 7/7, positions 6/6, colours 6/6",
        "html-mailgun/billing.html": "words 41/41, links 2/2, images 0/0, layout 9/9, positions 9/9, colours 9/10",
        "mjml-covalent/welcome-letter.mjml": "words 155/155, links 8/8, images 1/1, layout 19/25, positions 23/23, colours 24/27",
        "mjml-covalent/workshop.mjml": "words 180/180, links 12/12, images 5/5, layout 33/33, positions 27/27, colours 26/30",
        "mjml-vendure/email-address-change.mjml": "words 31/31, links 1/1, images 0/0, layout 6/6, positions 4/4, colours 4/4",
        "mjml-vendure/email-verification.mjml": "words 26/26, links 1/1, images 0/0, layout 6/6, positions 4/4, colours 4/4",
        "mjml-vendure/order-confirmation.mjml": "words 25/25, links 0/0, images 0/1, layout 21/21, positions 18/18, colours 18/18",
        "mjml-vendure/password-reset.mjml": "words 35/35, links 1/1, images 0/0, layout 7/7, positions 5/5, colours 5/5",
        "mjml/accordion-readme.mjml": "words 75/75, links 0/0, images 0/0, layout 5/5, positions 4/4, colours 4/4",
        "mjml/body-readme.mjml": "words 0/0, links 0/0, images 0/0, layout 0/0, positions 0/0, colours 0/0",
        "mjml/button-readme.mjml": "words 4/4, links 0/0, images 0/0, layout 1/1, positions 1/1, colours 0/0",
        "mjml/carousel-readme.mjml": "words 0/0, links 0/0, images 3/3, layout 3/3, positions 0/3, colours 3/3",
        "mjml/column-readme.mjml": "words 0/0, links 0/0, images 0/0, layout 0/0, positions 0/0, colours 0/0",
        "mjml/divider-readme.mjml": "words 0/0, links 0/0, images 0/0, layout 1/1, positions 0/0, colours 0/0",
        "mjml/group-readme.mjml": "words 30/30, links 0/0, images 2/2, layout 7/7, positions 6/6, colours 6/6",
        "mjml/head-attributes-readme.mjml": "words 2/2, links 0/0, images 0/0, layout 1/1, positions 1/1, colours 1/1",
        "mjml/head-breakpoint-readme.mjml": "words 2/2, links 0/0, images 0/0, layout 1/1, positions 1/1, colours 1/1",
        "mjml/head-font-readme.mjml": "words 2/2, links 0/0, images 0/0, layout 1/1, positions 1/1, colours 1/1",
        "mjml/head-html-attributes-readme.mjml": "words 2/2, links 0/0, images 0/0, layout 1/1, positions 1/1, colours 1/1",
        "mjml/head-preview-readme.mjml": "words 2/2, links 0/0, images 0/0, layout 1/1, positions 1/1, colours 1/1",
        "mjml/head-style-readme.mjml": "words 14/14, links 0/0, images 0/0, layout 3/3, positions 3/3, colours 3/3",
        "mjml/head-title-readme.mjml": "words 2/2, links 0/0, images 0/0, layout 1/1, positions 1/1, colours 1/1",
        "mjml/hero-readme.mjml": "words 7/7, links 1/1, images 0/0, layout 2/2, positions 2/2, colours 0/2",
        "mjml/image-readme.mjml": "words 0/0, links 0/0, images 1/1, layout 1/1, positions 1/1, colours 1/1",
        "mjml/navbar-readme.mjml": "words 7/7, links 4/4, images 0/0, layout 1/1, positions 1/1, colours 5/5",
        "mjml/raw-readme-2.mjml": "words 0/0, links 0/0, images 0/0, layout 0/0, positions 0/0, colours 0/0",
        "mjml/raw-readme-3.mjml": "words 0/10, links 0/0, images 0/0, layout 0/0, positions 0/0, colours 0/0",
        "mjml/raw-readme.mjml": "words 0/0, links 0/0, images 0/0, layout 0/0, positions 0/0, colours 0/0",
        "mjml/section-readme.mjml": "words 0/0, links 0/0, images 0/0, layout 0/0, positions 0/0, colours 0/0",
        "mjml/social-readme.mjml": "words 4/4, links 8/8, images 0/0, layout 2/2, positions 1/1, colours 5/5",
        "mjml/spacer-readme.mjml": "words 10/10, links 0/0, images 0/0, layout 2/2, positions 2/2, colours 2/2",
        "mjml/table-readme.mjml": "words 13/13, links 0/0, images 0/0, layout 3/3, positions 3/3, colours 3/3",
        "mjml/text-readme.mjml": "words 4/4, links 0/0, images 0/0, layout 3/3, positions 3/3, colours 3/3",
        "mjml/wrapper-readme.mjml": "words 8/8, links 0/0, images 1/1, layout 4/4, positions 3/3, colours 3/3",
        "react-email-1.2/notion-magic-link.tsx": "words 57/57, links 2/2, images 1/1, layout 8/8, positions 8/8, colours 8/9",
        "react-email-1.2/plaid-verify-identity.tsx": "words 30/30, links 1/1, images 1/1, layout 2/8, positions 7/7, colours 8/8",
        "react-email-1.2/stripe-welcome.tsx": "words 163/163, links 6/6, images 1/1, layout 13/13, positions 9/10, colours 15/15",
        "react-email-1.2/vercel-invite-user.tsx": "words 68/68, links 3/3, images 4/4, layout 5/12, positions 10/10, colours 12/12",
        "react-email-proofkit/auth-code.tsx": "words 23/29, links 0/0, images 1/1, layout 1/6, positions 5/5, colours 5/5",
        "react-email-proofkit/generic.tsx": "words 0/0, links 1/1, images 1/1, layout 3/6, positions 5/5, colours 5/5",
        "react-email/notion-magic-link.tsx": "words 57/57, links 2/2, images 1/1, layout 8/8, positions 8/8, colours 8/9",
        "react-email/plaid-verify-identity.tsx": "words 30/30, links 1/1, images 1/1, layout 2/8, positions 7/7, colours 8/8",
        "react-email/stripe-welcome.tsx": "words 163/163, links 6/6, images 1/1, layout 13/13, positions 9/10, colours 15/15",
        "react-email/vercel-invite-user.tsx": "words 68/68, links 3/3, images 4/4, layout 5/12, positions 10/10, colours 12/12",
      }
    `);
  });
});
