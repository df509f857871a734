/**
 * Template syntax in an element's attributes and styles (`width="*|W|*"`, `align="{{ align }}"`,
 * `style="padding:[pad,fallback=8px]"`): the value is filled when the other provider sends, and
 * LMX's layout and colours take fixed values only. Each such value is taken off the element, so
 * that it is drawn as if the value were not given rather than read as a broken number or colour,
 * and listed at its place. Addresses and alt text keep their variables (the mapper makes them LMX's).
 */
import type { Findings, SourceElement, SourceNode } from './model.js';
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
  for (const child of node.children) settleTemplatedValues(child, findings);
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
