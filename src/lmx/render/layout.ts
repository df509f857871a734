/**
 * The layout blocks of an email drawn: columns, sections and components, which hold blocks of
 * their own in a narrower width, and the placeholder of a component that is not drawn.
 */

import { escapeHtml, px, style } from '../html.js';
import { msoFixedWidth } from '../outlook.js';
import type { LmxElement } from '../parse.js';
import { safeNumber } from '../theme.js';
import type { Drawing } from './drawing.js';

export function columns(draw: Drawing, element: LmxElement): string {
  const items = element.children.filter((child): child is LmxElement => child.kind === 'element');
  if (items.length === 0) return '';
  const gap = draw.number(element, 'gap', 0, 150) ?? 24;
  const given = (draw.attribute(element, 'widths') ?? '').split(',').map((part) => safeNumber(part, 1, 100));
  const widths = given.length === items.length && given.every((width) => width !== undefined) ? (given as number[]) : items.map(() => 100 / items.length);
  const valign = { top: 'top', middle: 'middle', bottom: 'bottom' }[draw.attribute(element, 'verticalAlignment') ?? 'top'] ?? 'top';
  const stack = draw.attribute(element, 'stackOnMobile') !== 'false';
  const reverse = draw.attribute(element, 'reverseOnMobile') === 'true';
  const cells = items.map((item, index) => {
    const first = index === 0;
    const last = index === items.length - 1;
    const padding = `padding:0 ${px(last ? 0 : gap / 2)} 0 ${px(first ? 0 : gap / 2)}`;
    const inner = draw.within((draw.innerWidth(element) * widths[index]!) / 100 - (first || last ? gap / 2 : gap), () => draw.containedBlocks(item.children));
    return `<td${stack ? ' class="lmx-stack"' : ''} width="${widths[index]!.toFixed(2).replace(/\.?0+$/, '')}%" valign="${valign}"${reverse ? ' dir="ltr"' : ''}${style([padding, `vertical-align:${valign}`])}>${inner}</td>`;
  });
  // Reversed on mobile: the cells are written in reverse in a right-to-left row, which shows them
  // in order side by side, and in reverse once stacked (where the media query applies).
  const row = reverse ? cells.reverse().join('') : cells.join('');
  const table = `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"${reverse ? ' dir="rtl"' : ''}${style(['table-layout:fixed'])}><tr>${row}</tr></table>`;
  return draw.wrap(element, msoFixedWidth(Math.round(draw.innerWidth(element)), table));
}

export function component(draw: Drawing, element: LmxElement): string {
  const id = draw.attribute(element, 'componentId') ?? '';
  const named = `Component ${id === '' ? 'with no componentId' : id}`;
  if (draw.inComponent) {
    draw.nestedComponents.add(id);
    return placeholder(draw, element, 'data-nested-component', id, `${named}: components do not nest, so not shown`);
  }
  // Explicit children are the component's content as edited in this email.
  const content = element.children.some((child) => child.kind === 'element') ? element.children : draw.componentNamed(id)?.children;
  if (content === undefined) {
    draw.missingComponents.add(id);
    return placeholder(draw, element, 'data-missing-component', id, `${named}: not found, so not shown`);
  }
  return draw.wrap(
    element,
    draw.asComponent(() => draw.containedBlocks(content)),
  );
}

/** A component not drawn: a dashed box saying why, marked with the attribute and its id. */
export function placeholder(draw: Drawing, element: LmxElement, marker: string, id: string, note: string): string {
  return draw.wrap(
    element,
    `<p ${marker}="${escapeHtml(id)}"${style(['margin:0', 'padding:12px', 'border:1px dashed #d1d5db', 'border-radius:6px', 'color:#6b7280', 'font-size:13px', 'text-align:center'])}>${escapeHtml(note)}</p>`,
  );
}

export function section(draw: Drawing, element: LmxElement): string {
  const href = draw.url(element, 'href');
  const inner = draw.within(draw.innerWidth(element), () => draw.containedBlocks(element.children));
  if (href === undefined) return draw.wrap(element, inner);
  // A link may not hold another: a section whose content has links keeps those, and is not one itself.
  if (/<a\s/.test(inner)) {
    draw.inert.push({
      tag: element.name,
      attribute: 'href',
      value: href,
      reason: 'is not written: the section holds links of its own, and a link cannot hold another; link the section or its content, not both',
    });
    return draw.wrap(element, inner);
  }
  return draw.wrap(
    element,
    `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer"${style(['display:block', 'color:inherit', 'text-decoration:none'])}>${inner}</a>`,
  );
}
