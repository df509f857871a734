/**
 * LMX rendered to an HTML email document, for a person to look at before anything is sent: the
 * table layout and inline styles email clients need, semantic elements a screen reader can follow
 * (h1–h3, p, a, lists, img with alt, hr, blockquote, pre/code, strong, em, u, s), the theme's styles
 * under the email's `<Style />`, components inlined, and variables filled from the values given.
 *
 * It is a local preview, not the HTML the platform sends (the document says so in a comment).
 * Everything that comes from the email, a theme or a value is escaped or checked before it is
 * written: text and attributes are HTML-escaped, CSS values must be colours or numbers, and a link
 * or an image whose address is not http(s) (mailto, tel and sms for links) is written inert.
 */
import { ComponentBudget } from '../expansion.js';
import { escapeHtml, px, style } from '../html.js';
import { BODY_WIDTH, MSO_LINE_HEIGHT, MSO_NAMESPACES, msoHead } from '../outlook.js';
import type { LmxDocument, LmxElement, LmxNode, LmxText, LmxVariable } from '../parse.js';
import { LINK_SCHEMES, type LmxNamespace, schemeOf } from '../tags.js';
import { type DroppedStyle, type EmailStyles, emailStyles, safeColour, safeNumber, type TextStyle } from '../theme.js';
import { firstHeadingOf } from '../tree.js';
import type { Drawing, InertAddress } from './drawing.js';
import { columns, component, section } from './layout.js';
import { button, icons, image } from './media.js';
import { codeBlock, divider, list, textBlock } from './text.js';

/** Values by namespace: `{ data: { resetLink: "…" } }`, `{ contact: { firstName: "Ada" } }`. */
export type LmxValues = Partial<Record<LmxNamespace, Readonly<Record<string, unknown>>>>;

export interface RenderOptions {
  /** The Theme record's `styles`; the default theme when absent. */
  theme?: Readonly<Record<string, unknown>>;
  /** The values the variables take. */
  values?: LmxValues;
  /** The email message's fallbacks (`contactPropertiesFallbacks`, `eventPropertiesFallbacks`, `dataVariablesFallbacks`), used where a value is missing. */
  fallbacks?: Partial<Record<LmxNamespace, Readonly<Record<string, string>>>>;
  /** The components a `<Component componentId>` may name, parsed, by id. */
  components?: ReadonlyMap<string, LmxDocument>;
  /** The document is a component's own body: a `<Component>` in it is not drawn, as in any component's content. */
  componentBody?: boolean;
  /** The subject (the document's title) and preview text (the hidden preheader), with variables filled too. */
  subject?: string;
  previewText?: string;
  /**
   * Namespaces whose variables with neither a value nor a fallback read as empty, as their
   * recipient reads them, instead of being shown as written: the data of a transactional send the
   * API accepted, which left out only optional variables.
   */
  emptyWhenAbsent?: readonly LmxNamespace[];
}

export interface RenderedEmail {
  html: string;
  /** Variables with no value and no fallback, as written (`{data.resetLink}`), each once: shown as they are in the document. */
  missing: string[];
  /** Component ids the document names that `components` lacks: shown as a placeholder. */
  missingComponents: string[];
  /** Component ids named inside a component's content: components do not nest, so each is shown as a placeholder. */
  nestedComponents: string[];
  /** Theme, `<Style />` and attribute values that were not safe CSS, left out. */
  dropped: DroppedStyle[];
  /** Links and image addresses that were not written live, with why: `is not an address an email may link to: ...`. */
  inert: InertAddress[];
  /** The body's top-level blocks as drawn, in order: the body is their HTML joined. */
  blocks: DrawnBlock[];
}

/** One top-level block of the body: what it is (its tag, a component's id) and the HTML it drew. */
export interface DrawnBlock {
  /** The LMX tag that drew it (`Paragraph`, `Component`…); text at the top level is drawn as a `Paragraph`. */
  tag: string;
  /** A `<Component>`'s `componentId`. */
  componentId?: string;
  html: string;
}

export { escapeHtml };

