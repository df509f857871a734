/**
 * Accessibility of an email, offline, from its LMX and the styles it is drawn with (the theme under
 * the email's `<Style />`): contrast of text and button labels against what is behind them, heading
 * order, link text that says nothing alone, text under 12 px, and images' alt text. A style the
 * theme sets is reported once for the email, at the first place it shows, with how many more.
 */
import type { LmxAttribute, LmxDocument, LmxElement, LmxNode } from '../parse.js';
import type { LmxPosition } from '../problems.js';
import { DEFAULT_ICON_COLOUR } from '../render/media.js';
import { type EmailStyles, emailStyles, safeColour, safeNumber, type TextStyle } from '../theme.js';
import { textOf } from '../tree.js';
import { contrastRatio, minimumContrast, over, parseHex, type Rgba } from './contrast.js';
import { finding, type QaFinding } from './finding.js';

/** Under this, text is hard to read on a phone; WCAG's guidance and the platform's own minimum for text blocks. */
export const MIN_FONT_PX = 12;

/** The background the renderer gives a code block. */
const CODE_BACKGROUND = '#f3f4f6';
/** WCAG 2.1's non-text contrast (1.4.11): graphics a reader needs, such as icons, at 3:1. */
const GRAPHICS_CONTRAST = 3;
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

const TEXT_BLOCKS: Record<string, 'text' | 'heading1' | 'heading2' | 'heading3'> = {
  H1: 'heading1',
  H2: 'heading2',
  H3: 'heading3',
  Paragraph: 'text',
  Quote: 'text',
  ListItem: 'text',
};

/** Link text that names no destination: WCAG 2.4.4 (https://www.w3.org/WAI/WCAG21/Understanding/link-purpose-in-context). */
export const VAGUE_LINK_TEXT = new Set([
  'click here',
  'click',
  'here',
  'tap here',
  'read more',
  'more',
  'learn more',
  'see more',
  'more info',
  'info',
  'link',
  'this',
  'this link',
  'go',
]);

/** Alt text that says what the file is, not what it shows. */
const UNHELPFUL_ALT = new Set(['image', 'img', 'photo', 'picture', 'graphic', 'banner', 'icon', 'spacer', 'untitled', 'alt']);
const FILE_NAME = /^[\w .-]+\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i;

/** The findings LMX and HTML share, in the same words. */
export const imageWithoutAlt = (position?: LmxPosition): QaFinding =>
  finding(
    'image-without-alt',
    'an image without alt text: screen readers and clients that block images show nothing in its place',
    'describe what it shows in alt="…", or mark a decorative image with alt=""',
    position,
  );

export const unhelpfulAlt = (text: string, position?: LmxPosition): QaFinding =>
  finding(
    'image-alt-unhelpful',
    `the image's alt text ${JSON.stringify(text)} says what the file is, not what it shows`,
    'describe what the image shows, or write alt="" when it is decorative',
    position,
  );

export const linkedEmptyAlt = (position?: LmxPosition): QaFinding =>
  finding(
    'image-linked-empty-alt',
    'a linked image with alt="" and no text beside it: screen readers announce a link that goes nowhere they can tell',
    'say where the link leads in the image\'s alt ("Open your invoice")',
    position,
  );

export const linkWithoutText = (what: string, position?: LmxPosition): QaFinding =>
  finding(
    'link-without-text',
    `a ${what} with no text: screen readers announce it by its address, or not at all`,
    `give the ${what} words that say where it leads (or an image in it an alt that does)`,
    position,
  );

export const vagueLinkText = (what: string, shown: string, position?: LmxPosition): QaFinding =>
  finding(
    'vague-link-text',
    `the ${what} text ${JSON.stringify(shown)} says nothing alone: screen readers list links by their text`,
    `say where it leads ("Reset your password", "Read the March release notes")`,
    position,
  );

/** Link text as it is compared with VAGUE_LINK_TEXT: lower case, letters, digits and spaces. */
export const linkWords = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]+/gu, '')
    .trim();

