/**
 * Inline content of a source (text, links, bold, colours) as LMX's inline tags, and what counts as
 * inline: a run of it becomes one text block, anything else starts a block of its own.
 */
import { rememberLink, SOURCE_TEXT, sourceLinkColour } from './contrast.js';
import type { LmxInline } from './lmx-out.js';
import { type ConvertKind, type Findings, type Place, type SourceElement, type SourceNode, type Style, shorten, textContent } from './model.js';
import { fontSizeWithin, hexColour, hidesContent, listAlpha, pixels, sides } from './styles.js';
import { mapVariable } from './variable-names.js';
import { holdsTemplateTag, LOOPS_ADDS_THE_PAGES, PROVIDER_PAGE, templatePieces } from './variables.js';

/** What the mapper carries down the tree: the target kind, the findings, and the CSS that inherits. */
export interface MapContext {
  kind: ConvertKind;
  findings: Findings;
  /** color, font-size, font-weight, font-style, text-align, line-height, letter-spacing as inherited. */
  inherited: Style;
  /** The email's base text colour (the `<Style />`'s textBaseColor): text of that colour needs no <Text>. */
  baseColour?: string;
  /** The email's base font size (the `<Style />`'s textBaseFontSize): text of that size needs no fontSize. */
  baseFontSize?: number;
  inSection: boolean;
  inColumns: boolean;
  /** The background the content stands on, so that a block of the same colour is no section. */
  background?: string;
  /** The page's and the body's colours (the `<Style />`'s): a container of either is no section. */
  plain: readonly string[];
  /** The colour of the nearest box around the content in the source, sectioned or not: what its text was read against. */
  sourceBackground?: string;
  /** The address of the background image the content stood on in the source, where the nearest box with a background had one (LMX drops it). */
  sourceImage?: string;
  /** The source element whose content is being mapped: a run of text, an image or a button stands in its box. */
  holder?: SourceElement;
  /**
   * The size the source draws text at here, in pixels, which a relative size (`0.8em`, `80%`, a
   * `<small>`) is of; `inherited`'s font-size is set only where the source sets one (else the theme's).
   */
  sourceFontSize?: number;
  /** Where a text block's runs of text are gathered with the size each is drawn at, none where the theme's (text-losses.ts). */
  drawnSizes?: { size: number | undefined; at: Place; length: number }[];
}

/** HTML elements that are inline content. */
export const INLINE: ReadonlySet<string> = new Set([
  'a',
  'span',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'del',
  'ins',
  'code',
  'kbd',
  'samp',
  'tt',
  'br',
  'font',
  'sup',
  'sub',
  'small',
  'big',
  'mark',
  'abbr',
  'cite',
  'q',
  'label',
  'time',
  'wbr',
]);

/** Properties that pass from an element to what it holds. */
const INHERITED = [
  'color',
  'font-size',
  'font-weight',
  'font-style',
  'text-align',
  'line-height',
  'text-decoration',
  'font-family',
  'text-transform',
  'letter-spacing',
];

/** Text as `text-transform` shows it: LMX has no such style, so the letters are written as they are seen. */
function transformed(text: string, transform: string | undefined): string {
  switch (transform?.trim().toLowerCase()) {
    case 'uppercase':
      return text.toUpperCase();
    case 'lowercase':
      return text.toLowerCase();
    case 'capitalize':
      return text.replace(/(^|\s)(\p{Ll})/gu, (_match, space: string, letter: string) => space + letter.toUpperCase());
    default:
      return text;
  }
}