export const PREVIEW_COMMENT = 'A local preview rendered by loopsctl from LMX: not the exact HTML the Loops platform sends.';

/** Every block stands in a table of its own, with the space the editor leaves between blocks. */
const BLOCK_TABLE = `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"${style(['margin:0 0 16px 0', 'border-collapse:separate'])}>`;
const LAST_BLOCK_TABLE = BLOCK_TABLE.replace('margin:0 0 16px 0', 'margin:0');
const ALIGNS = new Set(['left', 'center', 'right']);

class Renderer implements Drawing {
  readonly missing = new Set<string>();
  readonly missingComponents = new Set<string>();
  readonly nestedComponents = new Set<string>();
  /** Drawing a component's content, where another is not expanded: so no component can draw itself without end. */
  inComponent: boolean;
  private readonly componentBudget = new ComponentBudget();
  readonly dropped: DroppedStyle[];
  readonly inert: RenderedEmail['inert'] = [];
  readonly styles: EmailStyles;
  /** The width the block being drawn has at most, in pixels: the body's, less what encloses it. */
  private width: number;

  constructor(
    private readonly options: RenderOptions,
    styleElement: LmxElement | undefined,
  ) {
    const { styles, dropped } = emailStyles(options.theme, styleElement);
    this.styles = styles;
    this.dropped = dropped;
    this.inComponent = options.componentBody === true;
    this.width = BODY_WIDTH - 2 * (styles.bodyXPadding + styles.borderWidth);
  }

  /** The width inside an element's own left and right padding (read again, silently: blockCss reports a bad value). */
  innerWidth(element: LmxElement): number {
    const side = (name: string) => safeNumber(this.attribute(element, name), 0, 600) ?? 0;
    return Math.max(1, this.width - side('paddingLeft') - side('paddingRight'));
  }

  /** Blocks drawn within a narrower width (a column, a padded section). */
  within(width: number, draw: () => string): string {
    const outer = this.width;
    this.width = Math.max(1, Math.floor(width));
    try {
      return draw();
    } finally {
      this.width = outer;
    }
  }

  /** A variable's value as text, or undefined when it has none (nor a fallback). */
  private valueOf(variable: LmxVariable): string | undefined {
    const value = this.options.values?.[variable.namespace]?.[variable.name];
    if (value !== undefined && value !== null && (typeof value !== 'object' || value instanceof Date)) return String(value);
    return this.options.fallbacks?.[variable.namespace]?.[variable.name] ?? (this.options.emptyWhenAbsent?.includes(variable.namespace) ? '' : undefined);
  }

  /** Text with its variables filled; a missing one stays as written, and is named. */
  fill(parts: readonly (LmxText | LmxVariable)[]): string {
    if (parts.length === 1 && parts[0]!.kind === 'text') return parts[0]!.value;
    let text = '';
    for (const part of parts) {
      if (part.kind === 'text') text += part.value;
      else {
        const value = this.valueOf(part);
        if (value === undefined) this.missing.add(part.source);
        text += value ?? part.source;
      }
    }
    return text;
  }

  /** A variable in content: its value escaped, or the variable itself, marked, when it has none. */
  private variable(variable: LmxVariable): string {
    const value = this.valueOf(variable);
    if (value !== undefined) return escapeHtml(value);
    this.missing.add(variable.source);
    return `<span data-missing-variable="${escapeHtml(variable.source)}" title="no value given"${style(['background-color:#fef3c7', 'color:#92400e', 'border-radius:3px', 'padding:0 2px'])}>${escapeHtml(variable.source)}</span>`;
  }

  attribute(element: LmxElement, name: string): string | undefined {
    const attribute = element.attributes.find((candidate) => candidate.name === name);
    return attribute === undefined ? undefined : this.fill(attribute.parts);
  }

  colour(element: LmxElement, name: string): string | undefined {
    const value = this.attribute(element, name);
    if (value === undefined) return undefined;
    const colour = safeColour(value);
    if (colour === undefined) this.dropped.push({ where: `<${element.name}> ${name}`, value, reason: 'not a hex colour such as #0057ff' });
    return colour;
  }

