/**
 * The blocks that carry an address: an image (a placeholder and dynamicSrc for a computed one,
 * listed when it stays at an old provider's or a relative address) and a button (its colours,
 * radius, size and inner padding; a full-width one widened; one with no address kept as text).
 */

import { BUTTON_LINE_HEIGHT } from '../lmx/render/media.js';
import { ownWidth } from './address-width.js';
import { coloured } from './contrast.js';
import { attributeText, BROWSER_FONT_SIZE, flatText, hrefOf, inherit, inlineOf, isBold, type MapContext, trimInline } from './inline.js';
import { buttonPosition, imageAlign, type Position } from './layout/alignment.js';
import { recordSource } from './layout/block-source.js';
import { WIDENED } from './layout/lmx-fit.js';
import { block, type LmxBlock, PLACEHOLDER_IMAGE, plainText, setNumber } from './lmx-out.js';
import { COMPUTED, SHOWN_IN_TURN, type SourceElement } from './model.js';
import { alignOf, borderSide, boxSides, drawnBorders, hexColour, lineHeightPercent, pixels, sides, styleAt } from './styles.js';

/** The hosts where email providers keep the images of their customers' emails (Mailchimp, SendGrid, Brevo, Mailjet, Kit, Klaviyo, Customer.io, Campaign Monitor). */
const PROVIDER_STORAGE =
  /^https?:\/\/([a-z0-9-]+\.)*(mcusercontent\.com|gallery\.mailchimp\.com|mc\.sendgrid\.com|marketing-image-production\.s3\.amazonaws\.com|img\.mailinblue\.com|img-cache\.net|mjt\.lu|filekitcdn\.com|convertkit-mail\d*\.com|klaviyo\.com|d3k81ch9hvuctc\.cloudfront\.net|customeriomail\.com|createsend1\.com)\//i;

export function imageBlock(node: SourceElement, href: string | undefined, context: MapContext): LmxBlock | undefined {
  const src = node.attrs.src?.trim() ?? '';
  const computed = node.attrs[COMPUTED]?.split(' ').includes('src') === true;
  // An image of no address (`src=""`, an <mj-image> of no src) draws nothing: a placeholder would show recipients a picture the source never did.
  if (src === '' && !computed) {
    context.findings.add(
      node.at,
      '<img src="">',
      'dropped',
      'left out: an image of no address, which shows nothing',
      'put the image’s https address in src, if one should show there',
    );
    return undefined;
  }
  const made = block('Image', { src });
  const pieces = inlineOf([{ type: 'text', text: src, at: node.at }], context);
  if (pieces.some((piece) => 'variable' in piece)) {
    // LMX requires a static src (content check refuses an empty one): a placeholder stands in, listed.
    made.attrs.src = PLACEHOLDER_IMAGE;
    made.attrs.dynamicSrc = pieces.map((piece) => ('text' in piece ? piece.text : `{${(piece as { variable: string }).variable}}`)).join('');
    context.findings.add(
      node.at,
      `<img src="${src}">`,
      'approximated',
      `the address made the image’s dynamicSrc, and its src the placeholder ${PLACEHOLDER_IMAGE}`,
      'put the address of an image shown when the value is missing in src',
    );
  } else if (computed) {
    made.attrs.src = PLACEHOLDER_IMAGE;
    context.findings.add(
      node.at,
      'an image whose address is computed when the app runs',
      'approximated',
      `its src made the placeholder ${PLACEHOLDER_IMAGE}`,
      'put the image’s https address in src',
    );
  } else if (PROVIDER_STORAGE.test(src)) {
    context.findings.add(
      node.at,
      `<img src="${src}">`,
      'listed',
      'left at the old provider’s address, which may stop serving it once the account there is closed',
      'convert again with --upload to copy it to the account’s storage',
    );
  } else if (/^http:\/\//i.test(src)) {
    context.findings.add(
      node.at,
      `<img src="${src}">`,
      'listed',
      'kept at its http:// address, which some mail clients do not load (content check warns of it)',
      'serve it over https://, or convert again with --upload to copy it to the account’s storage',
    );
  } else if (!/^https?:\/\//i.test(src)) {
    context.findings.add(
      node.at,
      `<img src="${src}">`,
      'listed',
      'the address kept as written, which LMX does not take',
      'upload the image (to the account’s storage, or any https host) and put its full https address in src',
    );
  }
  // Alt text is text of the email: its template variables are made LMX's as the paragraphs' are. An empty
  // one is kept: it marks the image decorative, which screen readers pass over, where one of no alt is read by its address.
  if (node.attrs.alt !== undefined) made.attrs.alt = node.attrs.alt.trim() === '' ? '' : attributeText(node.attrs.alt, node, context);
  if (href !== undefined) made.attrs.href = href;
  // One of no width at all, or `width: auto` (Foundation's), is drawn at its own size (MJML's reader writes an empty one for its column's).
  const own = node.attrs.width === undefined && (node.style.width ?? 'auto').trim().toLowerCase() === 'auto' ? ownWidth(src) : undefined;
  const width = pixels(node.attrs.width) ?? pixels(node.style.width) ?? pixels(node.style['max-width']) ?? own;
  if (width !== undefined) setNumber(made, 'width', width, node.at, context.findings);
  // Where the source puts it (a block image by its margins, an inline one by its line's alignment), said even where it is centred, as LMX draws an image unless told.
  const align = imageAlign(node, context.inherited['text-align']);
  made.attrs.align = align;
  // One of no width stands across its box where the source makes it as wide (`width: 100%`, or MJML's, whose reader writes an
  // empty width for MJML's column width); an HTML or React image of none is drawn at its own size, which convert knows only
  // where its address names it, where LMX draws it across its box.
  const fills = width === undefined && (node.attrs.width === '' || /^\s*100%/.test(node.attrs.width ?? node.style.width ?? ''));
  // Where the source's media queries move it (Foundation's `.small-float-center`, centred on a phone), it stands where they put it at each width.
  const positionAt =
    fills || node.narrow === undefined
      ? undefined
      : (viewport: number) => imageAlign({ ...node, style: styleAt(node, viewport) }, context.inherited['text-align']);
  recordSource(made, context.holder, 'media', align, {
    own: node,
    position: fills ? 'full' : align,
    positionAt,
    inTurn: node.attrs[SHOWN_IN_TURN] !== undefined,
  });
  const radius = pixels(node.style['border-radius']);
  if (radius !== undefined && radius > 0) setNumber(made, 'borderRadius', radius, node.at, context.findings);
  carryBorder(made, node, context);
  return made;
}