/** Whether alt text says what the file is rather than what it shows. */
export const isUnhelpfulAlt = (text: string): boolean => text !== '' && (FILE_NAME.test(text) || UNHELPFUL_ALT.has(text.toLowerCase()));

const attributeOf = (element: LmxElement, name: string): LmxAttribute | undefined => element.attributes.find((attribute) => attribute.name === name);

/** Findings that may stand for many places (a theme's colour): one finding, counting the places after the first. */
export class Findings {
  private readonly byKey = new Map<string, { found: QaFinding; more: number }>();

  add(key: string, found: QaFinding): void {
    const seen = this.byKey.get(key);
    if (seen === undefined) this.byKey.set(key, { found, more: 0 });
    else seen.more += 1;
  }

  list(): QaFinding[] {
    return [...this.byKey.values()].map(({ found, more }) =>
      more === 0 ? found : { ...found, message: `${found.message} (and ${more} more place${more === 1 ? '' : 's'})` },
    );
  }
}

interface Drawn {
  colour: string;
  /** The attribute or style it comes from, for the message and the fix. */
  from: string;
  /** Set by the theme or <Style />, not by this element. */
  styled: boolean;
}

class AccessibilityWalk {
  readonly findings = new Findings();

  constructor(private readonly styles: EmailStyles) {}

  /** The blocks in order, each with what is drawn behind it. */
  walk(nodes: readonly LmxNode[], background: Rgba): void {
    for (const node of nodes) {
      if (node.kind !== 'element') continue;
      const block = colourOf(node, 'blockColor');
      const behind = block === undefined ? background : over(block, background);
      const kind = TEXT_BLOCKS[node.name];
      if (kind !== undefined) this.textBlock(node, kind === 'text' ? this.styles.text : this.styles[kind], kind !== 'text', behind);
      else if (node.name === 'CodeBlock') this.codeBlock(node, behind);
      else if (node.name === 'Button') this.button(node, behind);
      else if (node.name === 'Image') this.image(node);
      else if (node.name === 'Icons') this.icons(node, behind);
      else this.walk(node.children, behind);
    }
  }

  private textBlock(element: LmxElement, style: TextStyle, bold: boolean, background: Rgba): void {
    const size = this.size(
      element,
      'fontSize',
      style.fontSize,
      element.name === 'ListItem' || element.name === 'Quote' || element.name === 'Paragraph'
        ? 'textBaseFontSize'
        : `${element.name.replace('H', 'heading')}FontSize`,
    );
    const base = { colour: style.color, from: element.name.startsWith('H') ? `${element.name.replace('H', 'heading')}Color` : 'textBaseColor', styled: true };
    if (hasOwnText(element)) this.contrast(element, base, background, size.px, bold, 'text');
    this.inline(element.children, background, size.px, bold);
  }

  /** Inline tags that colour their text, and links, in the link colour. */
  private inline(nodes: readonly LmxNode[], background: Rgba, px: number, bold: boolean): void {
    for (const node of nodes) {
      if (node.kind !== 'element') continue;
      const strong = bold || node.name === 'Strong';
      if (node.name === 'Link') {
        this.linkText(node);
        // A link's words in a colour of their own (<Link><Underline textColor>, or <Text textColor>) are judged in theirs, below.
        if (hasOwnText(node)) this.contrast(node, { colour: this.styles.textLinkColor, from: 'textLinkColor', styled: true }, background, px, strong, 'link');
      } else {
        const colour = safeColour(attributeOf(node, 'textColor')?.value);
        if (colour !== undefined) this.contrast(node, { colour, from: 'textColor', styled: false }, background, px, strong, 'text');
      }
      this.inline(node.children, background, px, strong);
    }
  }

  private codeBlock(element: LmxElement, background: Rgba): void {
    const size = this.size(element, 'fontSize', this.styles.text.fontSize - 2, 'textBaseFontSize');
    const behind = over(parseHex(CODE_BACKGROUND)!, background);
    this.contrast(element, { colour: this.styles.text.color, from: 'textBaseColor', styled: true }, behind, size.px, false, 'code');
  }

