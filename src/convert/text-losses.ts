/**
 * What of a block's text LMX draws otherwise than the source, listed at the block: LMX gives a
 * block's text one size (where an inline element sizes all of it, Foundation's footer in a
 * `<small style="font-size: 80%">`, that is the block's size; where only part, the part is listed),
 * one size on every screen, a heading always bold and other text regular or bold, and the font's
 * own letter spacing.
 */
import type { MapContext } from './inline.js';
import type { Place, SourceElement } from './model.js';
import { pixels } from './styles.js';

export type DrawnSizes = NonNullable<MapContext['drawnSizes']>;

/** A size as a key: whole pixels, or none where the text keeps the theme's. */
const keyOf = (size: number | undefined) => (size === undefined ? undefined : Math.round(size));
const said = (size: number | undefined) => (size === undefined ? 'the theme’s size' : `${size} px`);

/**
 * The size a block's text is drawn at where it is not the one the block inherits (`inherited`;
 * none: the theme's), from the runs of its text (`drawn`); runs of another size are listed.
 */
export function blockFontSize(drawn: DrawnSizes, inherited: number | undefined, tag: string, context: MapContext): number | undefined {
  const sizes = new Map<number | undefined, number>();
  for (const run of drawn) sizes.set(keyOf(run.size), (sizes.get(keyOf(run.size)) ?? 0) + run.length);
  const own = keyOf(inherited);
  // The block's own size where some of its text has it (a heading's title beside a `<small>` note), else most of its text's.
  const kept = sizes.size === 0 || sizes.has(own) ? own : [...sizes].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
  for (const size of sizes.keys()) {
    if (size === kept) continue;
    const run = drawn.find((one) => keyOf(one.size) === size)!;
    context.findings.add(
      run.at,
      `text of ${said(size)} within a <${tag}> of ${said(kept)}`,
      'approximated',
      `drawn at ${said(kept)}: LMX gives a block's text one size`,
      'nothing, unless the size mattered: make that text a block of its own with its fontSize',
    );
  }
  return kept === own ? undefined : kept;
}

/** A size the source's media queries give a block's text on a phone (Mailgun's `h1 { font-size: 22px !important }` up to 640 px): LMX holds one, listed. */
export function listPhoneSize(node: SourceElement | undefined, size: number | undefined, at: Place, context: MapContext): void {
  const phone = node?.narrow?.find((entry) => pixels(entry.set['font-size']) !== undefined);
  const phoneSize = pixels(phone?.set['font-size']);
  if (phone === undefined || phoneSize === undefined || phoneSize === size) return;
  context.findings.add(
    at,
    `font-size ${phoneSize}px on a screen up to ${phone.upTo} px wide`,
    'approximated',
    `drawn at ${said(size)} on every screen: LMX gives a block one size`,
    'nothing, unless the size on a phone mattered: choose the one size that suits both',
  );
}

/**
 * A block's weight and letter spacing where LMX draws them otherwise: a heading the source draws
 * lighter than bold (Tailwind's `font-normal`), text it draws light (Covalent's 300), text it
 * spaces out or in (a sign-in code's `letterSpacing: "6px"`).
 */
export function listTextLook(tag: string, node: SourceElement | undefined, at: Place, context: MapContext): void {
  const style = context.inherited;
  const heading = tag.startsWith('H');
  const weight = (heading ? node?.style : style)?.['font-weight']?.trim().toLowerCase() ?? '';
  if (heading ? /^(normal|lighter|[1-5]00)$/.test(weight) : /^(lighter|[1-3]00)$/.test(weight))
    context.findings.add(
      at,
      `font-weight ${weight}`,
      'approximated',
      heading ? `<${tag}> drawn bold, as LMX draws every heading` : `<${tag}> drawn in the regular weight: LMX has no lighter one`,
      heading ? 'make it a <Paragraph> of its size if it must not be bold' : 'nothing, unless the light weight mattered: LMX text is regular or <Strong>',
    );
  const spacing = style['letter-spacing']?.trim().toLowerCase();
  if (spacing !== undefined && spacing !== 'normal' && Number.parseFloat(spacing) !== 0 && !Number.isNaN(Number.parseFloat(spacing)))
    context.findings.add(
      at,
      `letter-spacing ${spacing}`,
      'approximated',
      `<${tag}> drawn with its font's own spacing: LMX has no letter spacing`,
      'nothing, unless the spacing mattered (a code spaced out to read): space it with the text itself',
    );
}
