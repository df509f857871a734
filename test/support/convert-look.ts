/**
 * Colours and positions as recipients see them, measured in Chromium: each corpus email drawn as
 * its source draws (MJML compiled by `mjml`, HTML with the rules convert reads, React Email
 * rendered by its renderer) and as its converted LMX renders, at 600 and 375 px, and every block a
 * converted block stands for compared there. For each block: its text's colour and what is behind
 * it (the colours of its box and every box around it, one over the other, down to the page; a
 * background image where one is), its links' colour (and their underline's, where both drawings
 * underline them), and where it stands across its box (its text's lines at the left, centred, at
 * the right or filling it; an image or a button's face at a side, centred or across the box). The text of a block is found in the source by its first word, as
 * the LMX draws it (a template's tags left out; of several, the one that starts with most of its
 * words), a button's by its whole label. A block counts as kept where every width draws it
 * as the source does. The test files, a kind of source each (the HTML emails in two, so that none
 * takes more than its share of the suite), hold each email's counts beside the fidelity line's
 * (convert's model of both drawings), and each block whose change convert does not list at that
 * block: by an entry of the change's kind that names one of the block's places. They hold too the
 * words a reader can read in each drawing at each width, beside the fidelity line's words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { compareColours } from '../../src/convert/contrast.js';
import { convertDocument } from '../../src/convert/document.js';
import { measureFidelity } from '../../src/convert/fidelity.js';
import { sourceOf } from '../../src/convert/layout/block-source.js';
import { compareLayout, LAYOUT_TOLERANCE, VIEWPORTS } from '../../src/convert/layout/layout-compare.js';
import type { LmxBlock } from '../../src/convert/lmx-out.js';
import { Findings, type Measure, type Place, type Remediation, type SourceElement, type SourceNode } from '../../src/convert/model.js';
import { describeBrowser, type Page } from './browser.js';
import { CONTENT_BOX, LOCATE, pairs, sizedImages } from './convert-layout.js';
import { corpusFiles, drawnLmx, read } from './convert-lmx-browser.js';
import { marked, readRulesOnly } from './convert-source-layout.js';
import { tempDir } from './main.js';
import { renderAll } from './react-render.js';

/** The blocks whose place across their box is an alignment of text, and those placed as a whole (an image, a button). */
const TEXT = new Set(['H1', 'H2', 'H3', 'Paragraph', 'Quote', 'CodeBlock', 'OrderedList', 'UnorderedList']);
const MEDIA = new Set(['Image', 'Button']);

/** What one block shows at one width: its text's colour and background, its links' colour, its place across its box. */
interface Look {
  text?: { word: string; label: string; lead: string[]; colour: string; background: string };
  link?: { word: string; colour: string; underline?: string };
  position?: Side;
  /** An image's or a button's face, and the boxes around it, innermost first: where it stands is worked out against the other drawing's; and the colour it stands on. */
  media?: { face: Edges; around: Edges[]; backdrop?: string };
}

type Side = 'left' | 'center' | 'right' | 'full';
type Edges = [number, number];

const width = ([left, right]: Edges) => right - left;

/** Where edges stand across a box: at a side, centred, or filling it. */
function side([left, right]: Edges, [outerLeft, outerRight]: Edges): Side {
  const [before, after] = [left - outerLeft, outerRight - right];
  if (before <= LAYOUT_TOLERANCE && after <= LAYOUT_TOLERANCE) return 'full';
  if (Math.abs(before - after) <= LAYOUT_TOLERANCE) return 'center';
  return before < after ? 'left' : 'right';
}

/**
 * Where an image or a button stands across its block's box. A face that fills a box the other
 * drawing's is much wider than (a cell that wraps the button tightly, the padding LMX keeps on a
 * phone around a shrunk image), is placed in the first box around it wider than it; where the
 * other drawing's face, about as wide (within a fifth), fills its box too (Mailgen's Neopolitan's
 * button in its narrow column on a phone, LMX's in its padded box), on the screen.
 */
