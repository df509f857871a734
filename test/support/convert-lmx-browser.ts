/**
 * The other half of the fidelity line's layout held to a real browser: each corpus email is
 * converted (MJML, React Email and HTML), its LMX rendered as `content render` renders it, and the
 * rendered page drawn in Chromium at 600 and 375 px. The content box of each top-level block there
 * (its cell, less the padding the block's attributes give it) is compared with the box convert's
 * model of the renderer (src/convert/layout/lmx-layout.ts) computes for it: the box the
 * fidelity line compares with the source's. Four test files share it, a kind of source each (the
 * HTML emails in two: Foundation for Emails' templates and the rest), so that none takes more than
 * its share of the suite.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { placeholderImages } from '../../src/base/page-images.js';
import { convertDocument, type SourceDocument } from '../../src/convert/document.js';
import { sourceOf } from '../../src/convert/layout/block-source.js';
import { SourceLayout } from '../../src/convert/layout/layout.js';
import { compareLayout, LAYOUT_TOLERANCE, VIEWPORTS } from '../../src/convert/layout/layout-compare.js';
import { layoutLmx } from '../../src/convert/layout/lmx-layout.js';
import { Findings } from '../../src/convert/model.js';
import { readHtml } from '../../src/convert/sources/html-source.js';
import { readMjml } from '../../src/convert/sources/mjml-source.js';
import { readReact } from '../../src/convert/sources/react-source.js';
import { parseLmx } from '../../src/lmx/index.js';
import { renderLmx } from '../../src/lmx/render/index.js';
import { describeBrowser, type TestBrowser } from './browser.js';
import { corpusDirectory } from './convert-corpus.js';

/** The corpus's emails of the kinds `pattern` names (its file names' endings), in order. */
export function corpusFiles(corpus: string, pattern: RegExp): string[] {
  return readdirSync(corpus, { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file))
    .sort();
}

/** A corpus email read as convert reads its kind of source. */
export function read(corpus: string, file: string, findings: Findings): SourceDocument {
  const source = readFileSync(join(corpus, file), 'utf8');
  if (file.endsWith('.mjml')) return readMjml(source, file, findings, { readInclude: () => ({ file: '', source: '' }) });
  if (file.endsWith('.tsx')) return readReact(source, file, findings);
  return readHtml(source, file, findings);
}

/**
 * The rendered email as a recipient's client draws it, its images placeholders of their size; `mark`
 * puts each top-level block in a marked wrapper, which takes the block's width as the block's own
 * table does.
 */
export function drawnLmx(lmx: string, mark: boolean): string {
  const { document } = parseLmx(lmx);
  // Each variable drawn as the empty value its send may give it, not as its name (`{data.invite_sender_organization_name}`
  // is one word wider than a phone): its length is the send's, which no layout can know.
  const rendered = renderLmx(document, { emptyWhenAbsent: ['contact', 'event', 'data'] });
  let html = rendered.html;
  let from = 0;
  if (mark)
    rendered.blocks.forEach((block, index) => {
      const at = html.indexOf(block.html, from);
      if (at < 0) throw new Error(`block ${index} not found in the rendered email`);
      const wrapped = `<div data-lc-block="${index}">${block.html}</div>`;
      html = html.slice(0, at) + wrapped + html.slice(at + block.html.length);
      from = at + wrapped.length;
    });
  // Images drawn as placeholders of their own size, and the page measured once every image has loaded or failed: the same boxes on every run.
  // An image whose address the renderer cannot draw (the corpus's `/static/…`) is a grey box of its alt text, which no
  // sent email shows: its words may break and its sides hold no padding, so that it shrinks to its column as an image does.
  return placeholderImages(html, 'not loaded').replace(
    '</head>',
    '<style>div[role="img"]{overflow-wrap:anywhere;padding-left:0!important;padding-right:0!important}</style></head>',
  );
}

/** The content box of each marked block: the cell its table draws it in, less that cell's padding. */
const MEASURE = `(count) => Array.from({ length: count }, (_, index) => {
  const wrapper = document.querySelector('[data-lc-block="' + index + '"]');
  const cell = wrapper?.querySelector(':scope > table > tbody > tr > td');
  if (!cell) return undefined;
  const rect = cell.getBoundingClientRect();
  const style = getComputedStyle(cell);
  const px = (value) => Number.parseFloat(value) || 0;
  return { left: rect.left + px(style.paddingLeft) + px(style.borderLeftWidth), right: rect.right - px(style.paddingRight) - px(style.borderRightWidth) };
})`;