/** The widths of a button's border drawn in its own background colour, each side's, or undefined where it has no such border. */
function faceBorder(style: SourceElement['style'], background: string | undefined): [number, number, number, number] | undefined {
  const borders = drawnBorders(style);
  if (background === undefined || borders.length === 0) return undefined;
  let face: [number, number, number, number] = [0, 0, 0, 0];
  // The shorthand first, then each side's own over it (Mailgen's `border-top: 15px solid #3869D4` … `border-left: 25px …`).
  for (const border of borders) {
    const [property, ...value] = border.split(' ');
    const side = borderSide(value.join(' '));
    if (hexColour(side.colour) !== background) return undefined;
    if (property === 'border') face = sides(style['border-width']) ?? [side.width, side.width, side.width, side.width];
    else face[BORDER_SIDES.indexOf(property!)] = side.width;
  }
  return face;
}

const BORDER_SIDES = ['border-top', 'border-right', 'border-bottom', 'border-left'];

/**
 * A button's or an image's border: LMX draws one solid line of one width and colour on every side
 * (borderWidth, borderColor), so one drawn so is carried; one of another style, or on some sides
 * only, is carried as far as it can be and listed.
 */
function carryBorder(made: LmxBlock, node: SourceElement, context: MapContext): void {
  const borders = drawnBorders(node.style);
  if (borders.length === 0) return;
  const whole = borders[0]!.startsWith('border ') ? borderSide(borders[0]!.slice('border '.length)) : undefined;
  if (whole !== undefined) {
    setNumber(made, 'borderWidth', whole.width, node.at, context.findings);
    const colour = hexColour(whole.colour ?? node.style.color);
    if (colour !== undefined) made.attrs.borderColor = colour;
  }
  if (whole !== undefined && borders.length === 1 && whole.style === 'solid') return;
  context.findings.add(
    node.at,
    `the ${made.tag === 'Button' ? 'button' : 'image'}’s ${borders.join(', ')}`,
    'approximated',
    whole === undefined ? 'left out: LMX draws its border on every side alike' : `drawn as a solid line of ${whole.width} px on every side`,
    'check it in the preview: LMX draws one solid border on every side',
  );
}

