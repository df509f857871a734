/**
 * An <Icons> row drawn as the platform draws it: each icon its Font Awesome glyph, an image named
 * by its label (the icon's name), in the row's colour and size. A name loopsctl has no glyph for
 * (the platform knows all of Font Awesome) is drawn as a badge with its name.
 */
import { escapeHtml, px, style } from './html.js';
import { ICON_GLYPHS } from './icon-glyphs.js';

export interface IconRow {
  /** One of the three colours <Icons color> takes. */
  colour: string;
  size: number;
  gap: number;
  align: string;
  icons: { name: string; href?: string }[];
}

/**
 * An icon's glyph as an inline SVG image named by its label (what a screen reader reads, and a
 * client that drops SVG may show), or undefined when loopsctl has none for the name.
 */
function glyphImage(name: string, colour: string, size: number): string | undefined {
  const glyph = ICON_GLYPHS.get(name);
  if (glyph === undefined) return undefined;
  const [width, height, , , path] = glyph.icon;
  const paths = (Array.isArray(path) ? path : [path]).map((d) => `<path fill="${colour}" d="${d}"></path>`).join('');
  const label = escapeHtml(name);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${size}" height="${size}" role="img" aria-label="${label}"${style(['display:block'])}><title>${label}</title>${paths}</svg>`;
}

function badge(name: string, colour: string, size: number): string {
  return `<span role="img" aria-label="${escapeHtml(name)}"${style([
    'display:inline-block',
    `min-width:${px(size)}`,
    `height:${px(size)}`,
    `line-height:${px(size - 2)}`,
    `border:1px solid ${colour}`,
    `border-radius:${px(size / 2)}`,
    `color:${colour}`,
    `font-size:${px(Math.max(9, Math.round(size / 2.4)))}`,
    'padding:0 6px',
    'box-sizing:border-box',
    'text-align:center',
    'text-decoration:none',
  ])}>${escapeHtml(name)}</span>`;
}

/** The row as a table of one cell per icon, each linked when it has a live address. */
export function iconRow({ colour, size, gap, align, icons }: IconRow): string {
  const cells = icons
    .map(({ name, href }) => {
      const drawn = glyphImage(name, colour, size) ?? badge(name, colour, size);
      const linked =
        href === undefined ? drawn : `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer"${style(['text-decoration:none'])}>${drawn}</a>`;
      return `<td${style([`padding:0 ${px(gap / 2)}`])}>${linked}</td>`;
    })
    .join('');
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="${align}"${style([align === 'center' ? 'margin:0 auto' : undefined])}><tr>${cells}</tr></table>`;
}
