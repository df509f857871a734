/**
 * HTML lists as LMX's: a list of items drawn with markers is `<UnorderedList>` or `<OrderedList>`,
 * its nested lists' items added to it (LMX lists do not nest); a list its style draws with no
 * markers (`list-style-type: none`: Vendure's address, a footer's links) is lines of text, as it shows.
 */

import { inherit, isInline, type MapContext } from './inline.js';
import { recordSource } from './layout/block-source.js';
import { block, type LmxBlock } from './lmx-out.js';
import type { SourceElement, SourceNode } from './model.js';
import { alignOf } from './styles.js';
import type { BlockSteps } from './tables.js';

const br = (at: SourceElement['at']): SourceElement => ({ type: 'element', name: 'br', attrs: {}, style: {}, children: [], at });

const LISTS = new Set(['ul', 'ol']);

const isList = (node: SourceNode): node is SourceElement => node.type === 'element' && LISTS.has(node.name);

/** A list's items, and the lists written straight inside it, in order. */
const itemsOf = (list: SourceElement) =>
  list.children.filter((child): child is SourceElement => child.type === 'element' && (child.name === 'li' || LISTS.has(child.name)));

/** Whether a list's style draws its items with no marker: `list-style-type: none`, or `list-style: none`. */
function markerless(list: SourceElement): boolean {
  const type = list.style['list-style-type'] ?? list.style['list-style'];
  return type?.trim().toLowerCase().split(/\s+/).includes('none');
}

/** A `<ul>` or `<ol>` as one LMX block: a list, or a paragraph of its items' lines where it draws no markers. */
export function listBlock(node: SourceElement, context: MapContext, steps: Pick<BlockSteps, 'textBlock'>): LmxBlock | undefined {
  const inner = inherit(context, node.style);
  if (markerless(node)) {
    const lines = itemsOf(node).flatMap((item, index) => [...(index === 0 ? [] : [br(item.at)]), ...inlineNodes(item.children)]);
    return lines.length === 0 ? undefined : steps.textBlock('Paragraph', lines, inner, node);
  }
  const items: LmxBlock[] = [];
  const addNested = (sublist: SourceElement) => {
    context.findings.add(
      sublist.at,
      'a list inside a list',
      'flattened',
      'its items added to the outer list',
      'LMX lists do not nest: reword, or use a second list',
    );
    addItems(sublist);
  };
  // A list's children in order: its items, and lists written straight inside it (`<ul><li>…</li><ul>…</ul></ul>`, which mail clients draw nested).
  const addItems = (list: SourceElement) => {
    for (const child of itemsOf(list)) {
      if (LISTS.has(child.name)) {
        addNested(child);
        continue;
      }
      const nested = child.children.filter(isList);
      const content = child.children.filter((grand) => !nested.includes(grand as SourceElement));
      const item = steps.textBlock('ListItem', inlineNodes(content), inherit(inner, child.style), child);
      if (item !== undefined) items.push(item);
      for (const sublist of nested) addNested(sublist);
    }
  };
  addItems(node);
  if (items.length === 0) return undefined;
  const list = block(node.name === 'ol' ? 'OrderedList' : 'UnorderedList', {}, { blocks: items });
  const align = alignOf(inner.inherited['text-align']) ?? 'left';
  if (align !== 'left') list.attrs.align = align;
  recordSource(list, node, 'text', align);
  const start = Number(node.attrs.start);
  if (node.name === 'ol' && Number.isInteger(start) && start !== 1) list.attrs.start = String(start);
  return list;
}

/** The inline content of nodes that may hold blocks (a list item's paragraphs): blocks joined with line breaks. */
function inlineNodes(nodes: readonly SourceNode[]): SourceNode[] {
  const flat: SourceNode[] = [];
  for (const node of nodes) {
    if (isInline(node)) flat.push(node);
    else {
      const element = node as SourceElement;
      if (flat.length > 0) flat.push(br(element.at));
      flat.push(...inlineNodes(element.children));
    }
  }
  return flat;
}