function mediaSide(own: { face: Edges; around: Edges[] }, other: { face: Edges; around: Edges[] }): Side {
  const [first] = own.around;
  if (first === undefined) return 'full';
  if (side(own.face, first) !== 'full') return side(own.face, first);
  const [least, most] = [width(own.face), width(other.face)].sort((one, two) => one - two) as [number, number];
  if (other.around[0] !== undefined && side(other.face, other.around[0]) === 'full' && least >= 0.8 * most)
    return side(own.face, [0, Math.max(...[...own.around, ...other.around].map(([, right]) => right))]);
  if (width(own.face) >= 0.9 * width(other.around[0] ?? first)) return side(own.face, first);
  const wider = own.around.find((box) => width(box) > width(own.face) + 2 * LAYOUT_TOLERANCE);
  return side(own.face, wider ?? first);
}

/**
 * A block's look in the page, found by `find` (a script's function from the spec to the block's
 * box): a script's function, for the page. The words of the source are read as the LMX's, its
 * template tags (`{{name}}`, `*|FNAME|*`, `[firstname,fallback=…]`) left out, as LMX draws its
 * variables empty.
 */
const LOOK = `(specs, find, tolerance) => {
  const locate = ${LOCATE};
  const contentBox = ${CONTENT_BOX};
  const tokens = (text) => text.replace(/\\{\\{[\\s\\S]*?\\}\\}|\\{%[\\s\\S]*?%\\}|\\*\\|[^|]*\\|\\*|\\[[A-Za-z]\\w*(?:,\\s*fallback=[^\\]]*)?\\]/g, ' ').toLowerCase().match(/[\\p{L}\\p{N}]+/gu) ?? [];
  const token = (text) => tokens(text)[0];
  // A button's label, all its words: another text of the box may begin with the same word (a callout's "Click it!" above a "Click me" button).
  const label = (element) => tokens(element.textContent ?? '').join(' ');
  const rgba = (value) => {
    const parts = (value.match(/[\\d.]+/g) ?? []).map(Number);
    return parts.length < 3 ? [0, 0, 0, 0] : [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, below) => [0, 1, 2].map((at) => top[at] * top[3] + below[at] * (1 - top[3]));
  const hex = (rgb) => '#' + rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('');
  // What is behind an element: its colour and its ancestors', each over the one below, down to the page's white; an image where one stands behind.
  const behind = (element) => {
    const layers = [];
    for (let at = element; at !== null; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.backgroundImage !== 'none') return { image: true };
      const colour = rgba(style.backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    let rgb = [255, 255, 255];
    for (const layer of layers.reverse()) rgb = over(layer, rgb);
    return { rgb };
  };
  const drawn = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return [...range.getClientRects()].filter((rect) => rect.width >= 1 && rect.height >= 1);
  };
  // The first text drawn in a box (in a link or out of one, as asked), or the first of a word, or of an element of a label; with
  // \`lead\` (the words the LMX's text starts with), the one that starts with most of them: a table's row "Item 1", not its header's "Item".
  const firstText = (box, inLink, word, whole, lead) => {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    let best;
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      const found = token(node.data);
      if (parent === null || found === undefined || (word !== undefined && found !== word)) continue;
      if (whole !== undefined && label(parent) !== whole) continue;
      if (inLink !== undefined && (parent.closest('a') !== null) !== inLink) continue;
      if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || drawn(node).length === 0) continue;
      if (lead === undefined) return { node, parent, word: found };
      const words = tokens(node.data);
      let shared = 0;
      while (shared < words.length && words[shared] === lead[shared]) shared += 1;
      if (best === undefined || shared > best.shared) best = { node, parent, word: found, shared };
    }
    return best;
  };
  const colourOf = (element) => {
    const back = behind(element);
    const text = rgba(getComputedStyle(element).color);
    return { colour: hex(back.image ? text.slice(0, 3) : over(text, back.rgb)), background: back.image ? 'an image' : hex(back.rgb) };
  };
  // The colour a text's underline is drawn in: its innermost underlining box's (a browser draws it over those of the boxes around),
  // up to the first inline-block or float around the text, past which none reaches it; undefined where none underlines it.
  const underlineOf = (element) => {
    for (let at = element; at !== null; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.textDecorationLine.includes('underline')) {
        const back = behind(at);
        const colour = rgba(style.textDecorationColor);
        return hex(back.image ? colour.slice(0, 3) : over(colour, back.rgb));
      }
      if (style.display.startsWith('inline-') || style.float !== 'none' || style.position === 'absolute' || style.position === 'fixed') return undefined;
    }
    return undefined;
  };
  const side = (left, right) =>
    left <= tolerance && right <= tolerance ? 'full' : Math.abs(left - right) <= tolerance ? 'center' : left <= tolerance || left < right ? 'left' : 'right';
  // A text's alignment: each line of its block's own text against the block's content box; a line that fills it says nothing, nor text whose every line does.
  const alignment = (element) => {
    let block = element;
    while (block.parentElement !== null && getComputedStyle(block).display === 'inline') block = block.parentElement;
    const box = contentBox(block);
    const rects = [];
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      let holder = node.parentElement;
      while (holder !== block && getComputedStyle(holder).display === 'inline') holder = holder.parentElement;
      if (holder === block && token(node.data) !== undefined) rects.push(...drawn(node));
    }
    rects.sort((one, other) => one.top - other.top);
    const lines = [];
    for (const rect of rects) {
      const line = lines.at(-1);
      if (line !== undefined && rect.top < line.bottom - 2) {
        line.left = Math.min(line.left, rect.left);
        line.right = Math.max(line.right, rect.right);
        line.bottom = Math.max(line.bottom, rect.bottom);
      } else lines.push({ left: rect.left, right: rect.right, bottom: rect.bottom });
    }
    const counts = {};
    for (const line of lines) {
      const at = side(line.left - box.left, box.right - line.right);
      if (at !== 'full') counts[at] = (counts[at] ?? 0) + 1;
    }
    const most = Object.entries(counts).sort((one, other) => other[1] - one[1])[0];
    return most?.[0];
  };
  // An image's, or a button's face (the innermost box of a colour or a border around its link): its edges, and those of the boxes
  // around it to place it in: the block's content box, its padded box, then each box around those.
  const placed = (box, { tag, word, label }) => {
    // A button's label may stand outside a link: the renderer draws a button to an address it cannot link to as text.
    let face = tag === 'Image' ? box.querySelector('img, [role="img"]') : (firstText(box, undefined, word, label)?.parent ?? null);
    if (face === null) return undefined;
    if (tag === 'Button')
      for (let at = face; at !== null && at !== box; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (rgba(style.backgroundColor)[3] > 0 || Number.parseFloat(style.borderLeftWidth) > 0) {
          face = at;
          break;
        }
      }
    const rect = face.getBoundingClientRect();
    if (rect.width < 1) return undefined;
    const edges = (box) => [Math.round(box.left), Math.round(box.right)];
    const around = [edges(contentBox(box)), edges(box.getBoundingClientRect())];
    for (let at = box.parentElement; at !== null && around.length < 12; at = at.parentElement) around.push(edges(contentBox(at)));
    // What the face stands on: the colours of the boxes around it, down to the page (an image where one is), past the boxes
    // of the face's own colour (a source's button is a cell and a link of one colour, where LMX's is one cell; a link of no
    // colour of its own bordered in its cell's, Auth.js's, is part of that cell's face).
    const faceStyle = getComputedStyle(face);
    const own = rgba(faceStyle.backgroundColor)[3] > 0 ? faceStyle.backgroundColor : faceStyle.borderLeftColor;
    let outside = face.parentElement;
    while (outside !== null && outside !== document.body && getComputedStyle(outside).backgroundColor === own && rgba(own)[3] > 0) outside = outside.parentElement;
    const under = outside === null ? undefined : behind(outside);
    const backdrop = under === undefined ? undefined : under.image ? 'an image' : hex(under.rgb);
    return { face: edges(rect), around, backdrop };
  };
  const blocks = [...document.querySelectorAll('table[role="presentation"][width="100%"]')].filter((table) =>
    /^margin:0( 0 16px 0)?;border-collapse:separate$/.test(table.getAttribute('style') ?? ''),
  );
  const boxOf = find === 'lmx' ? (spec) => blocks[spec.index]?.querySelector(':scope > tbody > tr > td') ?? null : (spec) => locate(spec.place);
  const looks = specs.map((spec) => {
    const box = boxOf(spec);
    if (box === null || !box.checkVisibility()) return undefined;
    const look = {};
    // A button's label is its text, in its link; other blocks' text is outside their links.
    const text = firstText(box, spec.tag === 'Button' ? undefined : false, spec.word, spec.tag === 'Button' ? spec.label : undefined, spec.lead);
    if (text !== undefined) look.text = { word: text.word, label: label(text.parent), lead: tokens(text.node.data), ...colourOf(text.parent) };
    const link = spec.tag === 'Button' ? undefined : firstText(box, true, spec.linkWord);
    if (link !== undefined) look.link = { word: link.word, colour: colourOf(link.parent).colour, underline: underlineOf(link.parent) };
    if (spec.kind === 'text') {
      const position = (text ?? link) && alignment((text ?? link).parent);
      if (position !== undefined) look.position = position;
    } else {
      const media = placed(box, spec);
      if (media !== undefined) look.media = media;
    }
    return look;
  });
  // The words a reader can read on the page: drawn, not clipped away (a preheader in a box of no height), and at 3:1 or more
  // against what is drawn behind them (text over an image counted, as its picture is not judged); an image LMX draws as its alt text left out.
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((channel) => channel / 255).map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (one, other) => {
    const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a);
    return (light + 0.05) / (dark + 0.05);
  };
  const clipped = (element) => {
    for (let at = element; at !== null; at = at.parentElement) {
      const rect = at.getBoundingClientRect();
      if (getComputedStyle(at).overflow !== 'visible' && (rect.height < 1 || rect.width < 1)) return true;
    }
    return false;
  };
  let readable = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    const count = tokens(node.data).length;
    if (parent === null || count === 0 || parent.closest('[role="img"], style, script') !== null) continue;
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || drawn(node).length === 0 || clipped(parent)) continue;
    const back = behind(parent);
    const text = rgba(getComputedStyle(parent).color);
    if (back.image || contrast(over(text, back.rgb), back.rgb) >= 3) readable += count;
  }
  return { looks, blocks: blocks.length, readable };
}`;

