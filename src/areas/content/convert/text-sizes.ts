/**
 * The one size LMX gives a block's text. An inline element can size text otherwise within its
 * block (Foundation's footer, a paragraph whose text is all in a `<small style="font-size: 80%">`):
 * where it sizes all of the block's text, that is the block's size; where only part, the part is
 * drawn at the block's size, listed.
 */
import type { MapContext } from './inline.js';

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
