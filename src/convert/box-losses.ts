/**
 * What a box of blocks draws around or behind them that LMX draws around no box: a border, a
 * shadow, a background image; and the text a box hides. The mapper keeps the blocks (but the
 * hidden ones) and lists each at the box's place.
 */
import { DEFAULT_THEME_STYLES } from '../platform/themes/default-theme.js';
import { contrastRatio, READABLE, SOURCE_TEXT } from './contrast.js';
import { isButtonLink, type MapContext } from './inline.js';
import { type SourceElement, type SourceNode, shorten, textContent } from './model.js';
import { backgroundImageOf, backgroundOf, drawnBorders, firstStop, gradientOf, hexColour, shownOnPhoneUpTo } from './styles.js';

/**
 * Text the source hides, left out. A box hidden on a wide screen that a media query shows on a
 * phone (a menu or a note written for phones) is said so: LMX draws one layout for every screen.
 */
export function listHidden(node: SourceElement, context: MapContext): [] {
  const text = textContent(node).replace(/\s+/g, ' ').trim();
  if (text === '') return [];
  const phone = shownOnPhoneUpTo(node);
  context.findings.add(
    node.at,
    'hidden text',
    'dropped',
    `"${shorten(text)}" left out, as the source hides it${phone === undefined ? '' : ` on a screen wider than ${phone} px (it shows on a phone)`}`,
    phone === undefined
      ? 'if it is preview text, set previewText in the message’s fields'
      : 'LMX draws one layout for every screen: nothing to do where another block shows these words on every screen (the desktop’s version of the same table), else add them where they should show on both',
  );
  return [];
}

/** A box's border and shadow (a card's), which LMX draws around no box of blocks. */
export function listDecoration(node: SourceElement, context: MapContext): void {
  const borders = drawnBorders(node.style);
  if (borders.length > 0)
    context.findings.add(
      node.at,
      `the ${borders.join(', ')}`,
      'dropped',
      'left out: LMX draws no border around a box of blocks',
      'set the box apart with a background colour (a <Section blockColor>), or put a <Divider> where a line above or below it stood',
    );
  const shadow = node.style['box-shadow']?.trim();
  if (shadow !== undefined && shadow !== '' && !/^none$/i.test(shadow))
    context.findings.add(
      node.at,
      `the shadow ${shadow}`,
      'dropped',
      'left out: LMX draws no shadow',
      'nothing to do, or set the box apart with a background colour',
    );
}

/** A box's background image or gradient, which LMX has no form for; `standIn`, the colour drawn in the image's place (standInForImage). */
export function listBackgroundImage(node: SourceElement, context: MapContext, standIn?: string): void {
  const gradient = gradientOf(node.style);
  const stop = firstStop(gradient, context.sourceBackground);
  if (gradient !== undefined && stop !== undefined) {
    // The colour written beside the gradient (`background: #111827 linear-gradient(…)`), which a client that draws no gradient shows.
    const written = backgroundOf(
      { 'background-color': node.style['background-color'] ?? '', background: node.style.background?.replace(gradient, '') ?? '' },
      node.attrs,
    );
    context.findings.add(
      node.at,
      `the background gradient ${gradient}`,
      'approximated',
      written === undefined ? `drawn as its first colour, ${stop}` : `drawn in the colour given with it, ${written}`,
      'LMX has no gradients: set the colour (blockColor) that stands for it best',
    );
  }
  const image = backgroundImageOf(node.style, node.attrs);
  if (image !== undefined && image !== '')
    context.findings.add(
      node.at,
      `the background image ${image}`,
      'dropped',
      standIn === undefined
        ? 'the content kept on the background colour, if any'
        : `the content drawn on ${standIn} in its place, a colour its text reads on (the source gives the image no colour)`,
      standIn === undefined
        ? 'LMX has no background images: use an <Image> above the content, or a background colour'
        : 'LMX has no background images: set the section’s blockColor to the colour nearest the image, or use an <Image> above the content',
    );
}

/** The colours of a box's text, each inherited down to it from `colour`: a button's and a hidden box's left out. */
function textColours(node: SourceNode, colour: string, into: Set<string>): Set<string> {
  if (node.type === 'text') {
    if (node.text.trim() !== '') into.add(colour);
  } else if (node.type === 'variable') into.add(colour);
  else if (node.name !== 'x-button' && node.style.display !== 'none' && !isButtonLink(node)) {
    const own = hexColour(node.style.color) ?? colour;
    for (const child of node.children) textColours(child, own, into);
  }
  return into;
}

/**
 * The colour to draw a box's content on where LMX drops its background image and the source gives
 * the image no colour: its text stood on the picture, readable there, and would not read on what
 * LMX draws it on (white words over a photo, on a white body). Black or white, whichever the least
 * readable of its text reads best on; undefined where there is no such image or its text reads as it is.
 */
export function standInForImage(node: SourceElement, context: MapContext): string | undefined {
  const image = backgroundImageOf(node.style, node.attrs);
  if (image === undefined || image === '' || backgroundOf(node.style, node.attrs) !== undefined) return undefined;
  const colours = [...textColours(node, hexColour(context.inherited.color) ?? SOURCE_TEXT, new Set())];
  const least = (background: string) => Math.min(...colours.map((colour) => contrastRatio(colour, background)));
  // What LMX draws it on: the colour the box stood on (the page's, below the card: blocks.ts's standsOn), else the body's.
  const drawnOn = context.sourceBackground ?? context.background ?? String(DEFAULT_THEME_STYLES.bodyColor);
  if (colours.length === 0 || least(drawnOn) >= READABLE) return undefined;
  return least('#000000') >= least('#ffffff') ? '#000000' : '#ffffff';
}