/** What an element of `style` (and, for its own sizes, of `name`: a `<small>`) passes to what it holds; its font size in pixels. */
export function inherit(context: MapContext, style: Style, name = ''): MapContext {
  const inherited = { ...context.inherited };
  for (const property of INHERITED) if (style[property] !== undefined && style[property] !== 'inherit') inherited[property] = style[property]!;
  // A table starts its text at its side where only an `align` around it (`-webkit-center`) centred it: browsers do not pass that into a table.
  if ((name === 'table' || style['x-display'] === 'table') && style['text-align'] === undefined && /^-webkit-/.test(inherited['text-align'] ?? ''))
    delete inherited['text-align'];
  const parent = context.sourceFontSize ?? BROWSER_FONT_SIZE;
  const sourceFontSize = fontSizeWithin(style['font-size'], parent, name);
  if (style['font-size'] !== undefined || sourceFontSize !== parent) inherited['font-size'] = `${sourceFontSize}px`;
  return { ...context, inherited, sourceFontSize };
}

/** A browser's text size where nothing sets one. */
export const BROWSER_FONT_SIZE = 16;

/** Whether a node is inline content through and through (an image or a block inside is not). */
export function isInline(node: SourceNode): boolean {
  if (node.type !== 'element') return true;
  if (!INLINE.has(node.name) || isHidden(node) || isButtonLink(node)) return false;
  return node.children.every(isInline);
}

/** The elements whose text is code inside a line, drawn as LMX's `<Code>`. */
export const INLINE_CODE: ReadonlySet<string> = new Set(['code', 'kbd', 'samp', 'tt']);

/** An image, or a link around one: a block of its own, which inline content cannot hold. */
export const holdsImage = (node: SourceNode): boolean =>
  node.type === 'element' && (node.name === 'img' || (node.name === 'a' && node.children.some(holdsImage)));

export function isHidden(node: SourceElement): boolean {
  return hidesContent(node.style);
}

/** A link styled as a button: a background colour, or a class that says so. */
export function isButtonLink(node: SourceElement): boolean {
  if (node.name !== 'a') return false;
  const background = hexColour(node.style['background-color'] ?? node.style.background);
  return background !== undefined || /(^|[\s_-])(btn|button|cta)([\s_-]|$)/i.test(node.attrs.class ?? '');
}

/** Whether a style sets its text bold or semibold (600 and up). */
export const isBold = (style: Style) => /^(bold|bolder|[6-9]00)$/i.test(style['font-weight'] ?? '');

/**
 * Inline content as LMX: whitespace collapsed as a browser does, template tags made variables,
 * and formatting from tags and from styles (a bold span is <Strong>).
 */
export function inlineOf(nodes: readonly SourceNode[], context: MapContext): LmxInline[] {
  const pieces: LmxInline[] = [];
  // Where each text piece was written: words a dropped link takes with it are listed there, so that none is lost in silence.
  const written = new Map<LmxInline, Place>();
  const listDropped = (at: Place | undefined, words: string, why: string) => {
    if (at !== undefined && /[\p{L}\p{N}]/u.test(words))
      context.findings.add(at, `the ${/\s/.test(words) ? 'words' : 'word'} "${shorten(words)}"`, 'dropped', why, LOOPS_ADDS_THE_PAGES);
  };
  // After a dropped link, the separator that stood between it and the text after it goes with it.
  let afterDropped = false;
  // Whether the element before left a gap after its words (a margin or padding at its right).
  let gapAfter = false;
  for (const node of nodes) {
    if (node.type === 'text') {
      // The tags are found in the text as written, so that each is placed at its own line and column;
      // the white space around them is collapsed after, as a browser does. A variable's name is never transformed.
      for (const piece of templatePieces(node.text, node.at, context.kind, context.findings)) {
        if (!('text' in piece)) {
          pieces.push(piece);
          afterDropped = false;
          continue;
        }
        let text = transformed(piece.text.replace(/[ \t\n\r\f]+/g, ' '), context.inherited['text-transform']);
        if (gapAfter && text !== '' && !/^\s/.test(text) && !/\s$/.test(lastCharacter(pieces))) text = ` ${text}`;
        if (text !== '') gapAfter = false;
        if (afterDropped) text = closeGap(pieces, text, (first, words, why) => listDropped(first === undefined ? node.at : written.get(first), words, why));
        if (text.trim() !== '') afterDropped = false;
        const shown = { text };
        written.set(shown, node.at);
        pieces.push(shown);
        if (text.trim() !== '') context.drawnSizes?.push({ size: pixels(context.inherited['font-size']), at: node.at, length: text.trim().length });
      }
    } else if (node.type === 'variable') {
      if (gapAfter && !/\s$/.test(lastCharacter(pieces))) pieces.push({ text: ' ' });
      pieces.push({ variable: mapVariable(context.findings, node.path, node.source, context.kind, node.at) });
      afterDropped = false;
      gapAfter = false;
    } else {
      const made = inlineElement(node, context);
      if (made.length === 0 && platformLink(node, context.kind) !== undefined)
        afterDropped = !dropSeparatorBefore(pieces, (last, words) => listDropped(written.get(last), words, JOINED));
      else if (made.length > 0) afterDropped = false;
      // Words the source keeps apart by a margin or padding (links in a row, `margin-right: 8px`) run together
      // in LMX, which draws no such gap: a space stands for it.
      if (made.length > 0 && (gapAfter || spacedAt(node.style, 'left')) && !/\s$/.test(lastCharacter(pieces)) && !/^\s/.test(firstCharacter(made)))
        pieces.push({ text: ' ' });
      pieces.push(...made);
      if (made.length > 0) gapAfter = spacedAt(node.style, 'right');
    }
  }
  return pieces;
}

