/**
 * How many terminal columns text takes, and how to cut it to fit: East Asian wide characters and
 * emoji take two columns, combining marks and other zero-width characters none. Text is measured
 * and cut by grapheme (what a person sees as one character), so a cut never splits a wide
 * character, an emoji sequence or a letter from its accent. Plain ASCII, the common case in a
 * table, is measured by its length without segmenting.
 */

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Text of printable ASCII alone, which takes a column a character: no colour, no wide characters. */
export function isPrintableAscii(text: string): boolean {
  return PRINTABLE_ASCII.test(text);
}

const EMOJI_VARIATION = '\ufe0f';

/**
 * The patterns that measure text other than plain ASCII, made on first use: Unicode property
 * patterns are parsed as they are made, which takes a millisecond that most starts do not need.
 */
interface Unicode {
  /**
   * East Asian Wide and Fullwidth ranges (Hangul jamo, CJK, kana, Hangul syllables, fullwidth
   * forms and the supplementary ideographic planes); emoji are matched by their Unicode property.
   */
  wide: RegExp;
  zeroWidth: RegExp;
  pictographic: RegExp;
  /**
   * Characters that join with their neighbours into one grapheme: marks, joiners, variation
   * selectors, regional indicators, skin tones, Hangul jamo. Text without them is measured by
   * character, which is many times faster than segmenting it.
   */
  joining: RegExp;
}

let made: Unicode | undefined;
function unicode(): Unicode {
  made ??= {
    wide: /^(?:[\u1100-\u115f\u231a\u231b\u2329\u232a\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6]|[\u{16fe0}-\u{16fe4}\u{17000}-\u{18aff}\u{1b000}-\u{1b2ff}\u{1f200}-\u{1f2ff}\u{20000}-\u{2fffd}\u{30000}-\u{3fffd}]|\p{Emoji_Presentation}|\p{Regional_Indicator})/u,
    zeroWidth: /^[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]/u,
    pictographic: /^\p{Extended_Pictographic}/u,
    // biome-ignore lint/suspicious/noMisleadingCharacterClass: each of these code points joins the one before it, one at a time
    joining: /[\p{M}\u200c\u200d\ufe0e\ufe0f\u1160-\u11ff\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u,
  };
  return made;
}

// Made on first use, apart: creating a segmenter loads ICU's break rules, which takes longer than
// a whole `--help`, and only text with joining characters needs it.
let segmenter: Intl.Segmenter | undefined;
function graphemes(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  return segmenter;
}

/** The text's graphemes: its characters when none join, else Intl.Segmenter's segments. */
function segments(text: string): string[] {
  return unicode().joining.test(text) ? Array.from(graphemes().segment(text), ({ segment }) => segment) : Array.from(text);
}

/** Columns one grapheme takes: its first character decides, or an emoji variation selector. */
function graphemeWidth(grapheme: string): number {
  const code = grapheme.codePointAt(0)!;
  if (code >= 0x20 && code < 0x7f) return 1;
  const { wide, pictographic, zeroWidth } = unicode();
  if (wide.test(grapheme)) return 2;
  if (grapheme.includes(EMOJI_VARIATION) && pictographic.test(grapheme)) return 2;
  return zeroWidth.test(grapheme) ? 0 : 1;
}

/** Terminal columns `text` takes; text holds no escape sequences (it is sanitized and unpainted). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  if (unicode().joining.test(text)) for (const { segment } of graphemes().segment(text)) width += graphemeWidth(segment);
  else for (const char of text) width += graphemeWidth(char);
  return width;
}

const ELLIPSIS = '…';

/**
 * `text` cut to at most `width` columns, ending in an ellipsis when anything was cut. The cut falls
 * between graphemes, so a wide character that would straddle the limit is left out whole; spaces
 * before the ellipsis are dropped.
 */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  const room = width - 1;
  if (PRINTABLE_ASCII.test(text)) return `${text.slice(0, room).trimEnd()}${ELLIPSIS}`;
  let kept = '';
  let used = 0;
  for (const segment of segments(text)) {
    const next = graphemeWidth(segment);
    if (used + next > room) break;
    kept += segment;
    used += next;
  }
  return `${kept.trimEnd()}${ELLIPSIS}`;
}

// What paint adds to a cell: SGR colour sequences, which take no columns.
const SGR = /\x1b\[[\d;]*m/g;

/** Columns painted text takes: its colour sequences take none. */
export function paintedWidth(text: string): number {
  return displayWidth(unpainted(text));
}

/** Text without its colour sequences. */
export function unpainted(text: string): string {
  return text.replace(SGR, '');
}

/** `text` padded with spaces to `width` columns, on the right or (for numbers) on the left. */
export function pad(text: string, textWidth: number, width: number, align: 'left' | 'right'): string {
  const fill = width > textWidth ? ' '.repeat(width - textWidth) : '';
  return align === 'right' ? fill + text : text + fill;
}
