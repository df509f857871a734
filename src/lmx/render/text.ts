/**
 * The text blocks of an email drawn: headings, paragraphs and quotes, code blocks, dividers and
 * lists, each in its own table cell with the block style attributes.
 */

import { escapeHtml, px, style } from '../html.js';
import type { LmxElement } from '../parse.js';
import type { TextStyle } from '../theme.js';
import type { Drawing } from './drawing.js';

export function textBlock(draw: Drawing, element: LmxElement, tag: string, text: TextStyle, extra: string[] = []): string {
  const align = draw.align(element);
  const css = [...draw.textCss(text, element), align === undefined ? undefined : `text-align:${align}`, ...extra].filter(
    (declaration): declaration is string => declaration !== undefined,
  );
  return draw.wrap(element, `<${tag}${style(css)}>${draw.inline(element.children)}</${tag}>`);
}

export function codeBlock(draw: Drawing, element: LmxElement): string {
  const text = element.children
    .map((child) => (child.kind === 'text' ? child.value : child.kind === 'variable' ? child.source : ''))
    .join('')
    .replace(/^\r?\n/, '');
  const css = [
    ...draw.textCss({ ...draw.styles.text, fontSize: draw.styles.text.fontSize - 2 }, element),
    'font-family:ui-monospace,Menlo,Consolas,monospace',
    'white-space:pre-wrap',
    'background-color:#f3f4f6',
    'padding:12px 16px',
    'border-radius:6px',
  ];
  return draw.wrap(element, `<pre${style(css)}><code>${escapeHtml(text)}</code></pre>`);
}

export function divider(draw: Drawing, element: LmxElement): string {
  const width = draw.number(element, 'width', 10, 100) ?? 100;
  const thickness = draw.number(element, 'borderWidth', 1, 16) ?? draw.styles.dividerBorderWidth;
  const colour = draw.colour(element, 'color') ?? draw.styles.dividerColor;
  const align = draw.align(element) ?? 'center';
  const margin = align === 'center' ? '0 auto' : align === 'right' ? '0 0 0 auto' : '0';
  return draw.wrap(element, `<hr${style(['border:0', `border-top:${px(thickness)} solid ${colour}`, `width:${width}%`, `margin:${margin}`])}>`);
}

/** How far a list's items stand in from its edge, their markers in that room (the convert's layout model reads it too). */
export const LIST_INDENT_PX = 24;

export function list(draw: Drawing, element: LmxElement): string {
  const ordered = element.name === 'OrderedList';
  const start = ordered ? draw.number(element, 'start', -1_000_000, 1_000_000) : undefined;
  const align = draw.align(element);
  const items = element.children
    .filter((child): child is LmxElement => child.kind === 'element')
    .map((item) => {
      // A list item takes the block style attributes too: it is drawn in its own <li>, not a table.
      const css = [...draw.textCss(draw.styles.text, item), 'margin:0 0 4px 0', ...draw.blockCss(item)];
      return `<li${style(css)}>${draw.inline(item.children)}</li>`;
    })
    .join('');
  const tag = ordered ? 'ol' : 'ul';
  const css = [
    'margin:0',
    `padding-left:${LIST_INDENT_PX}px`,
    align === undefined ? undefined : `text-align:${align}`,
    align === 'center' || align === 'right' ? 'list-style-position:inside' : undefined,
  ];
  return draw.wrap(element, `<${tag}${start === undefined || start === 1 ? '' : ` start="${Math.trunc(start)}"`}${style(css)}>${items}</${tag}>`);
}
