/**
 * Text stays as readable as it was. Each text block remembers the colour its text had in the
 * source (where the source gave it none, the source's default, black: a browser's and MJML's) and
 * the background it stood on there; once the email is converted, the contrast of each against the
 * colours LMX will draw it with (its own `<Text>` colour or the base one, its block's colour, the
 * section's or columns' around it, else the body's) is compared with the source's. Where it fell,
 * the source's text colour is written on the block, then the source's background as the block's
 * colour; where even that cannot bring it back, the block is listed. A link coloured otherwise
 * than the email's one link colour keeps its own on its words where that one would not read.
 */
import { LMX_TAGS } from '../lmx/index.js';
import { parseHex, contrastRatio as wcagContrast } from '../lmx/qa/index.js';
import { DEFAULT_THEME_STYLES } from '../platform/themes/default-theme.js';
import { type LmxBlock, type LmxInline, plainText } from './lmx-out.js';
import type { Findings, Measure, Place } from './model.js';
import { hexColour } from './styles.js';

/** How a text block looked in its source. */
interface SourceLook {
  colour: string;
  background: string | undefined;
  /** The background image it stood on, which LMX does not draw. */
  image?: string | undefined;
  at: Place;
}

const looks = new WeakMap<LmxBlock, SourceLook>();

/** Notes how a text block looked in its source: the colour of its text and the background (and background image) it stood on, where it set them. */
export function rememberLook(made: LmxBlock, colour: string, background: string | undefined, at: Place, image?: string): void {
  // A block of links alone has no text of its colour: its links are compared as links.
  if (!wordsOutsideLinks(made.inline ?? [])) return;
  // Where every word of the block has a colour of its own (a span's), that is the text's colour.
  looks.set(made, { colour: ownColour(made) ?? colour, background, image, at });
}

/** What an image or a button stood on in its source: the background (and background image) around it. */
const backdrops = new WeakMap<LmxBlock, Omit<SourceLook, 'colour'>>();

/** Notes what an image or a button stood on in its source, for what LMX draws it on to be compared. */
export function rememberBackdrop(made: LmxBlock, background: string | undefined, at: Place, image?: string): void {
  backdrops.set(made, { background, image, at });
}

/** How a link looked in its source: its colour (sourceLinkColour's) and the background it stood on. */
interface LinkLook {
  colour: string;
  background: string | undefined;
  at: Place;
}

/** Each link's look in its source, by the <Link> made of it. */
const linkLooks = new WeakMap<LmxInline, LinkLook>();

/** Notes how a link looked in its source, for its colour as LMX draws it to be compared. */
export function rememberLink(link: LmxInline, colour: string, background: string | undefined, at: Place): void {
  linkLooks.set(link, { colour, background, at });
}

/** The links of inline content, at any depth. */
function linksIn(pieces: readonly LmxInline[], into: LmxInline[] = []): LmxInline[] {
  for (const piece of pieces) {
    if (!('tag' in piece)) continue;
    if (piece.tag === 'Link') into.push(piece);
    linksIn(piece.children, into);
  }
  return into;
}

/**
 * Whether a piece gives its words a colour of their own: a `<Text>`, or the `<Underline
 * textColor>` a link's words are given theirs in (so that its underline is drawn in it too).
 */
const colours = (piece: LmxInline): boolean => 'tag' in piece && (piece.tag === 'Text' || (piece.tag === 'Underline' && piece.attrs.textColor !== undefined));

/**
 * Whether inline content draws words in the colour around it: words or a variable outside a link
 * (drawn in the link colour whatever wraps it) and outside a piece of a colour of its own.
 */
function takesColour(pieces: readonly LmxInline[]): boolean {
  return pieces.some((piece) => {
    if ('text' in piece) return piece.text.trim() !== '';
    if (!('tag' in piece)) return true;
    return piece.tag !== 'Link' && !colours(piece) && takesColour(piece.children);
  });
}

/** Whether inline content has words (or a variable) outside its links. */
const wordsOutsideLinks = (pieces: readonly LmxInline[]): boolean =>
  pieces.some((piece) => ('text' in piece ? piece.text.trim() !== '' : !('tag' in piece) || (piece.tag !== 'Link' && wordsOutsideLinks(piece.children))));

/** Inline content in a colour: each run of it that has no colour of its own wrapped in <Text>. */
export function coloured(pieces: LmxInline[], colour: string): LmxInline[] {
  const result: LmxInline[] = [];
  let run: LmxInline[] = [];
  const flush = () => {
    if (takesColour(run)) result.push({ tag: 'Text', attrs: { textColor: colour }, children: run });
    else result.push(...run);
    run = [];
  };
  for (const piece of pieces) {
    if (colours(piece)) {
      flush();
      result.push(piece);
    } else run.push(piece);
  }
  flush();
  return result;
}

