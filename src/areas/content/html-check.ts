/**
 * The accessibility rules on an email's HTML as a recipient's client gets it (`content check
 * --html`): what the platform, or any sender, emits, judged by the rules that judge LMX and by those
 * only HTML can break (`lang` and `dir`, layout tables' role, the `<title>`). The HTML is read by
 * the parser convert reads HTML with (parse5, as a browser reads it), its stylesheets applied; text
 * is judged in the colour and on the background it is drawn with, as its elements' styles cascade,
 * and again in dark mode where the stylesheets give it colours of their own for it.
 */

import { SOURCE_LINK, SOURCE_TEXT } from '../../convert/contrast.js';
import { BROWSER_FONT_SIZE } from '../../convert/inline.js';
import type { SourceElement, SourceNode, Style } from '../../convert/model.js';
import { hasDarkMode, readHtmlDocument } from '../../convert/sources/html-source.js';
import { backgroundOf, fontSizeWithin, hexColour, hidesContent } from '../../convert/styles.js';
import type { LmxPosition } from '../../lmx/problems.js';
import {
  Findings,
  headingFindings,
  imageWithoutAlt,
  isUnhelpfulAlt,
  linkedEmptyAlt,
  linkWithoutText,
  linkWords,
  unhelpfulAlt,
  VAGUE_LINK_TEXT,
  vagueLinkText,
} from '../../lmx/qa/accessibility.js';
import { contrastRatio, minimumContrast, parseHex } from '../../lmx/qa/contrast.js';
import { finding, type QaFinding } from '../../lmx/qa/finding.js';
import { languageOf } from '../../lmx/qa/language.js';

