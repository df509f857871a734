/**
 * A whole email: the colours and fonts that hold for all of it go into `<Style />` (the page's
 * background, the body's colour, the font, the text's and links' colours), and its body into blocks.
 */
import { blocksOf } from './blocks.js';
import { contrastRatio, headingColours, keepContrast, SOURCE_TEXT, sourceLinkColour } from './contrast.js';
import { BROWSER_FONT_SIZE, INLINE_CODE, isButtonLink, type MapContext } from './inline.js';
import { carryLayout } from './layout/layout-carry.js';
import { block, type LmxBlock, writeLmx } from './lmx-out.js';
import { type ConvertKind, element, type Findings, type SourceElement, type SourceNode, type Style } from './model.js';
import { backgroundOf, fontOf, fontSizeWithin, hexColour, pixels } from './styles.js';
import { readTemplateBlocks } from './template-blocks.js';
import { settleTemplatedValues } from './template-values.js';

/** What a reader makes of a source file. */
export interface SourceDocument {
  /** The element whose content is the email (`<body>`, `<mj-body>`, React's `<Body>`). */
  body: SourceElement;
  subject?: string;
  previewText?: string;
  /** Fonts the source declares apart from the body (MJML's `<mj-font>`, `<mj-all font-family>`). */
  font?: string;
  /** The language the source says it is written in: an HTML document's `<html lang>`, React Email's `<Html lang>`, `<mjml lang>`. */
  lang?: string;
}

export interface ConvertedEmail {
  lmx: string;
  style: Record<string, string>;
  blocks: LmxBlock[];
  subject?: string;
  previewText?: string;
}

/** Where a piece of text stands: the style it inherits, the background under it, the colour of the link it is in. */
interface TextPlace {
  style: Style;
  background: string | undefined;
  link: string | undefined;
}

/** Every text of a tree, with where it stands, weighted by its length. */
function textStyles(node: SourceNode, inherited: TextPlace, visit: (place: TextPlace, length: number) => void): void {
  if (node.type !== 'element') {
    const length = node.type === 'text' ? node.text.trim().length : 4;
    if (length > 0) visit(inherited, length);
    return;
  }
  // A button's text has its own colours, and code its own font (LMX draws it in its code font): the body text's are those of the rest.
  if (
    node.name === 'x-button' ||
    isButtonLink(node) ||
    node.name === 'head' ||
    node.style.display === 'none' ||
    node.name === 'pre' ||
    INLINE_CODE.has(node.name)
  )
    return;
  const style = { ...inherited.style };
  for (const property of ['color', 'font-size', 'font-family']) if (node.style[property] !== undefined) style[property] = node.style[property]!;
  const background = backgroundOf(node.style, node.attrs) ?? inherited.background;
  const link = node.name === 'a' ? sourceLinkColour(node.style.color, inherited.style.color) : inherited.link;
  for (const child of node.children) textStyles(child, { style, background, link }, visit);
}

/** The value most of the text has. */
function mostCommon(weights: Map<string, number>): string | undefined {
  let best: string | undefined;
  let weight = 0;
  for (const [value, count] of weights) if (count > weight) [best, weight] = [value, count];
  return best;
}

/**
 * The email's body: of the boxes whose own background differs from the page's (and that stand in
 * no such box), the one that holds the most text, when that is a good part of it (a footer on the
 * page may hold more words than the body's few line items, but a small coloured badge is no body),
 * or that is as wide as a body; where a colour is given (the one most text sits on), the one of it that holds the most.
 */