/** What drawing each converted email of the corpus in Chromium shows of convert's model of the renderer. */
export interface LmxDrawn {
  /** Top-level blocks measured, at both widths. */
  measured: number;
  /** Blocks whose box in Chromium is apart from the model's by more than the tolerance. */
  off: string[];
  /** Blocks left narrower than a few letters by the padding carried into them. */
  squeezed: string[];
  /** Emails whose page is wider than a phone's screen, where no entry lists it and the source fits. */
  widened: string[];
}

async function drawCorpus(browser: TestBrowser, pattern: RegExp): Promise<LmxDrawn> {
  // One tab, each email loaded once and measured at each width in turn: a tab made narrower lays
  // the page out again as a new load at that width would, for about half the browser's work.
  const page = await browser.page(VIEWPORTS[0], 800);
  let measured = 0;
  const off: string[] = [];
  const squeezed: string[] = [];
  const widened: string[] = [];
  // The corpus laid out for the test file that runs now: a worker that runs several files keeps this module, not their directories.
  const corpus = corpusDirectory();
  for (const file of corpusFiles(corpus, pattern)) {
    const findings = new Findings();
    const source = read(corpus, file, findings);
    const { lmx, style, blocks } = convertDocument(source, 'transactional', findings);
    compareLayout(source.body, style, blocks, findings);
    const html = drawnLmx(lmx, true);
    await page.setContent(html, { waitUntil: 'load' });
    for (const width of VIEWPORTS) {
      await page.setViewportSize({ width, height: 800 });
      // A page wider than a phone's screen is one the fidelity line lists, at the block that widens it.
      const pageWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      if (width === VIEWPORTS[1] && pageWidth > width + LAYOUT_TOLERANCE) {
        const listed = findings.remediation.some((item) => item.outcome === 'not carried' && item.done.includes('wider than the screen'));
        // A source that is wider than the phone's screen too (its model held to Chromium by convert-layout-browser.test.ts) is drawn as it is.
        const sourceLayout = new SourceLayout(source.body, width);
        const sourceWide = blocks.some((block) => (sourceLayout.of(sourceOf(block)?.element ?? source.body)?.box.right ?? 0) > width + LAYOUT_TOLERANCE);
        if (!listed && !sourceWide) widened.push(`${file}: ${pageWidth} px`);
      }
      const boxes = (await page.evaluate(`(${MEASURE})(${blocks.length})`)) as ({ left: number; right: number } | undefined)[];
      const model = layoutLmx(style, blocks, width);
      blocks.forEach((block, at) => {
        const drawn = boxes[at];
        const modelled = model.get(block)?.box;
        if (drawn === undefined || modelled === undefined) return;
        measured += 1;
        // Text the carried padding leaves no room for: squeezed to a few letters a line, the page pushed wider than the screen.
        if (block.tag !== 'Columns' && modelled.right - modelled.left < 60) squeezed.push(`${file} block ${at} <${block.tag}> at ${width}`);
        if (Math.abs(drawn.left - modelled.left) > LAYOUT_TOLERANCE || Math.abs(drawn.right - modelled.right) > LAYOUT_TOLERANCE)
          off.push(
            `${file} block ${at} <${block.tag}> at ${width}: model ${Math.round(modelled.left)}–${Math.round(modelled.right)}, Chromium ${Math.round(drawn.left)}–${Math.round(drawn.right)}`,
          );
      });
    }
  }
  console.log(`${measured} blocks measured, ${off.length} apart:\n${off.join('\n')}`);
  return { measured, off, squeezed, widened };
}

/**
 * Converts each corpus email of the kinds `pattern` names, draws its LMX as `content render` renders
 * it in Chromium at 600 and 375 px, and hands `check` what the drawing shows of the model.
 */
export function describeLmxAgainstModel(kinds: string, pattern: RegExp, check: (drawn: LmxDrawn) => void): void {
  describe(`the rendered LMX of ${kinds} against convert’s model of it, in Chromium`, () => {
    const chromium = describeBrowser();

    it('draws every converted email’s top-level blocks where the fidelity line’s model puts them, at 600 and 375 px', async (context) => {
      check(await drawCorpus(chromium(context, `the rendered LMX of ${kinds} against convert’s model`), pattern));
    }, 180_000);
  });
}