  private button(element: LmxElement, background: Rgba): void {
    const fill = colourOf(element, 'bgColor') ?? parseHex(this.styles.buttonBodyColor)!;
    const own = safeColour(attributeOf(element, 'textColor')?.value);
    const label: Drawn =
      own === undefined ? { colour: this.styles.buttonTextColor, from: 'buttonTextColor', styled: true } : { colour: own, from: 'textColor', styled: false };
    const size = this.size(element, 'fontSize', this.styles.buttonTextFontSize, 'buttonTextFontSize');
    this.contrast(element, label, over(fill, background), size.px, this.styles.buttonTextBold, 'button label');
    this.linkText(element);
  }

  /** Icons are links a reader must see: WCAG 2.1's 3:1 for graphics (1.4.11) against what is behind them, in LMX's black unless `color` says. */
  private icons(element: LmxElement, background: Rgba): void {
    const colour = attributeOf(element, 'color')?.value ?? DEFAULT_ICON_COLOUR;
    const drawn = parseHex(colour);
    if (drawn === undefined || contrastRatio(drawn, background) >= GRAPHICS_CONTRAST) return;
    const behind = hexOf(background);
    this.findings.add(
      `icons@${element.position.offset}`,
      finding(
        'low-contrast',
        `icons in ${colour} on ${behind}: contrast ${contrastRatio(drawn, background).toFixed(2)}:1, under the ${GRAPHICS_CONTRAST}:1 WCAG 2.1 asks of graphics`,
        `give <Icons> the color of the three that reads on ${behind} (color="#ffffff" on a dark band)`,
        element.position,
      ),
    );
  }

  private image(element: LmxElement): void {
    const alt = attributeOf(element, 'alt');
    if (alt === undefined) {
      this.findings.add(`alt@${element.position.offset}`, imageWithoutAlt(element.position));
      return;
    }
    const text = alt.value.trim();
    if (text === '' && attributeOf(element, 'href') !== undefined) this.findings.add(`alt@${element.position.offset}`, linkedEmptyAlt(alt.position));
    if (isUnhelpfulAlt(text)) this.findings.add(`alt@${element.position.offset}`, unhelpfulAlt(text, alt.position));
  }

  private linkText(element: LmxElement): void {
    const what = element.name === 'Button' ? 'button' : 'link';
    if (textOf(element) === '') {
      this.findings.add(`empty@${element.position.offset}`, linkWithoutText(what, element.position));
      return;
    }
    if (VAGUE_LINK_TEXT.has(linkWords(textOf(element))))
      this.findings.add(`vague@${element.position.offset}`, vagueLinkText(what, textOf(element), element.position));
  }

  /** The font size an element is drawn at, reporting it when under 12 px. */
  private size(element: LmxElement, attribute: string, styled: number, style: string): { px: number } {
    const own = safeNumber(attributeOf(element, attribute)?.value, 1, 200);
    const px = own ?? styled;
    if (px < MIN_FONT_PX) {
      const key = own === undefined ? `size:${style}` : `size@${element.position.offset}`;
      const message =
        own === undefined
          ? `text drawn at ${px} px (the theme's ${style}${element.name === 'CodeBlock' ? ', less 2 px for code' : ''}), under ${MIN_FONT_PX} px`
          : `${attribute}="${own}" draws text at ${px} px, under ${MIN_FONT_PX} px`;
      const fix = own === undefined ? `raise ${style} in the theme or in <Style /> to ${MIN_FONT_PX} or more` : `use ${attribute}="${MIN_FONT_PX}" or more`;
      this.findings.add(key, finding('small-text', message, fix, element.position));
    }
    return { px };
  }