/**
 * Images of placehold.it, which serves a picture of the size its address names (`/548x300`, `/120`),
 * given that size, so that the source draws them as a recipient sees them and not as a broken image.
 */
const namedSizes = (html: string) =>
  html.replace(
    /<img\b(?![^>]*\swidth\s*=)([^>]*\ssrc\s*=\s*["']?https?:\/\/placehold\.it\/(\d+)(?:x(\d+))?)/gi,
    (_tag, rest: string, width: string, height: string | undefined) => `<img width="${width}" height="${height ?? width}"${rest}`,
  );

/**
 * Campaign Monitor's tags of a value with its fallback (`[firstname,fallback=there]`) drawn as the
 * fallback, as a send to a contact of no such value shows them: written out, one is a word wider
 * than a phone, which makes the source's page wider than the screen.
 */
const fallbacks = (html: string) => html.replace(/\[[A-Za-z]\w*,\s*fallback=([^\]]*)\]/g, '$1');

/** The blocks of a converted email in the order the renderer draws their tables: a list's items and a row's columns are drawn inside their block's. */
function drawOrder(blocks: readonly LmxBlock[], into: LmxBlock[] = []): LmxBlock[] {
  for (const block of blocks) {
    into.push(block);
    if (block.tag === 'Section') drawOrder(block.blocks ?? [], into);
    if (block.tag === 'Columns') for (const item of block.blocks ?? []) drawOrder(item.blocks ?? [], into);
  }
  return into;
}

/** One email's colours and positions as drawn, and as convert's model counted them. */
export interface EmailLook {
  file: string;
  colours: Measure;
  positions: Measure;
  /** The model's counts (the fidelity line's). */
  model: { colours: Measure; positions: Measure };
  /** Each block drawn otherwise than its source, and how. */
  changes: { block: string; what: 'colour' | 'position'; said: string }[];
  /** The changes convert lists nothing of at the block: no entry of that kind (colour, position) that names a place of the block's. */
  unlisted: string[];
  /** Blocks the drawn LMX has no table for, where it should: the comparison is off. */
  unmatched: number;
  /** The words a reader can read in each drawing at each width: drawn, and at 3:1 or more against what is behind them. */
  readable: { width: number; source: number; lmx: number }[];
  /** The fidelity line's words: the source's, and those the LMX holds where a recipient can read them. */
  words: Measure;
}

const ENTRIES = {
  colour: /^(the colours? of|text less readable|words in #|a link in #|\d+ links in #)/,
  position: /^the (layout|position) of </,
} as const;

const placed = (at: Pick<Place, 'file' | 'line' | 'column'>) => `${at.file}:${at.line}:${at.column}`;

/**
 * The places in the source an entry of a block's may name: the element it stands in, the element it
 * draws (an image, a button), and every element and text inside those, but inside an element other
 * blocks stand in too (a column holding an image and a paragraph), which names none of them alone.
 */
function placesOf(block: LmxBlock, shared: ReadonlySet<SourceElement>): Set<string> {
  const places = new Set<string>();
  const walk = (node: SourceNode) => {
    places.add(placed(node.at));
    if (node.type === 'element') node.children.forEach(walk);
  };
  const from = sourceOf(block);
  if (from === undefined) return places;
  places.add(placed(from.element.at));
  if (!shared.has(from.element)) walk(from.element);
  if (from.own !== undefined) walk(from.own);
  return places;
}

/** Whether an entry names one of these places: its own, or one of the others it stands for. */
const names = (entry: Remediation, places: ReadonlySet<string>) => places.has(placed(entry)) || (entry.also ?? []).some((at) => places.has(placed(at)));

async function lookOf(page: Page, specs: readonly object[], find: 'lmx' | 'source', width: number) {
  await page.setViewportSize({ width, height: 800 });
  return (await page.evaluate(`(${LOOK})(${JSON.stringify(specs)}, ${JSON.stringify(find)}, ${LAYOUT_TOLERANCE})`)) as {
    looks: (Look | undefined)[];
    blocks: number;
    readable: number;
  };
}

/** Draws each email of `files` as its source and as converted, and compares every block's look at both widths. */
async function drawLooks(page: Page, corpus: string, files: readonly string[]): Promise<EmailLook[]> {
  // @ts-expect-error: mjml ships no types; the test only calls it.
  const mjml: (source: string) => { html: string } = files.some((file) => file.endsWith('.mjml')) ? (await import('mjml')).default : () => ({ html: '' });
  const reactFiles = files.filter((file) => file.endsWith('.tsx'));
  const rendered = reactFiles.length === 0 ? [] : await renderAll(corpus, reactFiles, tempDir('loopsctl-look-react-'));
  const results: EmailLook[] = [];
  for (const file of files) {
    const findings = new Findings();
    const document = read(corpus, file, findings);
    const { lmx, style, blocks } = convertDocument(document, 'transactional', findings);
    const { positions } = compareLayout(document.body, style, blocks, findings);
    const colours = compareColours(blocks, style, findings);
    const order = drawOrder(blocks);
    const paired = pairs(blocks).filter(({ block }) => TEXT.has(block.tag) || MEDIA.has(block.tag));
    const specs = paired.map(({ block, place }) => ({ index: order.indexOf(block), place, tag: block.tag, kind: TEXT.has(block.tag) ? 'text' : 'media' }));
    const source = file.endsWith('.mjml')
      ? mjml(marked(readFileSync(join(corpus, file), 'utf8'))).html
      : file.endsWith('.tsx')
        ? rendered[reactFiles.indexOf(file)]
        : readRulesOnly(marked(readFileSync(join(corpus, file), 'utf8')));
    if (typeof source !== 'string') throw new Error(`${file} did not render: ${String(source)}`);
    // Each page loaded once and drawn at each width in turn, as a new load at that width would draw it.
    // An image at an address of the app's own (`/static/logo.png`), which the renderer cannot draw, drawn at its size as a send's upload would be.
    await page.setContent(drawnLmx(lmx.replaceAll(' src="/', ' src="https://app.invalid/'), false), { waitUntil: 'load' });
    const converted: (Look | undefined)[][] = [];
    let unmatched = 0;
    const readable = VIEWPORTS.map((width) => ({ width, source: 0, lmx: 0 }));
    for (const [at, width] of VIEWPORTS.entries()) {
      const { looks, blocks: tables, readable: words } = await lookOf(page, specs, 'lmx', width);
      unmatched = Math.max(unmatched, order.length - tables);
      converted.push(looks);
      readable[at]!.lmx = words;
    }
    // Measured once every image has loaded or failed (an unsized one at an address no test reaches): the same boxes on every run.
    await page.setContent(sizedImages(namedSizes(fallbacks(source))), { waitUntil: 'load' });
    const original: (Look | undefined)[][] = [];
    for (const [at, width] of VIEWPORTS.entries()) {
      // The source's text found by the words the LMX draws first; text the LMX does not draw is not looked for (no word is empty).
      const worded = specs.map((spec, index) => ({
        ...spec,
        word: converted[at]![index]?.text?.word ?? '',
        label: converted[at]![index]?.text?.label,
        lead: converted[at]![index]?.text?.lead,
        linkWord: converted[at]![index]?.link?.word ?? '',
      }));
      const { looks, readable: words } = await lookOf(page, worded, 'source', width);
      original.push(looks);
      readable[at]!.source = words;
    }
    const look: EmailLook = {
      file,
      colours: { source: 0, kept: 0 },
      positions: { source: 0, kept: 0 },
      model: { colours, positions },
      changes: [],
      unlisted: [],
      unmatched,
      readable,
      words: measureFidelity(document, lmx, findings).words,
    };
    const elements = paired.map(({ block }) => sourceOf(block)?.element);
    const shared = new Set(elements.filter((element, index): element is SourceElement => element !== undefined && elements.indexOf(element) !== index));
    paired.forEach(({ block, place }, index) => {
      const name = `<${block.tag}> ${place}`;
      const places = placesOf(block, shared);
      const compare = (what: 'colour' | 'position', pick: (drawn: Look | undefined, other: Look | undefined) => string | undefined) => {
        const said: string[] = [];
        let seen = false;
        VIEWPORTS.forEach((width, at) => {
          const [source, lmx] = [original[at]![index], converted[at]![index]];
          const [was, is] = [pick(source, lmx), pick(lmx, source)];
          if (was === undefined || is === undefined) return;
          seen = true;
          if (was !== is) said.push(`${is} at ${width}, where the source has ${was}`);
        });
        if (!seen) return;
        const measure = what === 'colour' ? look.colours : look.positions;
        measure.source += 1;
        if (said.length === 0) {
          measure.kept += 1;
          return;
        }
        look.changes.push({ block: name, what, said: said.join('; ') });
        const listed = findings.remediation.some((entry) => ENTRIES[what].test(entry.construct) && names(entry, places));
        if (!listed && !look.unlisted.includes(`${name} ${what}`)) look.unlisted.push(`${name} ${what}`);
      };
      compare('colour', (drawn) => drawn?.text && `text ${drawn.text.colour} on ${drawn.text.background}`);
      // A link's underline is weighed where both drawings underline it: LMX underlines every link.
      compare('colour', (drawn, other) => {
        const underline = drawn?.link?.underline !== undefined && other?.link?.underline !== undefined ? `, underlined in ${drawn.link.underline}` : '';
        return drawn?.link && `link ${drawn.link.colour}${underline}`;
      });
      compare('colour', (drawn) => drawn?.media?.backdrop && `on ${drawn.media.backdrop}`);
      compare('position', (drawn, other) =>
        drawn?.media === undefined ? drawn?.position : other?.media === undefined ? undefined : mediaSide(drawn.media, other.media),
      );
    });
    results.push(look);
  }
  for (const result of results)
    console.log(
      `${result.file}: colours ${result.colours.kept}/${result.colours.source} (model ${result.model.colours.kept}/${result.model.colours.source}), positions ${result.positions.kept}/${result.positions.source} (model ${result.model.positions.kept}/${result.model.positions.source})${result.changes.map((change) => `\n  ${change.block} ${change.what}${result.unlisted.includes(`${change.block} ${change.what}`) ? ' (unlisted)' : ''}: ${change.said}`).join('')}`,
    );
  return results;
}

/**
 * Each email's counts as the test files hold them, measured and as convert's model counts them, and
 * the changes convert does not list at their blocks: `colours 7/8 (model 8/8), positions 16/16 (model 16/16), unlisted: <Paragraph> lc-58-29 colour`.
 */
export function counts(looks: readonly EmailLook[]): Record<string, string> {
  const figure = (measure: Measure) => `${measure.kept}/${measure.source}`;
  return Object.fromEntries(
    looks.map((look) => [
      look.file,
      `colours ${figure(look.colours)} (model ${figure(look.model.colours)}), positions ${figure(look.positions)} (model ${figure(look.model.positions)})` +
        (look.unlisted.length === 0 ? '' : `, unlisted: ${look.unlisted.join(', ')}`),
    ]),
  );
}

/**
 * Each email's readable words as the test files hold them, the source's and the conversion's at
 * each width, beside the fidelity line's words: `600 155 → 155, 375 150 → 155 (fidelity 155/155)`.
 */
export function readableWords(looks: readonly EmailLook[]): Record<string, string> {
  return Object.fromEntries(
    looks.map((look) => [
      look.file,
      `${look.readable.map(({ width, source, lmx }) => `${width} ${source} → ${lmx}`).join(', ')} (fidelity ${look.words.kept}/${look.words.source})`,
    ]),
  );
}

/**
 * The emails whose conversion Chromium draws with fewer readable words than the source at a width,
 * where the fidelity line says every word is kept: a loss the line does not count.
 */
export function uncountedLosses(looks: readonly EmailLook[]): string[] {
  return looks.filter((look) => look.readable.some(({ source, lmx }) => lmx < source) && look.words.kept === look.words.source).map((look) => look.file);
}

/**
 * Converts each corpus email of the kinds `pattern` names, draws it as its source and as its LMX in
 * Chromium at 600 and 375 px, and hands `check` each email's look.
 */
export function describeLooks(kinds: string, pattern: RegExp, corpus: () => string, check: (looks: EmailLook[]) => void): void {
  describe(`the colours and positions of ${kinds} as Chromium draws the source and the converted LMX`, () => {
    const chromium = describeBrowser();

    it('counts each block’s text colour, background, link colour and place across its box, at 600 and 375 px', async (context) => {
      const browser = chromium(context, `the colours and positions of ${kinds}`);
      const directory = corpus();
      check(await drawLooks(await browser.page(VIEWPORTS[0], 800), directory, corpusFiles(directory, pattern)));
    }, 180_000);
  });
}
