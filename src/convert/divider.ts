/**
 * A divider (`<hr>`, MJML's `<mj-divider>`, React Email's `<Hr>`) as LMX's `<Divider>`: the line the
 * source draws, its width and the space around it.
 */
import type { MapContext } from './inline.js';
import { recordSource } from './layout/block-source.js';
import { addPadding, block, type LmxBlock, setNumber } from './lmx-out.js';
import type { SourceElement } from './model.js';
import { dividerLine, hexColour, listAlpha, verticalSpace } from './styles.js';

/** One solid line, as LMX draws it, carrying the source's colour, thickness and width. */
export function dividerBlock(node: SourceElement, context: MapContext): LmxBlock {
  const made = block('Divider');
  const line = dividerLine(node.style);
  const colour = hexColour(line?.colour);
  if (colour !== undefined) made.attrs.color = colour;
  listAlpha(context.findings, line?.colour, colour, context.sourceBackground, node.at);
  if (line !== undefined && line.thickness > 1) setNumber(made, 'borderWidth', line.thickness, node.at, context.findings);
  // LMX draws a divider as one solid line of 1 to 16 px: one of two lines, of another style, or of none is drawn so, and listed.
  if (line !== undefined && (line.parts.length !== 1 || !line.solid))
    context.findings.add(
      node.at,
      line.parts.length === 0 ? 'a divider that draws no line' : `the divider’s ${line.parts.join(', ')}`,
      'approximated',
      line.parts.length === 0
        ? 'written as a <Divider>, which draws the theme’s line'
        : `drawn as one solid line of ${Math.min(16, Math.max(1, line.thickness))} px${colour === undefined ? '' : ` in ${colour}`}`,
      line.parts.length === 0 ? 'remove the <Divider> if only the space was meant' : 'check the line in the preview: LMX draws a divider as one solid line',
    );
  const percent = /^(\d+)%$/.exec(node.attrs.width ?? node.style.width ?? '');
  if (percent !== null && percent[1] !== '100') setNumber(made, 'width', Number(percent[1]), node.at, context.findings);
  const { top, bottom } = verticalSpace(node.style);
  addPadding(made, 'paddingTop', top);
  addPadding(made, 'paddingBottom', bottom);
  recordSource(made, context.holder, 'media', 'center');
  return made;
}