/** Whether an inline element's margin or padding at a side leaves a gap beside its words. */
const spacedAt = (style: Style, side: 'left' | 'right') =>
  ['margin', 'padding'].some((property) => (pixels(style[`${property}-${side}`]) ?? sides(style[property])?.[side === 'left' ? 3 : 1] ?? 0) > 0);

/** The first or last character inline content shows ('' where it starts or ends with a variable, whose value is not known). */
function edgeCharacter(pieces: readonly LmxInline[], last: boolean): string {
  const piece = last ? pieces.at(-1) : pieces[0];
  if (piece === undefined) return ' ';
  if ('text' in piece) return last ? piece.text.slice(-1) : piece.text.slice(0, 1);
  if ('children' in piece) return edgeCharacter(piece.children, last);
  return '';
}
const lastCharacter = (pieces: readonly LmxInline[]) => edgeCharacter(pieces, true);
const firstCharacter = (pieces: readonly LmxInline[]) => edgeCharacter(pieces, false);

/** A bar, dot or dash between links (`Preferences | Unsubscribe`), or the word joining two (`Update your preferences or unsubscribe`). */
const SEPARATOR_BEFORE = /\s*(?:[|·•–—-]|\b(?:or|and)\b)\s*$/i;
const SEPARATOR_AFTER = /^\s*(?:[|·•–—-]|\b(?:or|and)\b)\s*/i;

const JOINED = 'dropped with the link it joined to another';

/** The separator before a dropped link taken off the text before it, given to `dropped`; whether there was one. */
function dropSeparatorBefore(pieces: LmxInline[], dropped: (last: LmxInline, words: string) => void): boolean {
  const last = pieces.at(-1);
  if (last === undefined || !('text' in last)) return false;
  const separator = SEPARATOR_BEFORE.exec(last.text);
  if (separator === null) return false;
  dropped(last, separator[0].trim());
  last.text = last.text.slice(0, separator.index);
  return true;
}

/**
 * The text after a dropped link with the gap it left closed: its separator gone; at a sentence's
 * end, the comma before the link (`emails, .`), or the stop of a sentence that held only links,
 * or the few words left of one that the links ended (`You can` of Mailchimp's "You can update your
 * preferences or unsubscribe from this list."); words taken off are given to `dropped` with the
 * piece they stood in (none: this text's own).
 */
