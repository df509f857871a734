/**
 * Values of an element's attributes and styles that are not one fixed value. Template syntax in
 * them (`width="*|W|*"`, `align="{{ align }}"`, `style="padding:[pad,fallback=8px]"`): the value
 * is filled when the other provider sends, and LMX's layout and colours take fixed values only.
 * Each such value is taken off the element, so that it is drawn as if the value were not given
 * rather than read as a broken number or colour, and listed at its place. Addresses and alt text
 * keep their variables (the mapper makes them LMX's). And alignment given twice, which a browser
 * settles by the style: listed.
 */

import { TEXT_ALIGNED } from './layout/alignment.js';
import type { Findings, SourceElement, SourceNode } from './model.js';
import { alignOf } from './styles.js';
import { holdsTemplateTag } from './variables.js';

/** The attributes whose template variables LMX carries (a link's and an image's address, an image's alt text), and `style`, read declaration by declaration. */
const CARRIED = new Set(['href', 'src', 'alt', 'style']);

/** Takes off every attribute and style value of the tree that holds template syntax LMX cannot carry there, each listed. */
export function settleTemplatedValues(node: SourceNode, findings: Findings): void {
  if (node.type !== 'element') return;
  for (const [name, value] of Object.entries(node.attrs)) {
    if (CARRIED.has(name) || !holdsTemplateTag(value)) continue;
    delete node.attrs[name];
    listed(findings, node, `${name}="${findings.spellings.get(value) ?? value}"`);
  }
  for (const [property, value] of Object.entries(node.style)) {
    if (!holdsTemplateTag(value)) continue;
    delete node.style[property];
    listed(findings, node, `${property}: ${value}`);
  }
  listTwiceAligned(node, findings);
  for (const child of node.children) settleTemplatedValues(child, findings);
}

/** Alignment given twice with different values (`align="right"` and `text-align: center`): the style's is the one a browser draws, and convert's, listed. */
function listTwiceAligned(node: SourceElement, findings: Findings): void {
  const attribute = alignOf(node.attrs.align);
  const styled = alignOf(node.style['text-align']);
  if (!TEXT_ALIGNED.has(node.name) || attribute === undefined || styled === undefined || attribute === styled) return;
  findings.add(
    node.at,
    `align="${node.attrs.align}" with text-align: ${node.style['text-align']}`,
    'listed',
    `aligned ${styled}, as the style wins over the attribute in a browser`,
    'keep one of the two in the source, or check the block’s align in the LMX',
  );
}

function listed(findings: Findings, node: SourceElement, construct: string): void {
  findings.add(
    node.at,
    construct,
    'dropped',
    'a value filled when the email is sent, where LMX takes a fixed one: drawn as if it were not given',
    'write the value out on the converted block (LMX takes fixed alignment, padding, colours and widths), or send it as a variable in the text',
  );
}