function cardOf(
  body: SourceElement,
  page: string | undefined,
  total: number,
  colour?: string,
): { background: string; element: SourceElement; length: number } | undefined {
  const pending: SourceNode[] = [...body.children];
  let best: { background: string; element: SourceElement; length: number; wide: boolean } | undefined;
  while (pending.length > 0) {
    const node = pending.shift()!;
    if (node.type !== 'element' || node.name === 'x-columns') continue;
    const background = backgroundOf(node.style, node.attrs);
    if (background === undefined || background === page) {
      pending.push(...node.children);
      continue;
    }
    if (colour !== undefined && background !== colour) continue;
    let length = 0;
    textStyles(node, { style: {}, background, link: undefined }, (_place, count) => {
      length += count;
    });
    // A box as wide as an email's body (600 px, as most are) is its body, however few words it holds.
    const wide = (pixels(node.attrs.width ?? node.style.width ?? node.style['max-width']) ?? 0) >= 400;
    if (best === undefined || Number(wide) > Number(best.wide) || (wide === best.wide && length > best.length))
      best = { background, element: node, length, wide };
  }
  return best !== undefined && (best.wide || colour !== undefined || best.length * 10 >= total * 3) ? best : undefined;
}

/**
 * The body: the card, where it is lighter than the page (a white card on a grey page, however long
 * the footer below it) or where it holds at least as much text as sits on any other colour; else the
 * box of the colour most text sits on, or the page (a receipt's dark header band above its order
 * lines is a band, as LMX draws the body's colour to its foot, under every line).
 */
function bodyOf(
  body: SourceElement,
  page: string | undefined,
  pieces: readonly { place: TextPlace; length: number }[],
): { background: string; element: SourceElement } | undefined {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const card = cardOf(body, page, total);
  if (card === undefined || contrastRatio(card.background, '#000000') >= contrastRatio(page ?? '#ffffff', '#000000')) return card;
  const boxes = new Map<string, number>();
  let onPage = 0;
  for (const { place, length } of pieces)
    if (place.background === page) onPage += length;
    else if (place.background !== undefined) boxes.set(place.background, (boxes.get(place.background) ?? 0) + length);
  const most = mostCommon(boxes);
  const onMost = most === undefined ? 0 : boxes.get(most)!;
  // All the card holds counts for it, the boxes inside it too (Foundation's white container in its grey wrapper).
  if (card.length >= onPage && card.length >= onMost) return card;
  return onPage >= onMost ? undefined : cardOf(body, page, total, most);
}