function closeGap(pieces: LmxInline[], text: string, dropped: (first: LmxInline | undefined, words: string, why: string) => void): string {
  const separator = SEPARATOR_AFTER.exec(text);
  if (separator !== null) {
    dropped(undefined, separator[0].trim(), JOINED);
    return text.slice(separator[0].length);
  }
  if (!/^\s*[.!?]/.test(text)) return text;
  let at = pieces.length - 1;
  while (at >= 0 && isBlank(pieces[at]!)) at -= 1;
  const last = pieces[at];
  if (last === undefined || ('text' in last && /[.!?]\s*$/.test(last.text))) return text.replace(/^\s*[.!?]+/, '');
  if ('text' in last) {
    const fragment = dropFragment(pieces, at);
    if (fragment !== undefined) {
      dropped(fragment.first, fragment.words, 'dropped with the links that ended their sentence, which says nothing without them');
      return text.replace(/^\s*[.!?]+/, '');
    }
    // No space is left before the stop: "You can update your preferences." without its link is "You can.", not "You can .".
    last.text = last.text.replace(/\s*[,;:]?\s*$/, '');
    pieces.splice(at + 1);
  }
  return text.trimStart();
}

/** The most words a sentence keeps once its links went that still say nothing alone ("You can", "Please"). */
const FRAGMENT_WORDS = 3;

/**
 * The start of the sentence that ends at `at` taken off, where it is only a few words of text (back
 * to a stop, a line break or the content's start): the piece it began in and its words, if it was.
 */