  number(element: LmxElement, name: string, min: number, max: number): number | undefined {
    const value = this.attribute(element, name);
    if (value === undefined) return undefined;
    const number = safeNumber(value, min, max);
    if (number === undefined) this.dropped.push({ where: `<${element.name}> ${name}`, value, reason: `not a number from ${min} to ${max}` });
    return number;
  }

  align(element: LmxElement): string | undefined {
    const value = this.attribute(element, 'align');
    return value !== undefined && ALIGNS.has(value) ? value : undefined;
  }

  /**
   * An address written live, or undefined (noted) when it may not be: one whose scheme is not of
   * the list (javascript:, data:, a relative path), or is broken by characters a browser skips
   * (`java\tscript:`), which schemeOf does not read as a scheme.
   */
  url(element: LmxElement, name: string, schemes = LINK_SCHEMES): string | undefined {
    const value = this.attribute(element, name);
    if (value === undefined) return undefined;
    const url = value.trim();
    if (schemes.has(schemeOf(url) ?? '')) return url;
    this.inert.push({ tag: element.name, attribute: name, value, reason: 'is not an address an email may link to: shown without the link' });
    return undefined;
  }

  componentNamed(id: string): LmxDocument | undefined {
    return this.options.components?.get(id);
  }

  asComponent(draw: () => string): string {
    this.inComponent = true;
    const inner = draw();
    this.inComponent = false;
    return this.componentBudget.spend(inner);
  }

  // ---- blocks -----------------------------------------------------------------------------

  /** The top-level blocks of a body, each that draws something with what it is. */
  topBlocks(nodes: readonly LmxNode[]): DrawnBlock[] {
    const drawn: DrawnBlock[] = [];
    for (const node of nodes) {
      const html = this.block(node);
      if (html === '') continue;
      if (node.kind !== 'element') drawn.push({ tag: 'Paragraph', html });
      else if (node.name !== 'Component') drawn.push({ tag: node.name, html });
      else drawn.push({ tag: node.name, componentId: this.attribute(node, 'componentId') ?? '', html });
    }
    return drawn;
  }

  /**
   * The blocks of a container (a section, a column, a component): the last leaves no space below
   * it, so the container's own padding is the same above and below its content.
   */
  containedBlocks(nodes: readonly LmxNode[]): string {
    const drawn = nodes.map((node) => this.block(node)).filter((html) => html !== '');
    const last = drawn.at(-1);
    if (last?.startsWith(BLOCK_TABLE)) drawn[drawn.length - 1] = `${LAST_BLOCK_TABLE}${last.slice(BLOCK_TABLE.length)}`;
    return drawn.join('');
  }

  private block(node: LmxNode): string {
    // Text at the top level is not LMX (content check says so); it is shown as a paragraph.
    if (node.kind !== 'element')
      return node.kind === 'text' && node.value.trim() === '' ? '' : `<p${style(this.textCss(this.styles.text))}>${this.inline([node])}</p>`;
    switch (node.name) {
      case 'H1':
        return textBlock(this, node, 'h1', this.styles.heading1);
      case 'H2':
        return textBlock(this, node, 'h2', this.styles.heading2);
      case 'H3':
        return textBlock(this, node, 'h3', this.styles.heading3);
      case 'Paragraph':
        return textBlock(this, node, 'p', this.styles.text);
      case 'Quote':
        return textBlock(this, node, 'blockquote', this.styles.text, [`border-left:4px solid ${this.styles.dividerColor}`, 'padding-left:16px']);
      case 'CodeBlock':
        return codeBlock(this, node);
      case 'Button':
        return button(this, node);
      case 'Image':
        return image(this, node);
      case 'Divider':
        return divider(this, node);
      case 'OrderedList':
      case 'UnorderedList':
        return list(this, node);
      case 'Columns':
        return columns(this, node);
      case 'Component':
        return component(this, node);
      case 'Section':
        return section(this, node);
      case 'Icons':
        return icons(this, node);
      case 'Style':
        return '';
      default:
        // A tag out of place (an inline tag at the top level) or unknown: its content is still shown.
        return `<p${style(this.textCss(this.styles.text))}>${this.inline([node])}</p>`;
    }
  }