/** The contrast ratio of two opaque hex colours, as WCAG defines it (src/lmx/qa/contrast.ts): 1 (none) to 21 (black on white). */
export function contrastRatio(first: string, second: string): number {
  const [one, other] = [parseHex(first), parseHex(second)];
  return one === undefined || other === undefined ? Number.NaN : wcagContrast(one, other);
}

/** The one `<Text>` colour every word of a text block has (through formatting around it), or undefined. */
function ownColour(made: LmxBlock): string | undefined {
  return ownInlineColour(made.inline ?? []);
}

/** The one colour of their own every word of inline content has (through formatting around it), or undefined; a link's words are the link's. */
function ownInlineColour(inline: readonly LmxInline[]): string | undefined {
  let pieces = inline;
  for (;;) {
    const shown = pieces.filter((piece) => !('text' in piece) || piece.text.trim() !== '');
    const [only] = shown;
    if (shown.length !== 1 || only === undefined || !('tag' in only)) return undefined;
    if (colours(only)) return hexColour(only.attrs.textColor);
    if (only.tag === 'Link') return undefined;
    pieces = only.children;
  }
}

/** The colour of a text block's text as LMX draws it: its own where every word has one, else the base colour. */
function drawnColour(made: LmxBlock, base: string): string {
  return ownColour(made) ?? base;
}

/** A little under the source's contrast is the rounding of colours, not a loss. */
const TOLERANCE = 0.05;

/** The colour of text its source gives none: a browser draws it black, and so does MJML (`<mj-text color="#000000">`). */
export const SOURCE_TEXT = '#000000';

/** The colour of a link its source gives none: a browser's default link colour, which MJML keeps too. */
export const SOURCE_LINK = '#0000ee';

/**
 * The colour a source draws a link in, as `color` is written on it (`over` what it stands on):
 * its own; where it inherits (`inherit`, `currentColor`), the colour `around` it, else black;
 * where it has none, a browser's blue.
 */
export function sourceLinkColour(written: string | undefined, around: string | undefined, over?: string): string {
  const value = written?.trim().toLowerCase();
  if (value === 'inherit' || value === 'unset' || value === 'currentcolor') return hexColour(around, over) ?? SOURCE_TEXT;
  return hexColour(value === 'initial' ? SOURCE_TEXT : written, over) ?? SOURCE_LINK;
}

/** The least contrast under which text does not read (WCAG's for large text, 3:1). */
export const READABLE = 3;

type ThemeColour = 'textBaseColor' | 'heading1Color' | 'heading2Color' | 'heading3Color';

/** The colour LMX draws a block's text in where it has none of its own: a heading's level's colour, the rest the base colour. */
function baseOf(style: Readonly<Record<string, string>>, tag: string): string {
  const name: ThemeColour = tag === 'H1' || tag === 'H2' || tag === 'H3' ? `heading${tag[1] as '1' | '2' | '3'}Color` : 'textBaseColor';
  return style[name] ?? String(DEFAULT_THEME_STYLES[name]);
}

/**
 * Headings drawn in the colour the source draws them in: a source's heading of no colour of its own
 * takes its text's (where the theme's heading colours are another, a near-black of its own), and
 * one of another colour was given it (`<Text textColor>`) as it was mapped. So each level of heading
 * the email has takes the base colour.
 */
export function headingColours(blocks: readonly LmxBlock[], style: Record<string, string>): void {
  const base = style.textBaseColor;
  if (base === undefined) return;
  const tags = new Set<string>();
  const pending = [...blocks];
  while (pending.length > 0) {
    const made = pending.pop()!;
    tags.add(made.tag);
    pending.push(...(made.blocks ?? []));
  }
  for (const level of ['1', '2', '3']) if (tags.has(`H${level}`)) style[`heading${level}Color`] = base;
}

/**
 * Brings every text block of the email back to at least the contrast it had in its source, or
 * lists it. `style` is the `<Style />` written (the default theme's colours where it sets none).
 */
export function keepContrast(blocks: readonly LmxBlock[], style: Record<string, string>, findings: Findings): void {
  const body = style.bodyColor ?? String(DEFAULT_THEME_STYLES.bodyColor);
  const links = new OtherLinks(style.textLinkColor ?? String(DEFAULT_THEME_STYLES.textLinkColor));
  const visit = (list: readonly LmxBlock[], background: string) => {
    for (const made of list) {
      const look = looks.get(made);
      if (look !== undefined) {
        const seen = { ...look, background: look.background ?? body };
        check(made, seen, background, baseOf(style, made.tag), findings);
        checkRuns(made, seen, background, findings);
      }
      // After the block's own colours, which may have given it a background.
      for (const piece of linksIn(made.inline ?? [])) links.keep(piece, made.attrs.blockColor ?? background);
      if (made.blocks !== undefined) visit(made.blocks, made.attrs.blockColor ?? background);
    }
  };
  visit(blocks, body);
  links.list(findings);
}

