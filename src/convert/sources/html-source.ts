/**
 * HTML email read as a browser reads it (parse5, with each element's line and column), into the
 * mapper's tree: the output of other providers' editors, of MJML and of React Email.
 */
import { type DefaultTreeAdapterMap, defaultTreeAdapter, parse, parseFragment, type TreeAdapter } from 'parse5';
import { LocalFileError } from '../../base/errors.js';
import { LineIndex } from '../../lmx/index.js';
import type { SourceDocument } from '../document.js';
import { element, type Findings, MAX_SOURCE_DEPTH, nestedTooDeep, type Place, type SourceElement, type SourceNode, text, textContent } from '../model.js';
import { declarationsOf, hidesContent, parseStyle, shownOnPhoneUpTo } from '../styles.js';
import { applyStylesheets, listStylesheet } from './html-cascade.js';
import { readLayout } from './html-layout.js';
import { darkModeRules } from './html-rules.js';

type Parse5Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['element'];
type Parse5Element = DefaultTreeAdapterMap['element'];

/** Where a fragment starts in its file, for fragments cut out of another file (an `<mj-text>`'s content). */
export interface Origin {
  file: string;
  line: number;
  column: number;
}

function placeOf(node: Parse5Node, origin: Origin): Place {
  const location = node.sourceCodeLocation;
  if (location === undefined || location === null) return { file: origin.file, line: origin.line, column: origin.column };
  return {
    file: origin.file,
    line: origin.line + location.startLine - 1,
    column: location.startLine === 1 ? origin.column + location.startCol - 1 : location.startCol,
  };
}

const isElement = (node: Parse5Node): node is Parse5Element => 'tagName' in node;

/** parse5's nodes as the mapper's; comments (Outlook's conditional ones too) are left out. */
export function fromParse5(nodes: readonly Parse5Node[], origin: Origin): SourceNode[] {
  const result: SourceNode[] = [];
  for (const node of nodes) {
    if (node.nodeName === '#text') result.push(text((node as DefaultTreeAdapterMap['textNode']).value, placeOf(node, origin)));
    else if (isElement(node)) {
      const attrs = Object.fromEntries(node.attrs.map((attribute) => [attribute.name, attribute.value]));
      // A style's own background-color outweighs a bgcolor attribute, as browsers draw it: `inherit` too (E-Com Plus's cells).
      if (attrs.bgcolor !== undefined && declarationsOf(attrs.style).some((declared) => declared.property === 'background-color')) delete attrs.bgcolor;
      const children = node.tagName === 'template' ? [] : fromParse5(node.childNodes, origin);
      const style = parseStyle(attrs.style);
      // <font color> is a colour as much as a style's.
      if (node.tagName === 'font' && attrs.color !== undefined) style.color ??= attrs.color;
      result.push(element(node.tagName, placeOf(node, origin), children, attrs, style));
    }
  }
  return result;
}

/**
 * parse5's tree builder, refusing an element placed deeper than MAX_SOURCE_DEPTH as it is placed:
 * the builder's own work grows with the depth of the open elements (each tag looks through them),
 * so a file of nothing but opening tags would cost the square of its length before any bound after
 * the parse could refuse it.
 */
function boundedAdapter(origin: Origin): TreeAdapter<DefaultTreeAdapterMap> {
  const depthOf = (node: DefaultTreeAdapterMap['parentNode']): number => {
    let depth = 0;
    for (let at: DefaultTreeAdapterMap['parentNode'] | null = node; at !== null && depth <= MAX_SOURCE_DEPTH; depth += 1)
      at = 'parentNode' in at ? at.parentNode : null;
    return depth;
  };
  const placed = (parent: DefaultTreeAdapterMap['parentNode'], node: DefaultTreeAdapterMap['childNode']) => {
    if ('tagName' in node && depthOf(parent) > MAX_SOURCE_DEPTH) throw nestedTooDeep(placeOf(node, origin));
  };
  return {
    ...defaultTreeAdapter,
    appendChild(parent, node) {
      placed(parent, node);
      defaultTreeAdapter.appendChild(parent, node);
    },
    insertBefore(parent, node, reference) {
      placed(parent, node);
      defaultTreeAdapter.insertBefore(parent, node, reference);
    },
  };
}