  textCss(text: TextStyle, element?: LmxElement): string[] {
    const fontSize = element === undefined ? undefined : this.number(element, 'fontSize', 1, 200);
    const lineHeight = element === undefined ? undefined : this.number(element, 'lineHeight', 50, 500);
    return [
      'margin:0',
      `color:${text.color}`,
      `font-size:${px(fontSize ?? text.fontSize)}`,
      // A block's lineHeight is a percentage; a theme's in pixels keeps its proportion at another font size.
      `line-height:${lineHeight !== undefined ? `${lineHeight}%` : fontSize !== undefined && text.lineHeight.endsWith('px') ? `${Number.parseFloat(text.lineHeight) / text.fontSize}` : text.lineHeight}`,
      MSO_LINE_HEIGHT,
      text.letterSpacing === 0 ? undefined : `letter-spacing:${px(text.letterSpacing)}`,
    ].filter((declaration): declaration is string => declaration !== undefined);
  }

  /**
   * A block in its own table cell: its background, corner radius and padding (the block style
   * attributes), with the space the editor leaves between blocks.
   */
  wrap(element: LmxElement, inner: string, extra: string[] = []): string {
    if (element.attributes.length === 0 && extra.length === 0) return `${BLOCK_TABLE}<tr><td>${inner}</td></tr></table>`;
    return `${BLOCK_TABLE}<tr><td${style([...this.blockCss(element), ...extra])}>${inner}</td></tr></table>`;
  }

  /** The block style attributes as CSS: background, corner radius and padding. */
  blockCss(element: LmxElement): (string | undefined)[] {
    const padding = ['paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft'].map((side) => this.number(element, side, 0, 600) ?? 0);
    const background = this.colour(element, 'blockColor');
    const radius = this.number(element, 'blockBorderRadius', 0, 999);
    return [
      background === undefined ? undefined : `background-color:${background}`,
      radius === undefined ? undefined : `border-radius:${px(radius)}`,
      padding.some((side) => side > 0) ? `padding:${padding.map(px).join(' ')}` : undefined,
    ];
  }

  // ---- inline -----------------------------------------------------------------------------

  inline(nodes: readonly LmxNode[]): string {
    let html = '';
    for (const node of nodes) {
      if (node.kind === 'text') html += escapeHtml(node.value);
      else if (node.kind === 'variable') html += this.variable(node);
      else html += this.inlineElement(node);
    }
    return html;
  }

  private inlineElement(element: LmxElement): string {
    const colour = this.colour(element, 'textColor');
    const css = colour === undefined ? '' : style([`color:${colour}`]);
    const inner = () => this.inline(element.children);
    switch (element.name) {
      case 'Br':
        return '<br>';
      case 'Strong':
        return `<strong${css}>${inner()}</strong>`;
      case 'Em':
        return `<em${css}>${inner()}</em>`;
      case 'Underline':
        return `<u${css}>${inner()}</u>`;
      case 'Strike':
        return `<s${css}>${inner()}</s>`;
      case 'Code':
        return `<code${style(['font-family:ui-monospace,Menlo,Consolas,monospace', 'font-size:0.9em', 'background-color:#f3f4f6', 'border-radius:4px', 'padding:1px 4px', colour === undefined ? undefined : `color:${colour}`])}>${inner()}</code>`;
      case 'Link': {
        const href = this.url(element, 'href');
        const linkCss = style([`color:${this.styles.textLinkColor}`, 'text-decoration:underline']);
        return href === undefined
          ? `<span${linkCss}>${inner()}</span>`
          : `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer"${linkCss}>${inner()}</a>`;
      }
      case 'Text':
        return `<span${css}>${inner()}</span>`;
      default:
        // A block tag inside inline content is not LMX; its text is still shown.
        return inner();
    }
  }
}