/** WCAG 2.1's contrast for text of a body's size (1.4.3), which a link's words are taken to be. */
const BODY_TEXT = 4.5;

/**
 * Links the source colours otherwise than the email's one link colour (textLinkColor). Where that
 * colour would not read on what LMX draws the link on (a dark footer band) and the link's own
 * did, the link's words are given their own colour (`<Link><Underline textColor>`: LMX underlines
 * a link in the link colour, and a browser draws the inner underline over it, so the underline
 * takes the words' colour as the source's does); the others are drawn in the email's link colour
 * and listed, once a colour.
 */
class OtherLinks {
  /** The places of the links of each colour listed, the first where the entry stands. */
  private readonly listed = new Map<string, Place[]>();

  constructor(private readonly link: string) {}

  keep(piece: LmxInline, behind: string): void {
    const look = linkLooks.get(piece);
    if (look === undefined || !('tag' in piece) || sameSpelling(look.colour) === sameSpelling(this.link)) return;
    const source = contrastRatio(look.colour, look.background ?? behind);
    const drawn = contrastRatio(this.link, behind);
    if (drawn < Math.min(source, BODY_TEXT) - TOLERANCE && contrastRatio(look.colour, behind) > drawn) {
      // Words of a colour of their own inside the link keep it, as they did under the source's underline.
      piece.children = [{ tag: 'Underline', attrs: { textColor: look.colour }, children: piece.children }];
      return;
    }
    const colour = sameSpelling(look.colour);
    this.listed.set(colour, [...(this.listed.get(colour) ?? []), look.at]);
  }

  list(findings: Findings): void {
    for (const [colour, [at, ...also]] of this.listed)
      findings.add(
        at!,
        `${also.length === 0 ? 'a link' : `${also.length + 1} links`} in ${colour}`,
        'approximated',
        `drawn in the email's link colour ${this.link} (textLinkColor)${colour === SOURCE_LINK ? ` (${SOURCE_LINK} is the blue a browser draws a link of no colour of its own in)` : ''}: LMX gives every link of an email one colour`,
        'check that each reads on its background in the preview (content check warns where it does not), or give its words and underline their own colour (<Link><Underline textColor>)',
        also,
      );
  }
}

function check(made: LmxBlock, look: { colour: string; background: string; at: Place }, background: string, base: string, findings: Findings): void {
  const source = contrastRatio(look.colour, look.background);
  const wanted = source - TOLERANCE;
  const ratio = () => contrastRatio(drawnColour(made, base), made.attrs.blockColor ?? background);
  const giveColour = () => {
    if (made.inline !== undefined && drawnColour(made, base) !== look.colour) made.inline = coloured(made.inline, look.colour);
  };
  const giveBackground = () => {
    if (LMX_TAGS.get(made.tag)?.attributes.blockColor !== undefined && background !== look.background) made.attrs.blockColor = look.background;
  };
  for (const step of [giveColour, giveBackground]) {
    if (ratio() >= wanted) return;
    step();
  }
  if (ratio() >= wanted) return;
  if (source >= READABLE && ratio() < READABLE) findings.unreadable.push({ text: plainText(made.inline ?? []), at: look.at });
  findings.add(
    look.at,
    'text less readable than in the source',
    'listed',
    `its contrast is ${ratio().toFixed(1)}:1 against its background, where the source had ${source.toFixed(1)}:1`,
    'set the text colour (<Text textColor>) or the block colour (blockColor) so that the text stands out as it did',
  );
}

/** The text of a block's runs of a colour of their own by their colour: words a span of the source coloured. */
function runColours(pieces: readonly LmxInline[], into = new Map<string, string[]>()): Map<string, string[]> {
  for (const piece of pieces) {
    if (!('tag' in piece)) continue;
    const colour = colours(piece) ? hexColour(piece.attrs.textColor) : undefined;
    if (colour !== undefined) into.set(colour, [...(into.get(colour) ?? []), plainText(piece.children)]);
    runColours(piece.children, into);
  }
  return into;
}

/**
 * Words of a colour of their own within a block (a coloured span among the block's text) that read
 * in the source, 3:1 or more, and do not on what LMX draws them on: listed, each colour once.
 */
