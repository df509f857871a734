/**
 * The media blocks of an email drawn: buttons, images and rows of social icons, with the Outlook
 * fallbacks they need, and addresses written live only when they may be.
 */

import { escapeHtml, px, style } from '../html.js';
import { iconRow } from '../icons.js';
import type { LmxElement } from '../parse.js';
import { IMAGE_SCHEMES } from '../tags.js';
import type { Drawing } from './drawing.js';

/** A line of a button's label, times its font size. */
export const BUTTON_LINE_HEIGHT = 1.25;

export function button(draw: Drawing, element: LmxElement): string {
  const { styles } = draw;
  const href = draw.url(element, 'href');
  const background = draw.colour(element, 'bgColor') ?? styles.buttonBodyColor;
  const colour = draw.colour(element, 'textColor') ?? styles.buttonTextColor;
  const borderColour = draw.colour(element, 'borderColor') ?? styles.buttonBorderColor;
  const borderWidth = draw.number(element, 'borderWidth', 0, 16) ?? styles.buttonBorderWidth;
  const radius = draw.number(element, 'borderRadius', 0, 999) ?? styles.buttonBorderRadius;
  const xPadding = draw.number(element, 'innerXPadding', 0, 100) ?? styles.buttonBodyXPadding;
  const yPadding = draw.number(element, 'innerYPadding', 0, 100) ?? styles.buttonBodyYPadding;
  const fontSize = draw.number(element, 'fontSize', 1, 200) ?? styles.buttonTextFontSize;
  const align = draw.align(element) ?? 'left';
  const padding = `${px(yPadding)} ${px(xPadding)}`;
  // Outlook ignores a link's padding: its cell carries it there (mso-padding-alt), and the link none.
  const css = [
    'display:inline-block',
    `padding:${padding}`,
    'mso-padding-alt:0px',
    `color:${colour}`,
    `font-size:${px(fontSize)}`,
    `line-height:${BUTTON_LINE_HEIGHT}`,
    `font-weight:${styles.buttonTextBold ? 'bold' : 'normal'}`,
    'text-decoration:none',
  ];
  const label = draw.inline(element.children);
  // Without a live address a button is drawn all the same, but as text: nothing to click.
  const inner =
    href === undefined
      ? `<span${style(css)}>${label}</span>`
      : `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer"${style(css)}>${label}</a>`;
  const cell = [
    `background-color:${background}`,
    `border-radius:${px(radius)}`,
    borderWidth > 0 ? `border:${px(borderWidth)} solid ${borderColour}` : undefined,
    `mso-padding-alt:${padding}`,
  ];
  const table = `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="${align}"${style(['border-collapse:separate', align === 'center' ? 'margin:0 auto' : undefined])}><tr><td bgcolor="${background}"${style(cell)}>${inner}</td></tr></table>`;
  return draw.wrap(element, table, [`text-align:${align}`]);
}

export function image(draw: Drawing, element: LmxElement): string {
  const alt = draw.attribute(element, 'alt') ?? '';
  // A dynamic image shows its filled address when that is one; else the static placeholder.
  const dynamic = element.attributes.some((attribute) => attribute.name === 'dynamicSrc') ? draw.url(element, 'dynamicSrc', IMAGE_SCHEMES) : undefined;
  const src = dynamic ?? draw.url(element, 'src', IMAGE_SCHEMES);
  const width = draw.number(element, 'width', 1, 600);
  const align = draw.align(element) ?? 'center';
  const radius = draw.number(element, 'borderRadius', 0, 999);
  const borderWidth = draw.number(element, 'borderWidth', 0, 16);
  const borderColour = draw.colour(element, 'borderColor') ?? draw.styles.borderColor;
  const css = [
    'display:block',
    'max-width:100%',
    'height:auto',
    'border:0',
    align === 'center' ? 'margin:0 auto' : align === 'right' ? 'margin:0 0 0 auto' : undefined,
    radius === undefined ? undefined : `border-radius:${px(radius)}`,
    borderWidth ? `border:${px(borderWidth)} solid ${borderColour}` : undefined,
  ];
  const image =
    src === undefined
      ? `<div role="img" aria-label="${escapeHtml(alt)}"${style(['padding:24px', 'background-color:#f3f4f6', 'color:#6b7280', 'text-align:center', 'font-size:13px', 'border-radius:6px'])}>${escapeHtml(alt === '' ? 'image' : alt)}</div>`
      : // Outlook ignores CSS widths on images: the attribute gives one, the LMX's or the space the image has.
        `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" width="${Math.round(Math.min(width ?? Number.POSITIVE_INFINITY, draw.innerWidth(element)))}"${style([...css, width === undefined ? 'width:100%' : `width:${px(width)}`])}>`;
  const href = draw.url(element, 'href');
  const linked = href === undefined ? image : `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${image}</a>`;
  return draw.wrap(element, linked, [`text-align:${align}`]);
}

/** The colour icons are drawn in where `<Icons color>` says none (or one of no known icon colour). */
export const DEFAULT_ICON_COLOUR = '#000000';

export function icons(draw: Drawing, element: LmxElement): string {
  const colour =
    { '#000000': '#000000', '#808080': '#808080', '#ffffff': '#ffffff' }[draw.attribute(element, 'color') ?? DEFAULT_ICON_COLOUR] ?? DEFAULT_ICON_COLOUR;
  const size = draw.number(element, 'size', 18, 48) ?? 24;
  const gap = draw.number(element, 'gap', 4, 200) ?? 12;
  const align = draw.align(element) ?? 'center';
  const icons = element.children
    .filter((child): child is LmxElement => child.kind === 'element' && child.name === 'Icon')
    .map((icon) => ({ name: draw.attribute(icon, 'name') ?? '', href: draw.url(icon, 'href') }));
  const table = iconRow({ colour, size, gap, align, icons });
  return draw.wrap(element, table, [`text-align:${align}`]);
}