function dropFragment(pieces: LmxInline[], at: number): { first: LmxInline; words: string } | undefined {
  const parts: string[] = [];
  let index = at;
  let start: { piece: { text: string }; before: string } | undefined;
  for (; index >= 0 && start === undefined; index -= 1) {
    const piece = pieces[index]!;
    if (!('text' in piece)) {
      if ('tag' in piece && piece.tag === 'Br') break;
      return undefined;
    }
    const stop = /^([\s\S]*[.!?:]["”’)]?\s)([^.!?:]*)$/.exec(piece.text);
    parts.unshift(stop?.[2] ?? piece.text);
    if (stop !== null) start = { piece, before: stop[1]! };
  }
  const words = parts.join('').replace(/\s+/g, ' ').trim();
  const count = words === '' ? 0 : words.split(' ').length;
  if (count === 0 || count > FRAGMENT_WORDS) return undefined;
  // The sentence began inside a piece: what stood before it stays. Otherwise every piece after the break goes.
  const first = start?.piece ?? pieces[index + 1]!;
  if (start !== undefined) start.piece.text = start.before;
  pieces.splice(index + (start === undefined ? 1 : 2));
  return { first, words };
}

const isBlank = (piece: LmxInline) => 'text' in piece && piece.text.trim() === '';

/**
 * The addresses another provider fills with a page of its own that Loops gives every email itself:
 * the unsubscribe link, the preferences page, the web version (Mailchimp's merge tags, Campaign
 * Monitor's tags and placeholders, and the other providers' tags of PROVIDER_PAGE). A link to one,
 * and its text, which served only that link, go.
 */
const PLATFORM_ADDRESS = new RegExp(
  String.raw`^\s*(?:\*\|\s*(?:UNSUB|UPDATE_PROFILE|ARCHIVE|ARCHIVE_LINK_SHORT|FORWARD)\s*\|\*|\[(?:unsubscribe|webversion|preferences|forwardtoafriend)\]|${PROVIDER_PAGE})\s*$`,
  'i',
);
/** Campaign Monitor's link elements (`<unsubscribe>Unsubscribe</unsubscribe>`), which it makes links to its pages. */
export const PLATFORM_LINK_TAGS: ReadonlySet<string> = new Set(['unsubscribe', 'webversion', 'preferences', 'forwardtoafriend']);

/**
 * A variable other providers fill with their unsubscribe or preferences page, by the names they
 * document (HubSpot's `{{ unsubscribe_link }}`, Plunk's `{{unsubscribeUrl}}` and `{{manageUrl}}`,
 * Bento's `{{ visitor.unsubscribe_url }}`, Brevo's `{{ unsubscribe }}` and `{{ update_profile }}`). A campaign's or workflow email's link to it alone is the
 * page Loops adds; a transactional email, which Loops sends with none, keeps the app's own value.
 */
const PAGE_VARIABLE =
  /^\s*\{\{\{?\s*(?:[\w$]+\.)*(?:unsubscribe(?:_?(?:url|link)(?:_all)?)?|unsub_?(?:url|link)|manage_?(?:preferences_?)?url|preferences_?url|update_?profile(?:_?(?:url|link))?)\s*\}\}\}?\s*$/i;

/** The tag or address of a link or button to a page Loops gives every email of this kind itself, if it is one. */
function platformLink(node: SourceNode, kind: ConvertKind): string | undefined {
  if (node.type !== 'element') return undefined;
  if (PLATFORM_LINK_TAGS.has(node.name)) return `<${node.name}>`;
  if (node.name !== 'a' && node.name !== 'x-button') return undefined;
  const href = node.attrs.href ?? '';
  const address = (PLATFORM_ADDRESS.exec(href) ?? (kind === 'transactional' ? null : PAGE_VARIABLE.exec(href)))?.[0].trim();
  if (address !== undefined) return address;
  // Campaign Monitor's tag inside a link of the template's own (`<a href="#"><unsubscribe>Unsubscribe</unsubscribe></a>`): the tag is the link.
  const shown = node.children.filter((child) => child.type !== 'text' || child.text.trim() !== '');
  return shown.length === 1 ? platformLink(shown[0]!, kind) : undefined;
}

/** Whether an element is a link or a button to a page Loops gives every email itself; listed, with its text, where it is. */
export function dropsPlatformLink(node: SourceElement, context: MapContext): boolean {
  const tag = platformLink(node, context.kind);
  if (tag === undefined) return false;
  const text = textContent(node).replace(/\s+/g, ' ').trim();
  context.findings.add(node.at, `the link to ${tag}`, 'dropped', text === '' ? 'dropped' : `dropped with its text "${shorten(text)}"`, LOOPS_ADDS_THE_PAGES);
  return true;
}

function inlineElement(node: SourceElement, context: MapContext): LmxInline[] {
  if (node.name === 'br') return [{ tag: 'Br', attrs: {}, children: [] }];
  if (node.name === 'wbr' || dropsPlatformLink(node, context)) return [];
  const inner = inherit(context, node.style, node.name);
  let children = inlineOf(node.children, inner);
  if (node.name === 'q') children = [{ text: '“' }, ...children, { text: '”' }];
  const wrap = (tag: string, attrs: Record<string, string> = {}) => {
    children = [{ tag, attrs, children }];
  };
  // CSS's `initial` colour is black (Mailgen's Neopolitan links, `color: initial`), not the colour around.
  const colour = hexColour(node.style.color?.trim().toLowerCase() === 'initial' ? SOURCE_TEXT : node.style.color, context.sourceBackground);
  listAlpha(context.findings, node.style.color, colour, context.sourceBackground, node.at);
  const decoration = node.style['text-decoration'] ?? '';
  if (colour !== undefined && colour !== hexColour(context.inherited.color ?? context.baseColour) && node.name !== 'a') wrap('Text', { textColor: colour });
  if (INLINE_CODE.has(node.name)) wrap('Code');
  if (['s', 'strike', 'del'].includes(node.name) || decoration.includes('line-through')) wrap('Strike');
  if ((node.name === 'u' || node.name === 'ins' || decoration.includes('underline')) && node.name !== 'a') wrap('Underline');
  if (['em', 'i', 'cite'].includes(node.name) || node.style['font-style'] === 'italic') wrap('Em');
  if ((['strong', 'b'].includes(node.name) || isBold(node.style)) && !isBold(context.inherited)) wrap('Strong');
  if (node.name === 'a' && node.attrs.href !== undefined && node.attrs.href.trim() !== '') {
    const href = hrefOf(node.attrs.href, node, context);
    // An address computed when the app runs (a template statement, a call) leaves nothing to link to: the text stays, listed.
    if (href.trim() === '')
      context.findings.add(
        node.at,
        `a link to ${node.attrs.href.trim()}`,
        'kept as text',
        'its text kept without the link, as a link to nowhere cannot be published',
        'write the link’s https address (or a variable that holds it) in its href',
      );
    else {
      wrap('Link', { href });
      rememberLink(children[0]!, sourceLinkColour(node.style.color, context.inherited.color, context.sourceBackground), context.sourceBackground, node.at);
    }
  }
  return children;
}

/** A text of an attribute with its template variables made LMX's (`{{name}}` -> `{data.name}`), any other tag as written. */
export function attributeText(value: string, node: SourceElement, context: MapContext): string {
  return templatePieces(value.trim(), node.at, context.kind, context.findings)
    .map((piece) => ('text' in piece ? piece.text : `{${piece.variable}}`))
    .join('');
}

/**
 * An address with its template variables made LMX's (`{{url}}` -> `{data.url}`); none (`''`)
 * where a tag that is no variable stays in it (`*|TWITTER:PROFILEURL|*`, which the other
 * provider fills, or a call computed when the app runs): no client could follow it.
 */
export function hrefOf(href: string, node: SourceElement, context: MapContext): string {
  const pieces = templatePieces(href.trim(), node.at, context.kind, context.findings);
  if (pieces.some((piece) => 'text' in piece && holdsTemplateTag(piece.text))) return '';
  return pieces.map((piece) => ('text' in piece ? piece.text : `{${piece.variable}}`)).join('');
}

/** Leading and trailing whitespace of a block's content removed, and <Br /> at its ends with it. */
export function trimInline(pieces: LmxInline[]): LmxInline[] {
  const result = [...pieces];
  const edge = (index: number, trim: (text: string) => string): boolean => {
    const piece = result[index];
    if (piece === undefined) return false;
    if ('text' in piece) {
      const trimmed = trim(piece.text);
      if (trimmed === '') {
        result.splice(index, 1);
        return true;
      }
      result[index] = { text: trimmed };
      return false;
    }
    if ('tag' in piece && piece.tag === 'Br') {
      result.splice(index, 1);
      return true;
    }
    // The tag itself kept, not a copy: what is remembered of a link (its source's colour) is by the tag.
    if ('tag' in piece) piece.children = index === 0 ? trimStart(piece.children) : trimEnd(piece.children);
    return false;
  };
  while (edge(0, (text) => text.replace(/^\s+/, '')));
  while (edge(result.length - 1, (text) => text.replace(/\s+$/, '')));
  return result;
}

const trimStart = (pieces: LmxInline[]) => {
  const first = pieces[0];
  return first !== undefined && 'text' in first ? [{ text: first.text.replace(/^\s+/, '') }, ...pieces.slice(1)] : pieces;
};
const trimEnd = (pieces: LmxInline[]) => {
  const last = pieces.at(-1);
  return last !== undefined && 'text' in last ? [...pieces.slice(0, -1), { text: last.text.replace(/\s+$/, '') }] : pieces;
};

/** Inline content with its formatting tags taken off: a button's text. */
export function flatText(pieces: readonly LmxInline[]): { pieces: LmxInline[]; formatted: boolean } {
  let formatted = false;
  const flat: LmxInline[] = [];
  const walk = (list: readonly LmxInline[]) => {
    for (const piece of list) {
      if ('tag' in piece) {
        formatted = true;
        if (piece.tag === 'Br') flat.push({ text: ' ' });
        else walk(piece.children);
      } else flat.push(piece);
    }
  };
  walk(pieces);
  return { pieces: flat, formatted };
}
