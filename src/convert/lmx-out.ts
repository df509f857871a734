/** The LMX a conversion makes, as a small tree, and written out as `content pull` writes a body: a block a line, nested blocks indented. */
import { LMX_TAGS } from '../lmx/index.js';
import type { Findings, Place } from './model.js';

/** Inline content: text, an LMX variable (`data.resetLink`), or an inline tag. */
export type LmxInline = { text: string } | { variable: string } | { tag: string; attrs: Record<string, string>; children: LmxInline[] };

export interface LmxBlock {
  tag: string;
  attrs: Record<string, string>;
  /** Block children of a container (Section, Columns, ColumnItem, lists, Icons, Component). */
  blocks?: LmxBlock[];
  /** The content of a text block (headings, Paragraph, Quote, ListItem, Button). */
  inline?: LmxInline[];
  /** The literal text of a CodeBlock. */
  raw?: string;
}

/** What an image's src becomes where the source's is computed or dynamic: LMX requires one. */
export const PLACEHOLDER_IMAGE = 'https://placehold.co/600x300.png';

export function block(tag: string, attrs: Record<string, string> = {}, content: Pick<LmxBlock, 'blocks' | 'inline' | 'raw'> = {}): LmxBlock {
  return { tag, attrs, ...content };
}

/**
 * Sets a numeric attribute, kept in the range the tag table gives it: a value outside is brought
 * to the nearest bound, and listed.
 */
export function setNumber(
  target: LmxBlock | { tag: string; attrs: Record<string, string> },
  name: string,
  value: number | undefined,
  at: Place,
  findings: Findings,
): void {
  if (value === undefined || Number.isNaN(value)) return;
  const spec = LMX_TAGS.get(target.tag)?.attributes[name];
  let number = Math.round(value);
  if (spec?.type === 'number') {
    const bounded = Math.min(spec.max ?? Number.POSITIVE_INFINITY, Math.max(spec.min ?? Number.NEGATIVE_INFINITY, number));
    if (bounded !== number) {
      findings.add(
        at,
        `${name} ${number}`,
        'approximated',
        `<${target.tag}> ${name} set to ${bounded}, the nearest LMX takes (${spec.min ?? '…'} to ${spec.max ?? '…'})`,
        'check the block in the preview',
      );
      number = bounded;
    }
  }
  target.attrs[name] = String(number);
}

const escapeText = (value: string) => value.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
const escapeAttribute = (value: string) => escapeText(value).replaceAll('"', '&quot;');

function attributes(attrs: Record<string, string>): string {
  return Object.entries(attrs)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
}

/** Text as LMX content: escaped, and a brace that is no variable kept from reading as one. */
function inlineText(pieces: readonly LmxInline[]): string {
  return pieces
    .map((piece) => {
      if ('text' in piece) return escapeText(piece.text);
      if ('variable' in piece) return `{${piece.variable}}`;
      if (LMX_TAGS.get(piece.tag)?.selfClosing) return `<${piece.tag}${attributes(piece.attrs)} />`;
      return `<${piece.tag}${attributes(piece.attrs)}>${inlineText(piece.children)}</${piece.tag}>`;
    })
    .join('');
}

function writeBlock(node: LmxBlock, indent: string): string {
  const open = `${indent}<${node.tag}${attributes(node.attrs)}`;
  if (node.raw !== undefined) return `${open}>${escapeText(node.raw)}</${node.tag}>\n`;
  if (node.inline !== undefined) return `${open}>${inlineText(node.inline)}</${node.tag}>\n`;
  if (node.blocks === undefined || node.blocks.length === 0) return `${open} />\n`;
  return `${open}>\n${node.blocks.map((child) => writeBlock(child, `${indent}  `)).join('')}${indent}</${node.tag}>\n`;
}

/** The document: `<Style />` first, as the platform's exporter writes it, then the blocks. */
export function writeLmx(style: Record<string, string>, blocks: readonly LmxBlock[]): string {
  const head = Object.keys(style).length > 0 ? `<Style${attributes(style)} />\n` : '';
  return head + blocks.map((node) => writeBlock(node, '')).join('');
}

/** The text of inline content, for deciding whether a block holds anything. */
export function plainText(pieces: readonly LmxInline[]): string {
  return pieces.map((piece) => ('text' in piece ? piece.text : 'variable' in piece ? `{${piece.variable}}` : plainText(piece.children))).join('');
}

/** Adds vertical space to a block's padding; a list's goes to its first or last item, as a list takes none of its own. */
export function addPadding(node: LmxBlock, side: 'paddingTop' | 'paddingBottom', amount: number): void {
  if (amount <= 0 || node.tag === 'ColumnItem' || node.tag === 'ListItem') return;
  // A list takes no padding of its own: its first item takes the space above it, its last the space below.
  const target = node.tag === 'OrderedList' || node.tag === 'UnorderedList' ? node.blocks?.[side === 'paddingTop' ? 0 : node.blocks.length - 1] : node;
  if (target === undefined || LMX_TAGS.get(target.tag)?.attributes[side] === undefined) return;
  target.attrs[side] = String(Number(target.attrs[side] ?? 0) + Math.round(amount));
}