/** The text of subject-like fields with their variables filled, as `fill` does for attributes. */
function filledText(renderer: Renderer, text: string | undefined): string {
  if (text === undefined || text === '') return '';
  return text.replace(/\{(contact|event|data)\.([A-Za-z0-9_-]+)\}/g, (source, namespace: LmxNamespace, name: string) =>
    renderer.fill([{ kind: 'variable', namespace, name, source, position: { line: 1, column: 1, offset: 0 } }]),
  );
}

/**
 * A subject or preview text as its recipient reads it: its variables filled from the values, else
 * from the fallbacks, as the body's are; one with neither stays as written.
 */
export function fillText(text: string, options: Pick<RenderOptions, 'values' | 'fallbacks' | 'emptyWhenAbsent'>): string {
  return filledText(new Renderer(options, undefined), text);
}

/** The email document for a parsed LMX body. */
export function renderLmx(document: LmxDocument, options: RenderOptions = {}): RenderedEmail {
  const styleElement = document.children.find((node): node is LmxElement => node.kind === 'element' && node.name === 'Style');
  const renderer = new Renderer(options, styleElement);
  const { styles } = renderer;
  const blocks = renderer.topBlocks(document.children);
  const body = blocks.map((block) => block.html).join('');
  // Without a subject (a file rendered on its own), the first heading names the document.
  const title = filledText(renderer, options.subject) || firstHeadingOf(document);
  const preheader = filledText(renderer, options.previewText);
  const frame = styles.borderWidth > 0 ? `border:${px(styles.borderWidth)} solid ${styles.borderColor}` : undefined;
  const html = [
    '<!DOCTYPE html>',
    `<html lang="en"${MSO_NAMESPACES}>`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="x-apple-disable-message-reformatting">',
    // The theme's colours are drawn as they are: clients that would invert them for dark mode are told so.
    '<meta name="color-scheme" content="light">',
    '<meta name="supported-color-schemes" content="light">',
    `<title>${escapeHtml(title)}</title>`,
    msoHead(styles.fontFamily),
    // The one rule inline styles cannot say: columns stack on a narrow screen.
    '<style>@media only screen and (max-width:480px){.lmx-stack{display:block!important;width:100%!important;padding:0 0 16px 0!important}}</style>',
    '</head>',
    `<body${style(['margin:0', 'padding:0', `background-color:${styles.backgroundColor}`, '-webkit-text-size-adjust:100%'])}>`,
    `<!-- ${PREVIEW_COMMENT} -->`,
    preheader === '' ? '' : `<div${style(['display:none', 'max-height:0', 'overflow:hidden', 'mso-hide:all'])}>${escapeHtml(preheader)}</div>`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"${style([`background-color:${styles.backgroundColor}`])}><tr>`,
    `<td align="center"${style([`padding:${px(styles.backgroundYPadding)} ${px(styles.backgroundXPadding)}`])}>`,
    // Outlook ignores max-width: it gets the body in a table of the body's width.
    `<!--[if mso]><table role="presentation" width="${BODY_WIDTH}" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->`,
    `<table role="presentation" width="${BODY_WIDTH}" cellpadding="0" cellspacing="0" border="0"${style([
      'width:100%',
      `max-width:${px(BODY_WIDTH)}`,
      `background-color:${styles.bodyColor}`,
      `border-radius:${px(styles.borderRadius)}`,
      frame,
      'border-collapse:separate',
    ])}><tr>`,
    `<td${style([`padding:${px(styles.bodyYPadding)} ${px(styles.bodyXPadding)}`, `font-family:${styles.fontFamily}`, `color:${styles.text.color}`, 'text-align:left'])}>`,
    body,
    '</td></tr></table>',
    '<!--[if mso]></td></tr></table><![endif]-->',
    '</td></tr></table>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return {
    html,
    missing: [...renderer.missing],
    missingComponents: [...renderer.missingComponents],
    nestedComponents: [...renderer.nestedComponents],
    dropped: renderer.dropped,
    inert: renderer.inert,
    blocks,
  };
}
