/**
 * About how wide a run of text is drawn, without drawing it: each character's advance in Arial's
 * metrics (Helvetica's, which Arial and Liberation Sans share), or Arial Bold's for bold, scaled
 * for a serif or monospace face. Within a few percent of a browser's drawing for Latin text; the
 * layout model sizes table columns by it, as a browser sizes them by their text.
 */

/** Advances of the printable ASCII characters, space to `~`, in thousandths of an em. */
const ADVANCES = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584,
  556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278,
  469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260,
  334, 584,
];

/**
 * Advances of the same characters in Arial Bold: its digits and capitals are about as wide as the
 * regular face's, its lowercase wider, so no one scale of the regular face fits both.
 */
const BOLD = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584,
  611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333,
  584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280,
  389, 584,
];

/** A character outside ASCII: about an average letter. */
const OTHER = 556;

/** The face text is drawn in, as far as its width goes. */
export interface Face {
  size: number;
  family: 'sans' | 'serif' | 'mono';
  bold: boolean;
}

/** The kind of face a `font-family` list names first that a browser has: a browser's own default (no list) is a serif face. */
export function familyOf(list: string | undefined, inherited: Face['family']): Face['family'] {
  if (list === undefined || list.trim() === '') return inherited;
  const names = list.toLowerCase();
  if (/mono|courier|consol|menlo/.test(names)) return 'mono';
  if (/sans|arial|helvetica|verdana|roboto|inter|system-ui|-apple-system|segoe|tahoma|trebuchet|ubuntu/.test(names)) return 'sans';
  return 'serif';
}

/** How wide a run of text is drawn in a face, in pixels. */
export function textWidth(text: string, face: Face): number {
  if (face.family === 'mono') return text.length * face.size * 0.6;
  let thousandths = 0;
  for (const character of text) {
    // A no-break space is drawn as wide as a space.
    const code = character === '\u00a0' ? 32 : character.codePointAt(0)!;
    thousandths += code >= 32 && code <= 126 ? (face.bold ? BOLD : ADVANCES)[code - 32]! : OTHER;
  }
  const scale = face.family === 'serif' ? 0.92 : 1;
  return (thousandths / 1000) * face.size * scale;
}
