/**
 * A whole email: the colours and fonts that hold for all of it go into `<Style />` (the page's
 * background, the body's colour, the font, the text's and links' colours), and its body into blocks.
 */
import { blocksOf } from './blocks.js';
import { isButtonLink, type MapContext } from './inline.js';
import { writeLmx, type LmxBlock } from './lmx-out.js';
import type { ConvertKind, Findings, SourceElement, SourceNode, Style } from './model.js';
import { backgroundOf, fontOf, hexColour, pixels } from './styles.js';

/** What a reader makes of a source file. */
export interface SourceDocument {
  /** The element whose content is the email (`<body>`, `<mj-body>`, React's `<Body>`). */
  body: SourceElement;
  subject?: string;
  previewText?: string;
  /** Fonts the source declares apart from the body (MJML's `<mj-font>`, `<mj-all font-family>`). */
  font?: string;
}

export interface ConvertedEmail {
  lmx: string;
  style: Record<string, string>;
  blocks: LmxBlock[];
  subject?: string;
  previewText?: string;
}

/** Every text of a tree, with the style it inherits there, weighted by its length. */
function textStyles(node: SourceNode, inherited: Style, visit: (style: Style, length: number) => void): void {
  if (node.type !== 'element') {
    const length = node.type === 'text' ? node.text.trim().length : 4;
    if (length > 0) visit(inherited, length);
    return;
  }
  // A button's text has its own colours: the body text's are those of the rest.
  if (node.name === 'x-button' || isButtonLink(node) || node.name === 'head' || node.style.display === 'none') return;
  const style = { ...inherited };
  for (const property of ['color', 'font-size', 'font-family']) if (node.style[property] !== undefined) style[property] = node.style[property]!;
  for (const child of node.children) textStyles(child, style, visit);
}

/** The value most of the text has. */
function mostCommon(weights: Map<string, number>): string | undefined {
  let best: string | undefined;
  let weight = 0;
  for (const [value, count] of weights) if (count > weight) [best, weight] = [value, count];
  return best;
}

/** The first container whose own background differs from the page's and that holds most of the text: the email's body. */
function bodyColourOf(body: SourceElement, page: string | undefined, total: number): string | undefined {
  const pending: SourceNode[] = [...body.children];
  while (pending.length > 0) {
    const node = pending.shift()!;
    if (node.type !== 'element' || node.name === 'x-columns') continue;
    const background = backgroundOf(node.style, node.attrs);
    if (background !== undefined && background !== page) {
      let length = 0;
      textStyles(node, {}, (_style, count) => {
        length += count;
      });
      return length * 10 >= total * 6 ? background : undefined;
    }
    pending.push(...node.children);
  }
  return undefined;
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

/** The `<Style />` of an email: what holds for most of it. */
export function globalStyle(document: SourceDocument): Record<string, string> {
  const { body } = document;
  const style: Record<string, string> = {};
  const colours = new Map<string, number>();
  const sizes = new Map<string, number>();
  const fonts = new Map<string, number>();
  let total = 0;
  textStyles(body, body.style, (inherited, length) => {
    total += length;
    const add = (map: Map<string, number>, value: string | undefined) => {
      if (value !== undefined) map.set(value, (map.get(value) ?? 0) + length);
    };
    // Text of no colour or size of its own counts too: the client's default is then the most common.
    add(colours, hexColour(inherited.color) ?? 'default');
    add(sizes, pixels(inherited['font-size'])?.toString() ?? 'default');
    add(fonts, inherited['font-family']);
  });
  const page = backgroundOf(body.style, body.attrs);
  if (page !== undefined) style.backgroundColor = page;
  const bodyColour = bodyColourOf(body, page, total);
  if (bodyColour !== undefined) style.bodyColor = bodyColour;
  const font = fontOf(body.style['font-family'] ?? mostCommon(fonts) ?? document.font);
  if (font.family !== undefined) style.bodyFontFamily = font.family;
  if (font.category !== undefined) style.bodyFontCategory = font.category;
  const colour = mostCommon(colours);
  if (colour !== undefined && colour !== 'default') style.textBaseColor = colour;
  const size = mostCommon(sizes);
  if (size !== undefined && size !== 'default' && Number(size) >= 10 && Number(size) <= 32) style.textBaseFontSize = size;
  const link = firstLinkColour(body);
  if (link !== undefined) style.textLinkColor = link;
  return style;
}

/** The email converted: its `<Style />`, then its blocks. */
export function convertDocument(document: SourceDocument, kind: ConvertKind, findings: Findings): ConvertedEmail {
  const style = globalStyle(document);
  const context: MapContext = {
    kind,
    findings,
    inherited: { ...(style.textBaseFontSize === undefined ? {} : { 'font-size': `${style.textBaseFontSize}px` }) },
    baseColour: style.textBaseColor,
    baseFontSize: style.textBaseFontSize === undefined ? undefined : Number(style.textBaseFontSize),
    inSection: false,
    inColumns: false,
    background: style.bodyColor ?? style.backgroundColor,
    plain: [style.backgroundColor, style.bodyColor].filter((colour) => colour !== undefined),
  };
  const inheritedColour: Style = document.body.style.color === undefined ? {} : { color: document.body.style.color };
  const blocks = blocksOf(document.body.children, { ...context, inherited: { ...context.inherited, ...inheritedColour } });
  return { lmx: writeLmx(style, blocks), style, blocks, subject: document.subject, previewText: document.previewText };
}

/** A partial made a component: its blocks alone, with no `<Style />` (the emails that embed it carry theirs). */
export function convertComponent(nodes: readonly SourceNode[], kind: ConvertKind, findings: Findings): string {
  const context: MapContext = { kind, findings, inherited: {}, inSection: false, inColumns: false, plain: [] };
  return writeLmx({}, blocksOf(nodes, context));
}