  private contrast(element: LmxElement, drawn: Drawn, background: Rgba, px: number, bold: boolean, what: string): void {
    const colour = parseHex(drawn.colour);
    if (colour === undefined) return;
    const ratio = contrastRatio(colour, background);
    const needed = minimumContrast(px, bold);
    if (ratio >= needed) return;
    const key = drawn.styled ? `contrast:${drawn.from}:${hexOf(background)}:${needed}` : `contrast@${element.position.offset}`;
    this.findings.add(
      key,
      finding(
        'low-contrast',
        `${what} in ${drawn.colour} (${drawn.styled ? `the theme's ${drawn.from}` : `${drawn.from} of <${element.name}>`}) on ${hexOf(background)}: contrast ${ratio.toFixed(2)}:1, under the ${needed}:1 WCAG 2.1 asks of ${needed === 3 ? 'large' : 'body'} text`,
        drawn.styled
          ? `darken or lighten ${drawn.from} in the theme or in <Style />, or change the background${what === 'link' ? ', or give the link\'s words and underline a colour of their own (<Link><Underline textColor="…">)' : ''}`
          : `choose a ${drawn.from} with at least ${needed}:1 against ${hexOf(background)}`,
        element.position,
      ),
    );
  }
}

/** An opaque colour as #rrggbb. */
const hexOf = ({ r, g, b }: Rgba) => `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;

function colourOf(element: LmxElement, name: string): Rgba | undefined {
  const value = safeColour(attributeOf(element, name)?.value);
  return value === undefined ? undefined : parseHex(value);
}

/** Text drawn in the block's own colour: outside a link and outside a tag that colours it. */
function hasOwnText(element: LmxElement): boolean {
  return element.children.some((child) => {
    if (child.kind === 'text') return child.value.trim() !== '';
    if (child.kind === 'variable') return true;
    if (child.name === 'Link' || attributeOf(child, 'textColor') !== undefined) return false;
    return hasOwnText(child);
  });
}

/** A heading of an email, LMX's H1 to H3 or HTML's h1 to h6. */
export interface Heading {
  level: number;
  position?: LmxPosition;
}

/**
 * Headings in order: a level is never skipped going down (WCAG 1.3.1,
 * https://www.w3.org/WAI/tutorials/page-structure/headings/), and headings have one H1 to lead
 * them. An email with no heading has no outline to break, and is not reported.
 */
export function headingFindings(headings: readonly Heading[]): QaFinding[] {
  const found: QaFinding[] = [];
  const ones = headings.filter((heading) => heading.level === 1);
  if (headings.length > 0 && ones.length !== 1)
    found.push(
      ones.length === 0
        ? finding(
            'heading-one-h1',
            `headings without an H1: the email's outline starts at an H${headings[0]!.level}`,
            'make the heading that names the email an H1',
            headings[0]!.position,
          )
        : finding(
            'heading-one-h1',
            `${ones.length} H1 headings: an email has one, the name of what it is`,
            'keep one H1 and make the others H2',
            ones[1]!.position,
          ),
    );
  let previous: number | undefined;
  for (const { level, position } of headings) {
    if (previous !== undefined && level > previous + 1)
      found.push(
        finding(
          'heading-order',
          `an H${level} after an H${previous}: screen reader users navigate by headings, and a skipped level reads as missing content`,
          `make it an H${previous + 1}, and change its size in the theme or with fontSize if it should look smaller`,
          position,
        ),
      );
    previous = level;
  }
  return found;
}

/** The accessibility findings of an email drawn with a theme's styles (the default theme without one). */
export function accessibilityFindings(
  document: LmxDocument,
  theme: Readonly<Record<string, unknown>> | undefined,
  elements: readonly LmxElement[],
): QaFinding[] {
  const styleElement = document.children.find((node): node is LmxElement => node.kind === 'element' && node.name === 'Style');
  const { styles } = emailStyles(theme, styleElement);
  const walk = new AccessibilityWalk(styles);
  // The body is drawn over the page's background, which is drawn over white.
  const page = over(parseHex(styles.backgroundColor)!, WHITE);
  walk.walk(document.children, over(parseHex(styles.bodyColor)!, page));
  const headings = elements.flatMap((element) => {
    const level = /^H([123])$/.exec(element.name)?.[1];
    return level === undefined ? [] : [{ level: Number(level), position: element.position }];
  });
  return [...walk.findings.list(), ...headingFindings(headings)];
}