export function buttonBlock(node: SourceElement, context: MapContext): LmxBlock | undefined {
  const inner = inherit(context, node.style);
  // A button's text takes none of the text's colours or sizes around it, but is written in the case it is shown in.
  const transform = inner.inherited['text-transform'];
  const { pieces, formatted } = flatText(
    trimInline(inlineOf(node.children, { ...inner, inherited: transform === undefined ? {} : { 'text-transform': transform } })),
  );
  if (plainText(pieces).trim() === '') return undefined;
  if (formatted)
    context.findings.add(
      node.at,
      'formatting inside a button',
      'dropped',
      'the button’s text kept without it',
      'a <Button> holds plain text: style it with its own colours',
    );
  // LMX draws a button's text in the theme's button text format, which <Style> cannot set (the specification names no buttonTextFormat).
  const weight = inner.inherited['font-weight'];
  const bold = !formatted && weight !== undefined && isBold({ 'font-weight': weight });
  if (bold)
    context.findings.add(
      node.at,
      `a bold button (font-weight: ${weight.trim()})`,
      'approximated',
      'its text drawn in the weight of the theme’s button text (regular in the default theme)',
      'make the theme’s button text bold in the editor, if its buttons should be',
    );
  const href = node.attrs.href === undefined ? undefined : hrefOf(node.attrs.href, node, context);
  // A button whose address the reader could not know (computed when the app runs) goes nowhere: its text is kept as text.
  if (href === '') {
    context.findings.add(
      node.at,
      'a button whose address is computed when the app runs',
      'kept as text',
      'its text kept as a paragraph, as a button to nowhere cannot be published',
      'make it a <Button> again with its https address',
    );
    // Its label keeps the button's text colour, on the button's colour: the paragraph is the button's face.
    const labelColour = hexColour(node.style.color);
    const kept = block('Paragraph', {}, { inline: labelColour === undefined ? pieces : coloured(pieces, labelColour) });
    const face = hexColour(node.style['background-color'] ?? node.style.background);
    if (face !== undefined) kept.attrs.blockColor = face;
    // Its text stands where the button stood: a centred button's is centred, a full-width one's label in its middle.
    const drawn = buttonPosition(node, context.inherited['text-align']);
    const keptAlign = drawn === 'full' ? 'center' : drawn;
    if (keptAlign !== 'left') kept.attrs.align = keptAlign;
    recordSource(kept, context.holder, 'text', keptAlign, { own: node, position: keptAlign });
    return kept;
  }
  const made = block('Button', {}, { inline: pieces });
  if (href !== undefined) made.attrs.href = href;
  const style = node.style;
  const background = hexColour(style['background-color'] ?? style.background);
  if (background !== undefined) made.attrs.bgColor = background;
  const colour = hexColour(style.color);
  if (colour !== undefined) made.attrs.textColor = colour;
  const radius = pixels(style['border-radius']);
  if (radius !== undefined) setNumber(made, 'borderRadius', radius, node.at, context.findings);
  // A border of the button's own colour shows as more of its face (Mailgun's `border: 10px 20px solid` of its background): its inner padding.
  const face = faceBorder(style, background);
  if (face === undefined) carryBorder(made, node, context);
  const fontSize = pixels(style['font-size']);
  if (fontSize !== undefined) setNumber(made, 'fontSize', fontSize, node.at, context.findings);
  const innerPadding = sides(node.attrs['inner-padding'] ?? style['x-inner-padding']) ?? (node.name === 'a' ? linkPadding(style, fontSize) : undefined);
  if (innerPadding !== undefined || face !== undefined) {
    setNumber(made, 'innerYPadding', (innerPadding?.[0] ?? 0) + (face?.[0] ?? 0), node.at, context.findings);
    setNumber(made, 'innerXPadding', (innerPadding?.[1] ?? 0) + (face?.[1] ?? 0), node.at, context.findings);
  }
  heightenToSource(node, made, fontSize, context);
  const align = alignOf(node.attrs.align ?? context.inherited['text-align']);
  if (align !== undefined) made.attrs.align = align;
  const inherited = context.inherited['text-align'];
  const position = buttonPosition(node, inherited);
  widenFullWidth(node, made, position, plainText(pieces), fontSize, context);
  // Where the source's media queries restyle it (a width of 100% on a phone), it stands where they put it at each width.
  const positionAt = node.narrow === undefined ? undefined : (viewport: number) => buttonPosition({ ...node, style: styleAt(node, viewport) }, inherited);
  // A full-width button's label stands in its middle: centred, as it is widened to stand across the body.
  recordSource(made, context.holder, 'media', alignOf(made.attrs.align) ?? 'left', { own: node, position, fills: position === 'full', positionAt, bold });
  return made;
}

