/**
 * Whether the converted LMX fits a phone's screen: LMX's text breaks only between words and its
 * buttons do not shrink, so a long word (an address written out as text) or a button widened to
 * stand full width can push the page wider than a 375 px screen where the source fitted it (its
 * cells break words, its full-width button is a share of the screen). A widened button is narrowed
 * to fit; a word wider than its block is found, for the fidelity line to list.
 */
import { DEFAULT_THEME_STYLES } from '../../platform/themes/default-theme.js';
import type { LmxBlock, LmxInline } from '../lmx-out.js';
import type { Box } from './layout.js';
import { layoutLmx } from './lmx-layout.js';
import { type Face, textWidth } from './text-width.js';

/** The screen width a phone is judged at. */
const PHONE = 375;

const HEADING_SIZES: Readonly<Record<string, string>> = { H1: 'heading1FontSize', H2: 'heading2FontSize', H3: 'heading3FontSize' };

const themed = (style: Readonly<Record<string, string>>, name: string) => {
  const value = Number(style[name] ?? (DEFAULT_THEME_STYLES as Record<string, unknown>)[name]);
  return Number.isFinite(value) && value > 0 ? value : 16;
};

/** The face a block's text is drawn in: its own size, else the theme's for its kind. */
function faceOf(block: LmxBlock, style: Readonly<Record<string, string>>): Face {
  const own = Number(block.attrs.fontSize);
  const theme = block.tag === 'Button' ? 'buttonTextFontSize' : (HEADING_SIZES[block.tag] ?? 'textBaseFontSize');
  return { size: Number.isFinite(own) && own > 0 ? own : themed(style, theme), family: 'sans', bold: block.tag === 'Button' || block.tag in HEADING_SIZES };
}

/** The words of a block's text as written (a variable's value is not known: it holds nothing open). */
function wordsOf(inline: readonly LmxInline[] | undefined): string[] {
  return (inline ?? []).flatMap((piece) => ('text' in piece ? piece.text.split(/\s+/).filter(Boolean) : 'children' in piece ? wordsOf(piece.children) : []));
}

function labelOf(inline: readonly LmxInline[] | undefined): string {
  return (inline ?? []).map((piece) => ('text' in piece ? piece.text : 'children' in piece ? labelOf(piece.children) : '')).join('');
}

/** How wide a button is drawn, but its inner padding: its label (bold, as a theme may draw it, unless told) and its borders. */
const buttonFace = (block: LmxBlock, style: Readonly<Record<string, string>>, bold = true) =>
  textWidth(labelOf(block.inline).trim(), { ...faceOf(block, style), bold }) + 2 * Number(block.attrs.borderWidth ?? 0);

/** How wide a button is drawn: its label, its inner padding and its borders. */
export function buttonWidth(block: LmxBlock, style: Readonly<Record<string, string>>, bold?: boolean): number {
  return buttonFace(block, style, bold) + 2 * Number(block.attrs.innerXPadding ?? 0);
}

/** The buttons widened with inner padding to stand as wide as the source's, each with the inner padding its source gave it. */
export const WIDENED = new WeakMap<LmxBlock, number>();

/**
 * A button widened with inner padding (to stand full width, as the source's did) narrowed so that
 * it still fits a phone's screen, down to the padding its source gave it: the source's own face
 * does not narrow on a phone either (Mailgen's Neopolitan's `padding: 0 25px`), its label wraps.
 */
export function fitButtons(style: Readonly<Record<string, string>>, blocks: readonly LmxBlock[]): void {
  for (const [block, { box }] of layoutLmx(style, blocks, PHONE)) {
    const own = WIDENED.get(block);
    const padding = Number(block.attrs.innerXPadding ?? 0);
    if (block.tag !== 'Button' || own === undefined || !(padding > own)) continue;
    const room = box.right - box.left - buttonFace(block, style);
    if (2 * padding > room) block.attrs.innerXPadding = String(Math.max(own, Math.floor(room / 2)));
  }
}

/** The blocks whose longest word is wider than the box LMX gives them on a phone, each with the word and the widths, said plainly. */
export function wordsTooWide(style: Readonly<Record<string, string>>, blocks: readonly LmxBlock[]): Map<LmxBlock, { box: Box; said: string }> {
  const found = new Map<LmxBlock, { box: Box; said: string }>();
  for (const [block, { box }] of layoutLmx(style, blocks, PHONE)) {
    const face = faceOf(block, style);
    const widest = wordsOf(block.inline).reduce<{ word: string; width: number }>(
      (most, word) => {
        const width = textWidth(word, face);
        return width > most.width ? { word, width } : most;
      },
      { word: '', width: 0 },
    );
    const room = box.right - box.left;
    if (widest.width > room + 6) {
      const shown = widest.word.length > 40 ? `${widest.word.slice(0, 39)}…` : widest.word;
      found.set(block, {
        box,
        said: `its word "${shown}" takes about ${Math.round(widest.width)} px on a ${PHONE} px screen, where the block has ${Math.round(room)} px: the page grows wider than the screen, where the source's breaks it`,
      });
    }
  }
  return found;
}
