/**
 * What Outlook for Windows needs, which draws email with Word's engine: it ignores max-width, an
 * inline link's padding, CSS widths on images and border-radius, and reads line heights its own
 * way. The well-tested email frameworks (MJML, React Email) answer each the same way, and so does
 * this: conditional comments that only Outlook reads (`<!--[if mso]>`) holding fixed-width tables,
 * padding carried by a button's cell (`mso-padding-alt`), a width attribute on every image, line
 * heights with `mso-line-height-rule:exactly`, and the fonts set again where Word looks for them.
 */
import { escapeHtml } from './html.js';

/** The width of an email's body: what the body table is at most, and exactly in Outlook. */
export const BODY_WIDTH = 600;

/** The namespaces Outlook's VML and Office settings are written in. */
export const MSO_NAMESPACES = ' xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"';

/** Line heights as written, not as Word rounds them. */
export const MSO_LINE_HEIGHT = 'mso-line-height-rule:exactly';

/**
 * The head's part for Outlook: images at 96 dpi (else Word scales them at 120 dpi), and the body's
 * fonts set on every element, since Word falls back to Times New Roman where a font is inherited.
 */
export function msoHead(fontFamily: string): string {
  return `<!--[if mso]><noscript><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml></noscript><style>body,table,td,p,a,li,h1,h2,h3,blockquote,span{font-family:${escapeHtml(fontFamily)}!important}</style><![endif]-->`;
}

/** Content in a table of a fixed width that only Outlook sees, where every other client sees a fluid one. */
export function msoFixedWidth(width: number, inner: string, align = 'center'): string {
  const open = `<!--[if mso]><table role="presentation" width="${width}" align="${align}" cellpadding="0" cellspacing="0" border="0"><tr><td width="${width}"><![endif]-->`;
  return `${open}${inner}<!--[if mso]></td></tr></table><![endif]-->`;
}
