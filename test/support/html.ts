/**
 * HTML read as a browser reads it (parse5 follows the WHATWG parsing algorithm), so a test checks
 * the document's elements and attributes, what a mail client or a screen reader would see, rather
 * than strings in the markup: a `<script>` that a test did not expect is an element here, however
 * it was written.
 */
import { type DefaultTreeAdapterMap, parse } from 'parse5';

export type HtmlNode = DefaultTreeAdapterMap['node'];
export type HtmlElement = DefaultTreeAdapterMap['element'];

export interface ReadHtml {
  /** Every element of that tag name (lower case), in document order; every element with no name given. */
  all(tag?: string): HtmlElement[];
  /** The text of every comment. */
  comments(): string[];
  /** The parse errors the document has (a well-formed document has none). */
  errors: string[];
}

function children(node: HtmlNode): HtmlNode[] {
  const own = 'childNodes' in node ? node.childNodes : [];
  // A <template>'s content is a fragment of its own.
  return 'content' in node && node.content !== undefined ? [...own, ...node.content.childNodes] : own;
}

function walk(node: HtmlNode, visit: (node: HtmlNode) => void): void {
  visit(node);
  for (const child of children(node)) walk(child, visit);
}

export function readHtml(html: string): ReadHtml {
  const errors: string[] = [];
  const document = parse(html, { onParseError: (error) => errors.push(`${error.code} at ${error.startLine}:${error.startCol}`) });
  const nodes: HtmlNode[] = [];
  walk(document, (node) => nodes.push(node));
  return {
    all: (tag) => nodes.filter((node): node is HtmlElement => 'tagName' in node && (tag === undefined || node.tagName === tag)),
    comments: () => nodes.flatMap((node) => (node.nodeName === '#comment' && 'data' in node ? [node.data] : [])),
    errors,
  };
}

/** An attribute's value, or undefined. */
export function attribute(element: HtmlElement, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

/** The text inside an element, as a reader gets it. */
export function textOf(node: HtmlNode): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  return children(node).map(textOf).join('');
}