/** HTML cut out of another file, as the mapper's nodes. */
export function htmlFragment(html: string, origin: Origin): SourceNode[] {
  return fromParse5(parseFragment(html, { sourceCodeLocationInfo: true, treeAdapter: boundedAdapter(origin) }).childNodes, origin);
}

/** An attribute written a second time in one tag (parse5 says where its name ends): a browser reads the first, and so does convert. */
function listGivenTwice(source: string, error: { startLine: number; startCol: number; startOffset: number }, findings: Findings, file: string): void {
  const name = /[^\s"'>/=]+$/.exec(source.slice(Math.max(0, error.startOffset - 100), error.startOffset))?.[0] ?? 'an attribute';
  const value = /^\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/.exec(source.slice(error.startOffset, error.startOffset + 200))?.[1] ?? '';
  findings.add(
    { file, line: error.startLine, column: Math.max(1, error.startCol - name.length) },
    `${name} given twice (the second ${value === '' ? 'without a value' : `${name}=${value}`})`,
    'listed',
    'read by the first, as a browser reads it',
    'keep one of them in the source, or check the block in the LMX',
  );
}

/** Whether text is HTML at all: a file named .html that holds JSON, or nothing but words, is not. */
const LOOKS_LIKE_HTML = /<\s*(!doctype\s+html|html|head|body|table|div|p|center|span|a|h[1-6])[\s>/]/i;

const childElements = (node: SourceElement) => node.children.filter((child): child is SourceElement => child.type === 'element');

/** An HTML email: its title the subject, its hidden preheader the preview text, its <style> rules listed, its body the content. */
export function readHtml(source: string, file: string, findings: Findings): SourceDocument {
  const start = source.slice(0, 64 * 1024);
  // MJML or a React Email module under an .html name would be read as a page of unknown tags: refused, as any file that is not what its name says.
  // A module's imports come before any tag; an email's text may well start a line with "import".
  const firstTag = start.indexOf('<');
  const other = /<mjml[\s>]/i.exec(start) ?? /^\s*(?:import|export)\s[^\n]*/m.exec(firstTag < 0 ? start : start.slice(0, firstTag));
  if (other !== null) {
    const { line, column } = new LineIndex(source).at(other.index + (other[0].length - other[0].trimStart().length));
    const format = other[0].toLowerCase().includes('<mjml') ? 'MJML (an <mjml> element)' : 'a JavaScript module (an import or export)';
    throw new LocalFileError(`${file}:${line}:${column}: not HTML: ${format}`, {
      hint: 'name MJML .mjml and React Email .tsx or .jsx, and convert it again',
    });
  }
  if (!LOOKS_LIKE_HTML.test(start))
    throw new LocalFileError(`${file}: not HTML (no <html>, <body> or other element in its first 64 KB)`, {
      hint: 'name an .html file that holds an email; MJML is .mjml, React Email .tsx or .jsx',
    });
  const origin = { file, line: 1, column: 1 };
  const onParseError = (error: { code: string; startLine: number; startCol: number; startOffset: number }) => {
    if (error.code === 'duplicate-attribute') listGivenTwice(source, error, findings, file);
  };
  const [html] = fromParse5(parse(source, { sourceCodeLocationInfo: true, treeAdapter: boundedAdapter(origin), onParseError }).childNodes, origin).filter(
    (node): node is SourceElement => node.type === 'element' && node.name === 'html',
  );
  const head = childElements(html!).find((node) => node.name === 'head');
  const parsedBody = childElements(html!).find((node) => node.name === 'body')!;
  // Every <style>, in the body too: Foundation's build puts its media queries where its templates say `<!-- <style> -->`.
  const sheets = stylesheetsIn(html!);
  const read = applyStylesheets(sheets.map(textContent), parsedBody);
  sheets.forEach((sheet, index) => {
    if (textOf(sheet) !== '') listStylesheet(findings, sheet.at, 'custom CSS (<style>)', read[index]!);
  });
  const body = readLayout(withoutStylesheets(parsedBody));
  let subject: string | undefined;
  for (const node of head === undefined ? [] : childElements(head)) {
    if (node.name === 'title') subject = textOf(node) || undefined;
    if (node.name === 'link' && /(^|\s)stylesheet(\s|$)/i.test(node.attrs.rel ?? ''))
      findings.add(
        node.at,
        `a linked stylesheet (<link href="${node.attrs.href ?? ''}">)`,
        'dropped',
        'not read; the styles written on each element carried',
        'LMX takes no CSS: inline the stylesheet into the HTML before converting it, or set colours and fonts in the theme (<Style />)',
      );
    if (node.name === 'script') findings.add(node.at, 'a script', 'dropped', 'dropped', 'email clients run no scripts: nothing to do');
  }
  const previewText = takePreheader(body);
  const lang = html!.attrs.lang?.trim();
  return { body, subject, previewText, ...(lang ? { lang } : {}) };
}

/**
 * An email's HTML as a recipient's client gets it, whole: its `<html>` with the head and the body,
 * the stylesheets' rules applied to the body's elements as a browser's cascade applies them, for
 * `content check --html` to judge what the email draws.
 */
export function readHtmlDocument(source: string, file: string, mode: 'light' | 'dark' = 'light'): SourceElement {
  const origin = { file, line: 1, column: 1 };
  const [html] = fromParse5(parse(source, { sourceCodeLocationInfo: true, treeAdapter: boundedAdapter(origin) }).childNodes, origin).filter(
    (node): node is SourceElement => node.type === 'element' && node.name === 'html',
  );
  const body = childElements(html!).find((node) => node.name === 'body')!;
  const sheets = stylesheetsIn(html!).map(textContent);
  // In dark mode, the rules of `prefers-color-scheme: dark` come after the others, as a client in dark mode reads them.
  applyStylesheets(mode === 'dark' ? [...sheets, ...sheets.map(darkModeRules)] : sheets, body);
  return html!;
}

/** Whether an email's stylesheets give it colours of its own in dark mode. */
export function hasDarkMode(html: SourceElement): boolean {
  return stylesheetsIn(html).some((sheet) => darkModeRules(textContent(sheet)) !== '');
}

/** Every <style> of a document, in its head or its body. */
export function stylesheetsIn(node: SourceElement): SourceElement[] {
  return childElements(node).flatMap((child) => (child.name === 'style' ? [child] : stylesheetsIn(child)));
}

/** The tree with its <style>s taken out, each listed once where it was read. */
export function withoutStylesheets(node: SourceElement): SourceElement {
  node.children = node.children.filter((child) => child.type !== 'element' || child.name !== 'style');
  for (const child of childElements(node)) withoutStylesheets(child);
  return node;
}

/** The hidden text at the top of an email that clients show beside the subject: the message's preview text. Text that shows, whatever its class, stays in the body. */
export function takePreheader(body: SourceElement): string | undefined {
  const found = firstHidden(body, { left: 200 });
  if (found === undefined || found === 'shown') return undefined;
  const [preview] = found.holder.children.splice(found.index, 1);
  return textOf(preview!);
}

/**
 * The first element with text that the source hides on every screen, in the order a reader meets
 * them, where it comes before any text that shows ('shown' once one does, or once `budget` elements
 * are passed).
 */
function firstHidden(node: SourceElement, budget: { left: number }): { holder: SourceElement; index: number } | 'shown' | undefined {
  for (const [index, child] of node.children.entries()) {
    if (child.type === 'text' && child.text.trim() !== '') return 'shown';
    if (child.type !== 'element' || child.name === 'img') continue;
    budget.left -= 1;
    if (budget.left < 0) return 'shown';
    if (hidesContent(child.style)) {
      if (textOf(child) !== '' && shownOnPhoneUpTo(child) === undefined) return { holder: node, index };
      continue;
    }
    const inside = firstHidden(child, budget);
    if (inside !== undefined) return inside;
  }
  return undefined;
}

function textOf(node: SourceNode): string {
  if (node.type === 'text') return node.text.replace(/\s+/g, ' ').trim();
  if (node.type === 'variable') return node.source;
  return node.children
    .map(textOf)
    .filter((part) => part !== '')
    .join(' ')
    .replace(/(?:\u200c|\u00a0|\u034f|\s)+/g, ' ')
    .trim();
}