/** A link drawn as a button with no padding: its padding is inside its face (linkPadding), and the space around it its margin alone. */
export function outsideFace(node: SourceElement): SourceElement {
  return { ...node, style: Object.fromEntries(Object.entries(node.style).filter(([property]) => !property.startsWith('padding'))) };
}

/**
 * The inner padding of a link drawn as a button (an `<a>` of a background colour of its own): its
 * padding is inside its face (Mailgen's Neopolitan's `padding: 0 25px`), and a line taller than
 * LMX's (its `line-height: 50px`) is more of it above and below, as the face is as tall as its
 * line. Undefined where it sets neither, and LMX's theme pads it.
 */
function linkPadding(style: Readonly<Record<string, string>>, fontSize: number | undefined): [number, number, number, number] | undefined {
  const [top, right, bottom, left] = boxSides(style, 'padding');
  const size = fontSize ?? BROWSER_FONT_SIZE;
  const line = lineHeightPercent(style['line-height'], size);
  const taller = line === undefined ? 0 : Math.max(0, Math.round(((line / 100 - BUTTON_LINE_HEIGHT) * size) / 2));
  if ([top, right, bottom, left].every((value) => value === undefined) && taller === 0) return undefined;
  const [y, x] = [Math.round(((top ?? 0) + (bottom ?? 0)) / 2) + taller, Math.round(((left ?? 0) + (right ?? 0)) / 2)];
  return [y, x, y, x];
}

/**
 * A button the source draws taller than its text and inner padding (MJML's `height="50px"`, which
 * its cell takes, the link centred in it): the inner padding above and below made up to that
 * height, as LMX's button is as tall as its text and that padding.
 */
function heightenToSource(node: SourceElement, made: LmxBlock, fontSize: number | undefined, context: MapContext): void {
  const height = pixels(node.attrs.height);
  if (height === undefined) return;
  const size = fontSize ?? MJML_BUTTON_FONT_SIZE;
  // MJML's button writes its line height as given, 120% unless told.
  const line = ((lineHeightPercent(node.style['line-height'], size) ?? 120) / 100) * size;
  const padding = Math.round((height - line) / 2);
  if (padding > Number(made.attrs.innerYPadding ?? 0)) setNumber(made, 'innerYPadding', padding, node.at, context.findings);
}

/** mj-button's font size unless told (mjml-button's default attributes). */
const MJML_BUTTON_FONT_SIZE = 13;

/** The width of an email's body that a full-width button spans, less the usual padding beside it. */
const FULL_WIDTH = 560;

/**
 * A full-width button (`width: 100%`, a block of no width, MJML's `width="100%"`) or one of a fixed
 * width (a block `width: 210px`, any 300 px or wider): LMX's buttons fit their text, so the button is
 * widened with inner padding (at most the 100 LMX takes) to about the width it had, and listed. A
 * full-width one's label stands in its middle (centred); a fixed-width block stands where its
 * margins put it (the left edge but for auto margins), as `text-align` does not move a block.
 */
function widenFullWidth(node: SourceElement, made: LmxBlock, position: Position, label: string, fontSize: number | undefined, context: MapContext): void {
  const width = node.attrs.width || node.style.width;
  const block = node.style.display?.trim().toLowerCase() === 'block';
  const fixed = pixels(width);
  const full = position === 'full';
  if (!full && (fixed === undefined || (!block && fixed < 300))) return;
  const target = full ? (pixels(width) ?? FULL_WIDTH) : fixed!;
  // A letter is about 0.6 of the font size wide.
  const text = label.length * (fontSize ?? 16) * 0.6;
  const own = Number(made.attrs.innerXPadding ?? 0);
  const padding = Math.min(100, Math.max(own, Math.round((target - text) / 2)));
  made.attrs.innerXPadding = String(padding);
  WIDENED.set(made, own);
  if (full) made.attrs.align ??= 'center';
  else if (block) made.attrs.align = position;
  if (made.attrs.align === 'left') delete made.attrs.align;
  context.findings.add(
    node.at,
    `a ${full ? 'full' : 'fixed'}-width button (${width ?? 'display: block'})`,
    'approximated',
    `widened with an inner padding of ${padding} on each side${padding === 100 ? ' (the most LMX takes)' : ''}${full ? '' : `, at the ${made.attrs.align ?? 'left'} as the source draws it`}`,
    'LMX buttons fit their text: check its width in the preview',
  );
}
