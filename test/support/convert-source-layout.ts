/**
 * What the tests that hold convert's model of a source's layout to Chromium share (the MJML and the
 * HTML of the corpus, a file each so that none takes more than its share of the suite, and the rows the HTML reader stacks on a phone): each
 * source marked with the places of its elements, drawn as its recipients' clients draw it (MJML
 * compiled by `mjml`, HTML with only the rules of its `<style>`s that convert reads: those of a
 * screen's `max-width` media queries, which the model follows as Chromium does; the rest convert
 * lists as dropped), and the content box of every element a converted block stands in measured at
 * 600 and 375 px against the model's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCss } from 'postcss';
import { convertDocument, type SourceDocument } from '../../src/convert/document.js';
import { LAYOUT_TOLERANCE, VIEWPORTS } from '../../src/convert/layout/layout-compare.js';
import { Findings } from '../../src/convert/model.js';
import { DESKTOP_WIDTH, maxWidthOf, minWidthOf } from '../../src/convert/sources/html-rules.js';
import { readHtml } from '../../src/convert/sources/html-source.js';
import { readMjml } from '../../src/convert/sources/mjml-source.js';
import { LineIndex } from '../../src/lmx/index.js';
import type { Page } from './browser.js';
import { measureBoxes, pairs } from './convert-layout.js';

/** The corpus's files of one kind (`.html`, `.mjml`), their paths relative to it, in order. */
export function corpusFiles(corpus: string, extension: string): string[] {
  return readdirSync(corpus, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension))
    .sort();
}

/** Every start tag of a source marked with its place: `css-class="lc-L-C"` on MJML's elements, `data-lc="L-C"` on HTML's. */
export function marked(source: string): string {
  const lines = new LineIndex(source);
  let out = '';
  let last = 0;
  for (const match of source.matchAll(/<([a-zA-Z][\w-]*)(?=[\s/>])/g)) {
    const end = match.index + match[0].length;
    const { line, column } = lines.at(match.index);
    const name = match[1]!.toLowerCase();
    if (
      name === 'mjml' ||
      name === 'html' ||
      name === 'head' ||
      name.startsWith('mj-head') ||
      ['mj-attributes', 'mj-all', 'mj-class', 'mj-title', 'mj-preview', 'mj-style', 'mj-font', 'mj-breakpoint'].includes(name)
    )
      continue;
    // An element's own css-class holds the mark too: MJML reads the first of two.
    const own = name.startsWith('mj-') ? /^[^>]*?\scss-class="([^"]*)"/.exec(source.slice(end)) : null;
    if (own !== null) {
      const at = end + own[0].length - 1;
      out += `${source.slice(last, at)} lc-${line}-${column}`;
      last = at;
      continue;
    }
    out += `${source.slice(last, end)} ${name.startsWith('mj-') ? 'css-class' : 'data-lc'}="lc-${line}-${column}"`;
    last = end;
  }
  return out + source.slice(last);
}

/**
 * An HTML source's <style>s holding only the rules convert reads: those for every screen, those
 * of a screen's `max-width` media queries, and a desktop's `min-width` ones up to the email's width
 * (not print's, dark mode's or a wider screen's).
 */
export function readRulesOnly(html: string): string {
  return html.replace(/(<style[^>]*>)([\s\S]*?)(<\/style>)/gi, (_whole, open: string, css: string, close: string) => {
    try {
      const root = parseCss(css);
      root.each((node) => {
        if (node.type !== 'atrule') return;
        const from = minWidthOf(node.params);
        const read = maxWidthOf(node.params) !== undefined || (from !== undefined && from <= DESKTOP_WIDTH);
        if (node.name.toLowerCase() !== 'media' || !read) node.remove();
      });
      return `${open}${root.toString()}${close}`;
    } catch {
      // A stylesheet convert cannot read: drawn without it, as convert reads none of it.
      return `${open}${close}`;
    }
  });
}

export interface Measured {
  file: string;
  width: number;
  place: string;
  model: { left: number; right: number };
  browser: { left: number; right: number } | undefined;
}

/** Each corpus file's blocks measured in the page, as the model places them and as Chromium draws them. */
export async function measureSources(page: Page, corpus: string, files: readonly string[]): Promise<Measured[]> {
  // @ts-expect-error: mjml ships no types; the test only calls it.
  const mjml: (source: string) => { html: string } = files.some((file) => file.endsWith('.mjml')) ? (await import('mjml')).default : () => ({ html: '' });
  const measured: Measured[] = [];
  for (const file of files) {
    const source = readFileSync(join(corpus, file), 'utf8');
    const findings = new Findings();
    const document: SourceDocument = file.endsWith('.mjml')
      ? readMjml(source, file, findings, { readInclude: () => ({ file: '', source: '' }) })
      : readHtml(source, file, findings);
    const { blocks } = convertDocument(document, 'transactional', findings);
    const html = file.endsWith('.mjml') ? mjml(marked(source)).html : readRulesOnly(marked(source));
    for (const item of await measureBoxes(page, html, document.body, pairs(blocks), VIEWPORTS)) measured.push({ file, ...item });
  }
  return measured;
}

/** The boxes Chromium drew, and those of them the model places more than the tolerance away, printed. */
export function apart(measured: readonly Measured[]): { found: Measured[]; off: Measured[] } {
  const found = measured.filter((item) => item.browser !== undefined);
  const off = found.filter(
    (item) => Math.abs(item.model.left - item.browser!.left) > LAYOUT_TOLERANCE || Math.abs(item.model.right - item.browser!.right) > LAYOUT_TOLERANCE,
  );
  const shown = off.map(
    (item) =>
      `${item.file} ${item.place} at ${item.width}: model ${Math.round(item.model.left)}–${Math.round(item.model.right)}, Chromium ${Math.round(item.browser!.left)}–${Math.round(item.browser!.right)}`,
  );
  console.log(`${found.length} boxes measured, ${off.length} apart, in ${new Set(off.map((item) => item.file)).size} files:\n${shown.join('\n')}`);
  return { found, off };
}