/** What a browser draws with no style on: white (its black text, blue links and 16 px are convert's SOURCE_TEXT, SOURCE_LINK, BROWSER_FONT_SIZE). */
const DEFAULT_BACKGROUND = '#ffffff';
/** A browser's sizes of h1 to h6, in em. */
const HEADING_EM: Record<string, number> = { h1: 2, h2: 1.5, h3: 1.17, h4: 1, h5: 0.83, h6: 0.67 };
const BOLD_TAGS = new Set(['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** The languages written right to left that the language detector tells: Arabic and Hebrew. */
const RIGHT_TO_LEFT = new Set(['ar', 'he']);
/** Titles templates and editors leave in place of the email's own. */
const PLACEHOLDER_TITLES = new Set([
  'document',
  'email',
  'untitled',
  'untitled document',
  'newsletter',
  'template',
  'email template',
  'index',
  'title',
  'subject',
]);
/** Elements whose content is never drawn as text. */
const NOT_DRAWN = new Set(['style', 'script', 'head', 'title', 'template', 'noscript']);

/** An email's HTML judged: its findings, and the text it shows, for the language it is written in. */
export interface HtmlAudit {
  findings: QaFinding[];
  /** The words a reader sees, hidden text (a preheader) left out. */
  text: string;
  /** The document's `lang`, as written. */
  lang?: string;
  /** Where the document starts (its `<html>`), where its language is said. */
  position: LmxPosition;
}

const elementsIn = (node: SourceElement): SourceElement[] => node.children.filter((child): child is SourceElement => child.type === 'element');

function allText(node: SourceNode): string {
  if (node.type === 'text') return node.text;
  if (node.type === 'variable') return node.source;
  return NOT_DRAWN.has(node.name) ? '' : node.children.map(allText).join(' ');
}

const words = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Where the drawing stands as the tree is walked down. */
interface Drawing {
  colour: string;
  background: string;
  px: number;
  bold: boolean;
  /** Inside a link: its colour is the link's unless a style inside gives another. */
  link: boolean;
}

class HtmlWalk {
  readonly findings = new Findings();
  readonly headings: { level: number; position: LmxPosition }[] = [];
  readonly shown: string[] = [];

  constructor(
    private readonly position: (element: { at: { line: number; column: number } }) => LmxPosition,
    /** Walking the email as dark mode draws it: only its colours are judged again. */
    private readonly dark = false,
  ) {}

  walk(node: SourceElement, drawing: Drawing): void {
    if (NOT_DRAWN.has(node.name) || hidesContent(node.style)) return;
    const here = this.drawingOf(node, drawing);
    if (!this.dark) this.structure(node);
    let judged = false;
    for (const child of node.children) {
      if (child.type === 'element') this.walk(child, here);
      else if (child.type === 'text' && child.text.trim() !== '') {
        this.shown.push(child.text);
        // An element's text is judged once, however many pieces its children cut it into.
        if (!judged) this.contrast(node, here);
        judged = true;
      }
    }
  }

  /** What the email is made of, judged once (not again in dark mode): headings, images, tables, links. */
  private structure(node: SourceElement): void {
    const heading = /^h([1-6])$/.exec(node.name)?.[1];
    if (heading !== undefined) this.headings.push({ level: Number(heading), position: this.position(node) });
    if (node.name === 'img') this.image(node);
    if (node.name === 'table') this.table(node);
    if (node.name === 'a' || node.name === 'button' || node.attrs.role === 'button') this.link(node);
  }

  private drawingOf(node: SourceElement, drawing: Drawing): Drawing {
    const style: Style = node.style;
    const link = drawing.link || node.name === 'a';
    const own = hexColour(style.color, drawing.background);
    const colour = own ?? (node.name === 'a' ? SOURCE_LINK : drawing.colour);
    const background = backgroundOf(style, node.attrs, drawing.background) ?? drawing.background;
    const em = HEADING_EM[node.name];
    const px = fontSizeWithin(style['font-size'] ?? (em === undefined ? undefined : `${em}em`), drawing.px, node.name);
    const weight = style['font-weight']?.trim().toLowerCase();
    const bold =
      weight === undefined ? drawing.bold || BOLD_TAGS.has(node.name) : weight === 'bold' || weight === 'bolder' || Number.parseInt(weight, 10) >= 700;
    return { colour, background, px, bold, link };
  }

  private contrast(node: SourceElement, drawing: Drawing): void {
    const colour = parseHex(drawing.colour);
    const background = parseHex(drawing.background);
    if (colour === undefined || background === undefined) return;
    const ratio = contrastRatio(colour, background);
    const needed = minimumContrast(drawing.px, drawing.bold);
    if (ratio >= needed) return;
    const what = drawing.link ? 'link text' : 'text';
    this.findings.add(
      `contrast:${drawing.colour}:${drawing.background}:${needed}`,
      finding(
        'low-contrast',
        `${this.dark ? 'in dark mode, ' : ''}${what} in ${drawing.colour} on ${drawing.background}: contrast ${ratio.toFixed(2)}:1, under the ${needed}:1 WCAG 2.1 asks of ${needed === 3 ? 'large' : 'body'} text`,
        `choose a colour with at least ${needed}:1 against ${drawing.background}${this.dark ? ' in the rules of @media (prefers-color-scheme: dark)' : ''}, or change the background`,
        this.position(node),
      ),
    );
  }

  private image(node: SourceElement): void {
    const alt = node.attrs.alt;
    const key = `alt@${node.at.line}:${node.at.column}`;
    if (alt === undefined) this.findings.add(key, imageWithoutAlt(this.position(node)));
    else if (isUnhelpfulAlt(alt.trim())) this.findings.add(key, unhelpfulAlt(alt.trim(), this.position(node)));
  }

  /** A layout table (no header cell, no caption) that screen readers would read as a grid of data. */
  private table(node: SourceElement): void {
    const role = node.attrs.role?.trim().toLowerCase();
    if (role === 'presentation' || role === 'none' || holdsData(node)) return;
    this.findings.add(
      'layout-table-role',
      finding(
        'layout-table-role',
        'a layout table without role="presentation": screen readers announce its rows and columns before its words',
        'write role="presentation" on each table that lays the email out (one of data has <th> or <caption>)',
        this.position(node),
      ),
    );
  }

  private link(node: SourceElement): void {
    const what = node.name === 'a' ? 'link' : 'button';
    const text = words(allText(node));
    const key = `link@${node.at.line}:${node.at.column}`;
    const label = node.attrs['aria-label']?.trim() || node.attrs.title?.trim() || '';
    const images = imagesIn(node);
    const alts = words(images.map((image) => image.attrs.alt ?? '').join(' '));
    const said = words(`${text} ${label} ${alts}`);
    if (said === '') {
      // Where the link is an image with alt="", the image is what to fix.
      const image = images.find((each) => each.attrs.alt !== undefined);
      if (image !== undefined) this.findings.add(key, linkedEmptyAlt(this.position(image)));
      else if (images.length === 0) this.findings.add(key, linkWithoutText(what, this.position(node)));
      return;
    }
    if (label === '' && VAGUE_LINK_TEXT.has(linkWords(said))) this.findings.add(key, vagueLinkText(what, said, this.position(node)));
  }
}

/** A table of data: a header cell or a caption of its own (not of a table inside it). */
function holdsData(table: SourceElement): boolean {
  const pending = [...elementsIn(table)];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.name === 'th' || node.name === 'caption') return true;
    if (node.name !== 'table') pending.push(...elementsIn(node));
  }
  return false;
}

