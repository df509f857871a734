/**
 * An `<mj-image>` as MJML draws it: in a padded cell, placed by its margins, at the width MJML
 * works out for it once the body is laid out.
 */
import { SourceLayout } from '../layout/layout.js';
import { borderOf } from '../layout/layout-intrinsic.js';
import { element, type SourceElement, type Style } from '../model.js';
import { pixels } from '../styles.js';
import { spacingOf } from './mjml-styles.js';
import type { MjmlTag } from './mjml-tags.js';

/** An image's alt as the template writes it: none where it writes none (MJML compiles that as alt="", which no one chose), "" where it marks the image decorative. */
export const writtenAlt = (attrs: Record<string, string>): { alt?: string } => (attrs.alt === undefined ? {} : { alt: attrs.alt });

/** An image that keeps its width on a phone, with the box it stands in (its padded cell). */
export interface SizedImage {
  img: SourceElement;
  box: SourceElement;
}

/** The image of an `<mj-image>`, and the padded cell it stands in. */
export function mjmlImage(tag: MjmlTag, attrs: Record<string, string>, style: Style): SizedImage {
  // MJML places the image in a table aligned as its align says: a block placed by its margins.
  const align = attrs.align ?? '';
  const img = element(
    'img',
    tag.at,
    [],
    { src: attrs.src ?? '', ...writtenAlt(attrs), width: attrs.width ?? '' },
    {
      'border-radius': attrs['border-radius'] ?? '',
      ...Object.fromEntries(Object.entries(style).filter(([property]) => /^border(-(top|right|bottom|left))?$/.test(property))),
      display: 'block',
      'margin-left': align === 'center' || align === 'right' ? 'auto' : '0',
      'margin-right': align === 'center' || align === 'left' ? 'auto' : '0',
    },
  );
  const box = element('div', tag.at, attrs.href === undefined ? [img] : [element('a', tag.at, [img], { href: attrs.href })], {}, spacingOf(style));
  return { img, box };
}

/**
 * Each image given the width MJML draws it at: its own, at most its column's content box as the
 * body lays out at its full width (`width`), which MJML writes on it; one of no width takes the
 * whole box. MJML keeps that width on a phone, where its column is wider (an image of a column
 * of two centred at 274 px), but where `fluid-on-mobile` makes it the screen's width there.
 */
export function sizeImages(images: readonly SizedImage[], body: SourceElement, width: number): void {
  if (images.length === 0) return;
  const layout = new SourceLayout(body, width);
  for (const { img, box } of images) {
    const placed = layout.of(box)?.box;
    if (placed === undefined) continue;
    const room = Math.floor(placed.right - placed.left - borderOf(img.style, 'left') - borderOf(img.style, 'right'));
    const own = pixels(img.attrs.width);
    if (room > 0 && (own === undefined || own > room)) img.attrs.width = String(room);
  }
}