function checkRuns(made: LmxBlock, look: { background: string; at: Place }, background: string, findings: Findings): void {
  const behind = made.attrs.blockColor ?? background;
  // The colour of all of its words is the block's own, which check weighed.
  const whole = ownColour(made);
  for (const [colour, runs] of runColours(made.inline ?? [])) {
    if (colour === whole) continue;
    const source = contrastRatio(colour, look.background);
    const drawn = contrastRatio(colour, behind);
    if (source < READABLE || drawn >= READABLE) continue;
    findings.unreadable.push({ text: runs.join(' '), at: look.at });
    findings.add(
      look.at,
      `words in ${colour} less readable than in the source`,
      'listed',
      `their contrast is ${drawn.toFixed(1)}:1 against their background ${behind}, where the source had ${source.toFixed(1)}:1`,
      'set their colour (<Text textColor>) or the block colour (blockColor) so that they stand out as they did',
    );
  }
}

/** A hex colour in one spelling (`#FFF` and `#ffffff` alike), for colours to be compared. */
function sameSpelling(colour: string): string {
  const lower = colour.toLowerCase();
  return /^#[0-9a-f]{3}$/.test(lower) ? `#${[...lower.slice(1)].map((digit) => digit + digit).join('')}` : lower;
}

/**
 * Each text block's colours as LMX draws them (its text's, and what it stands on: its own block
 * colour, a section's or columns' around it, else the body's) against its source's (the colour its
 * text had; the background it stood on, where it set one, else the body's colour, which is the
 * source's card's or page's, as keepContrast takes it); what each image and button stands on,
 * against what it stood on; and each link's (the email's one link colour, or their own where
 * keepContrast gave them theirs) against its source's (a link of no colour of its own in a
 * browser's blue). Counted once the contrast is kept (keepContrast). Each change is
 * listed once for the email, at the first block it holds for, with how many more it does and their places (text that stood
 * on a background image LMX drops is on another background); a block an
 * entry already says reads less well than in the source is not listed again, nor a link of another
 * colour than the email's (listed as keepContrast draws it).
 */
export function compareColours(blocks: readonly LmxBlock[], style: Readonly<Record<string, string>>, findings: Findings): Measure {
  const body = style.bodyColor ?? String(DEFAULT_THEME_STYLES.bodyColor);
  const placeOf = (at: Place) => `${at.file}:${at.line}:${at.column}`;
  const said = new Set(findings.remediation.filter((item) => item.construct === 'text less readable than in the source').map(placeOf));
  const measure = { source: 0, kept: 0 };
  const changes = new Map<string, { tag: string; places: Place[] }>();
  const link = sameSpelling(style.textLinkColor ?? String(DEFAULT_THEME_STYLES.textLinkColor));
  // LMX draws a link in the email's one link colour, or its words in their own where keepContrast gave them theirs.
  const compareLink = (piece: LmxInline) => {
    const look = linkLooks.get(piece);
    if (look === undefined || !('tag' in piece)) return;
    measure.source += 1;
    const drawn = sameSpelling(ownInlineColour(piece.children) ?? link);
    if (sameSpelling(look.colour) === drawn) measure.kept += 1;
  };
  const visit = (list: readonly LmxBlock[], background: string) => {
    for (const made of list) {
      const behind = made.attrs.blockColor ?? background;
      const textLook = looks.get(made);
      const look = textLook ?? backdrops.get(made);
      if (look !== undefined) {
        measure.source += 1;
        const text = textLook === undefined ? undefined : sameSpelling(textLook.colour);
        const drawn = text === undefined ? undefined : sameSpelling(drawnColour(made, baseOf(style, made.tag)));
        const [under, on] = [sameSpelling(look.background ?? body), sameSpelling(behind)];
        const differs = [
          ...(text === drawn ? [] : [`text drawn ${drawn}, where the source draws it ${text}`]),
          ...(look.image !== undefined
            ? [`on ${on}, where the source has a background image`]
            : under === on
              ? []
              : [`on ${on}, where the source has ${under}`]),
        ];
        if (differs.length === 0) measure.kept += 1;
        else if (!said.has(placeOf(look.at))) {
          const change = changes.get(differs.join('; ')) ?? { tag: made.tag, places: [] };
          change.places.push(look.at);
          changes.set(differs.join('; '), change);
        }
      }
      for (const piece of linksIn(made.inline ?? [])) compareLink(piece);
      if (made.blocks !== undefined) visit(made.blocks, behind);
    }
  };
  visit(blocks, body);
  for (const [change, { tag, places }] of changes) {
    const [at, ...also] = places;
    findings.add(
      at!,
      `the colours of <${tag}>${also.length === 0 ? '' : ` and ${also.length} more block${also.length === 1 ? '' : 's'}`}`,
      'not carried',
      change,
      "set the text colour (<Text textColor>, or the theme's textBaseColor in <Style />) or the block colour (blockColor) as the original has them",
      also,
    );
  }
  return measure;
}