function imagesIn(node: SourceElement): SourceElement[] {
  return elementsIn(node).flatMap((child) => (child.name === 'img' ? [child] : imagesIn(child)));
}

/**
 * `lang` or `dir` on the document and on each of the body's first children: Gmail and other
 * webmail drop the `<html>` element, and with it what it says, so the wrapper must say it again.
 */
function attributeFindings(html: SourceElement, body: SourceElement | undefined, text: string, position: (element: SourceElement) => LmxPosition): QaFinding[] {
  const wrappers = body === undefined ? [] : elementsIn(body).filter((child) => !NOT_DRAWN.has(child.name) && !hidesContent(child.style));
  // The fix names what the document says, else the language the text is written in.
  const lang = html.attrs.lang?.trim() || languageOf(text) || 'en';
  const dir = html.attrs.dir?.trim() || (RIGHT_TO_LEFT.has(lang.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr');
  const found: QaFinding[] = [];
  for (const [rule, attribute, example] of [
    ['lang-missing', 'lang', `lang="${lang}"`],
    ['dir-missing', 'dir', `dir="${dir}"`],
  ] as const) {
    const without = wrappers.filter((wrapper) => (wrapper.attrs[attribute] ?? '').trim() === '');
    const onDocument = (html.attrs[attribute] ?? '').trim() !== '';
    if (onDocument && without.length === 0) continue;
    const places = [...(onDocument ? [] : ['<html>']), ...(without.length === 0 ? [] : [childrenSaid(without.length, wrappers.length)])].join(' nor on ');
    found.push(
      finding(
        rule,
        `no ${attribute} on ${places}: ${attribute === 'lang' ? 'screen readers read the email in the wrong voice' : 'clients guess the direction of its text'}, and webmail that drops <html> drops it with it`,
        `write ${example} on <html> and on the element that wraps the body's content`,
        position(onDocument ? without[0]! : html),
      ),
    );
  }
  return found;
}

/** `the body's first child`, `the body's 3 first children`, `2 of the body's 3 first children`. */
function childrenSaid(without: number, all: number): string {
  const children = `the body's ${all === 1 ? 'first child' : `${all} first children`}`;
  return without === all ? children : `${without} of ${children}`;
}

/** Every accessibility finding of an email's HTML, with its text and its lang for the language rules. */
export function checkHtml(source: string, file: string): HtmlAudit {
  const html = readHtmlDocument(source, file);
  const starts = lineStarts(source);
  const position = ({ at: { line, column } }: { at: { line: number; column: number } }): LmxPosition => ({
    line,
    column,
    offset: (starts[line - 1] ?? 0) + column - 1,
  });
  const head = elementsIn(html).find((node) => node.name === 'head');
  const body = elementsIn(html).find((node) => node.name === 'body');
  const title = head === undefined ? undefined : elementsIn(head).find((node) => node.name === 'title');
  const walk = new HtmlWalk(position);
  const start: Drawing = { colour: SOURCE_TEXT, background: DEFAULT_BACKGROUND, px: BROWSER_FONT_SIZE, bold: false, link: false };
  if (body !== undefined) walk.walk(body, start);
  const text = words(walk.shown.join(' '));
  const found = attributeFindings(html, body, text, position);
  const titled = title === undefined ? '' : words(title.children.map((child) => (child.type === 'text' ? child.text : '')).join(''));
  if (titled === '' || PLACEHOLDER_TITLES.has(titled.toLowerCase()))
    found.push(
      finding(
        'title-missing',
        titled === ''
          ? 'no <title>: a client that opens the email in a window or a tab, and a screen reader, name it by its address'
          : `the <title> "${titled}" is a template's, not the email's own: a client that opens it in a window or a tab names it so`,
        "write the email's subject in <title> in its <head>",
        position(title ?? head ?? html),
      ),
    );
  // An email with colours of its own for dark mode is judged again as dark mode draws it: a client that honours them shows those.
  const dark = new HtmlWalk(position, true);
  if (body !== undefined && hasDarkMode(html)) {
    const darkBody = elementsIn(readHtmlDocument(source, file, 'dark')).find((node) => node.name === 'body');
    if (darkBody !== undefined) dark.walk(darkBody, start);
  }
  const lang = html.attrs.lang?.trim();
  return {
    findings: [...found, ...walk.findings.list(), ...dark.findings.list(), ...headingFindings(walk.headings)],
    text,
    ...(lang === undefined || lang === '' ? {} : { lang }),
    position: position(html),
  };
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}