function firstLinkColour(node: SourceNode): string | undefined {
  if (node.type !== 'element') return undefined;
  if (node.name === 'a' && !isButtonLink(node)) {
    const colour = hexColour(node.style.color);
    if (colour !== undefined) return colour;
  }
  for (const child of node.children) {
    const found = firstLinkColour(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** An email's `<Style />`, and the source's box its body stands for (the card on the page), if it has one. */
export interface EmailStyle {
  style: Record<string, string>;
  card?: SourceElement;
}

/** The `<Style />` of an email: what holds for most of it, the text's colours from the text that stands on the body. */
export function globalStyle(document: SourceDocument, findings?: Findings): EmailStyle {
  const { body } = document;
  const style: Record<string, string> = {};
  const sizes = new Map<string, number>();
  const fonts = new Map<string, number>();
  const page = backgroundOf(body.style, body.attrs);
  const pieces: { place: TextPlace; length: number }[] = [];
  textStyles(body, { style: body.style, background: page, link: undefined }, (place, length) => {
    pieces.push({ place, length });
  });
  const add = (map: Map<string, number>, value: string | undefined, length: number) => {
    if (value !== undefined) map.set(value, (map.get(value) ?? 0) + length);
  };
  for (const { place, length } of pieces) {
    // Text of no size of its own counts too: the client's default is then the most common.
    add(sizes, pixels(place.style['font-size'])?.toString() ?? 'default', length);
    add(fonts, place.style['font-family'], length);
  }
  if (page !== undefined) style.backgroundColor = page;
  const card = bodyOf(body, page, pieces);
  const bodyColour = card?.background;
  if (bodyColour !== undefined) style.bodyColor = bodyColour;
  // The base colours are those of the text on the body (a footer on the page has its own); where no text stands there, of all of it.
  const onBody = pieces.filter((piece) => piece.place.background === (bodyColour ?? page));
  const counted = onBody.length > 0 ? onBody : pieces;
  const colours = new Map<string, number>();
  const links = new Map<string, number>();
  for (const { place, length } of counted) {
    // Text and links of no colour of their own count too, in the source's default colours: black, and a browser's blue.
    if (place.link === undefined) add(colours, hexColour(place.style.color) ?? SOURCE_TEXT, length);
    else add(links, place.link, length);
  }
  const stack = body.style['font-family'] ?? mostCommon(fonts) ?? document.font;
  const font = fontOf(stack);
  if (font.family !== undefined) style.bodyFontFamily = font.family;
  if (font.category !== undefined) style.bodyFontCategory = font.category;
  if (font.skipped.length > 0 && findings !== undefined)
    findings.add(
      body.at,
      `the font${font.skipped.length > 1 ? 's' : ''} ${font.skipped.join(', ')} (of ${stack!.trim()})`,
      'approximated',
      font.family === undefined
        ? `left to the theme’s ${font.category === undefined ? '' : `${font.category} `}font: the stack names no family a theme can name`
        : `carried as bodyFontFamily="${font.family}", the first family of the stack a theme can name`,
      'a theme names one family, not the reader’s system fonts: choose the font in the theme if it should differ',
    );
  const colour = mostCommon(colours);
  if (colour !== undefined) style.textBaseColor = colour;
  const size = mostCommon(sizes);
  if (size !== undefined && size !== 'default' && Number(size) >= 10 && Number(size) <= 32) style.textBaseFontSize = size;
  // Where no link stands on the body, the first link's colour of its own (a header's); where none has one, the colour most of
  // them are drawn in (a receipt's plain links in a browser's blue on the page below its dark header band, taken for the body).
  const elsewhere = new Map<string, number>();
  for (const { place, length } of pieces) if (place.link !== undefined) add(elsewhere, place.link, length);
  const link = mostCommon(links) ?? firstLinkColour(body) ?? mostCommon(elsewhere);
  if (link !== undefined) style.textLinkColor = link;
  return { style, card: card?.element };
}

/**
 * Blocks one after another that each stand on one colour other than the body's (a footer's lines
 * on the grey page below the card) as one `<Section>` of that colour, as the source draws one band:
 * LMX keeps space between blocks, which each block's own colour would leave in the body's.
 */
function joinBands(blocks: readonly LmxBlock[]): LmxBlock[] {
  const joined: LmxBlock[] = [];
  for (const made of blocks) joined.push(...splitAtBands(made));
  return joinRuns(joined);
}

/** The vertical padding a section's first part keeps above, and its last below. */
const VERTICAL = ['paddingTop', 'paddingBottom'];

/**
 * A section of one colour holding a band of another (E-Com Plus's footer, a grey block at the foot
 * of the white card): sections do not nest, so the band's lines each took its colour and LMX's space
 * between them stayed the section's. The section is cut around the band, each part a section of
 * its own colour: the band one, as the source draws it.
 */
function splitAtBands(section: LmxBlock): LmxBlock[] {
  if (section.tag !== 'Section' || section.blocks === undefined) return [section];
  const runs = joinRuns(section.blocks);
  if (!runs.some((part) => part.tag === 'Section')) return [section];
  const parts: LmxBlock[] = [];
  let plain: LmxBlock[] = [];
  const shared = Object.fromEntries(Object.entries(section.attrs).filter(([name]) => !VERTICAL.includes(name)));
  const flush = () => {
    if (plain.length > 0) parts.push(block('Section', { ...shared }, { blocks: plain }));
    plain = [];
  };
  for (const part of runs)
    if (part.tag === 'Section' && part.attrs.blockColor === section.attrs.blockColor) plain.push(...(part.blocks ?? []));
    else if (part.tag === 'Section') {
      flush();
      parts.push(block('Section', { ...shared, ...part.attrs }, { blocks: part.blocks ?? [] }));
    } else plain.push(part);
  flush();
  for (const side of VERTICAL) {
    const value = section.attrs[side];
    if (value !== undefined) (side === 'paddingTop' ? parts[0]! : parts.at(-1)!).attrs[side] = value;
  }
  return parts;
}

/** Runs of two or more blocks of one colour other than the body's, each made a section of it. */
function joinRuns(blocks: readonly LmxBlock[]): LmxBlock[] {
  const joined: LmxBlock[] = [];
  let run: LmxBlock[] = [];
  const flush = () => {
    if (run.length < 2) joined.push(...run);
    else {
      const colour = run[0]!.attrs.blockColor!;
      for (const made of run) delete made.attrs.blockColor;
      joined.push(block('Section', { blockColor: colour }, { blocks: run }));
    }
    run = [];
  };
  for (const made of blocks) {
    const colour = made.tag === 'Section' ? undefined : made.attrs.blockColor;
    if (run.length > 0 && (colour === undefined || colour !== run[0]!.attrs.blockColor)) flush();
    if (colour === undefined) joined.push(made);
    else run.push(made);
  }
  flush();
  return joined;
}

/** The email converted: its `<Style />`, then its blocks. */
export function convertDocument(document: SourceDocument, kind: ConvertKind, findings: Findings): ConvertedEmail {
  readTemplateBlocks(document.body, findings);
  settleTemplatedValues(document.body, findings);
  const { style, card } = globalStyle(document, findings);
  const context: MapContext = {
    kind,
    findings,
    inherited: { ...(style.textBaseFontSize === undefined ? {} : { 'font-size': `${style.textBaseFontSize}px` }) },
    sourceFontSize: fontSizeWithin(document.body.style['font-size'], BROWSER_FONT_SIZE),
    baseColour: style.textBaseColor,
    baseFontSize: style.textBaseFontSize === undefined ? undefined : Number(style.textBaseFontSize),
    inSection: false,
    inColumns: false,
    background: style.bodyColor ?? style.backgroundColor,
    plain: [style.backgroundColor, style.bodyColor].filter((colour) => colour !== undefined),
    // A page of no colour of its own is a browser's white: text on it, outside a card of another colour, stood on white.
    sourceBackground: style.backgroundColor ?? (style.bodyColor === undefined ? undefined : '#ffffff'),
    holder: document.body,
  };
  const inheritedColour: Style = document.body.style.color === undefined ? {} : { color: document.body.style.color };
  const mapped = blocksOf(document.body.children, { ...context, inherited: { ...context.inherited, ...inheritedColour } });
  headingColours(mapped, style);
  keepContrast(mapped, style, findings);
  const blocks = joinBands(mapped);
  carryLayout(document.body, style, blocks, card);
  return { lmx: writeLmx(style, blocks), style, blocks, subject: document.subject, previewText: document.previewText };
}

/** A partial made a component: its blocks alone, with no `<Style />` (the emails that embed it carry theirs), laid out in a body of MJML's width. */
export function convertComponent(nodes: readonly SourceNode[], kind: ConvertKind, findings: Findings): string {
  const at = nodes[0]?.at ?? { file: '', line: 1, column: 1 };
  const body = element('body', at, [...nodes], {}, { 'max-width': '600px', 'margin-left': 'auto', 'margin-right': 'auto' });
  readTemplateBlocks(body, findings);
  settleTemplatedValues(body, findings);
  // Text of no colour of its own is left to the base colour of the emails that embed it, which is black where theirs is.
  const context: MapContext = { kind, findings, inherited: {}, inSection: false, inColumns: false, plain: [], holder: body, baseColour: SOURCE_TEXT };
  const blocks = blocksOf(nodes, context);
  carryLayout(body, undefined, blocks);
  return writeLmx({}, blocks);
}
