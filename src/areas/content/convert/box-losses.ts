/**
 * What a box of blocks draws around or behind them that LMX draws around no box: a border, a
 * shadow, a background image; and the text a box hides. The mapper keeps the blocks (but the
 * hidden ones) and lists each at the box's place.
 */
import type { MapContext } from './inline.js';
import { shorten, textContent, type SourceElement } from './model.js';
import { backgroundImageOf, drawnBorders, shownOnPhoneUpTo } from './styles.js';

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
      : 'LMX draws one layout for every screen: add the text to the email where it should show on both',
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

/** A box's background image, which LMX has no form for. */
export function listBackgroundImage(node: SourceElement, context: MapContext): void {
  const image = backgroundImageOf(node.style, node.attrs);
  if (image !== undefined && image !== '')
    context.findings.add(
      node.at,
      `the background image ${image}`,
      'dropped',
      'the content kept on the background colour, if any',
      'LMX has no background images: use an <Image> above the content, or a background colour',
    );
}
