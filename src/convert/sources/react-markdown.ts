/**
 * React Email's `<Markdown>` read as it renders: the Markdown its text holds made HTML by marked,
 * the parser React Email's component uses (the same major release, with GitHub's flavour, its
 * default), each element given the style the component gives it, and the HTML read as an HTML
 * email's is, so that its headings, lists, links, quotes and code become LMX's blocks. Nothing of
 * the template is run: the Markdown is the text the file writes, a prop in it a variable.
 */
import { marked } from 'marked';
import { element, type Findings, type Place, type SourceElement, type SourceNode, type Style } from '../model.js';
import { parseStyle } from '../styles.js';
import { htmlFragment } from './html-source.js';
import { type Node, styleOf, stylesOf } from './react-syntax.js';

/** The names of `markdownCustomStyles`, each the elements it styles. */
const STYLED: Record<string, (element: SourceElement, parent: SourceElement | undefined) => boolean> = {
  h1: (element) => element.name === 'h1',
  h2: (element) => element.name === 'h2',
  h3: (element) => element.name === 'h3',
  h4: (element) => element.name === 'h4',
  h5: (element) => element.name === 'h5',
  h6: (element) => element.name === 'h6',
  blockQuote: (element) => element.name === 'blockquote',
  bold: (element) => element.name === 'strong',
  italic: (element) => element.name === 'em',
  link: (element) => element.name === 'a',
  codeBlock: (element) => element.name === 'pre',
  codeInline: (element, parent) => element.name === 'code' && parent?.name !== 'pre',
  strikethrough: (element) => element.name === 'del',
  image: (element) => element.name === 'img',
  ...Object.fromEntries(
    ['p', 'li', 'ul', 'ol', 'br', 'hr', 'table', 'thead', 'tbody', 'th', 'td', 'tr'].map((tag) => [tag, (element: SourceElement) => element.name === tag]),
  ),
};

const heading = (size: string) => `font-weight: 500; padding-top: 20px; font-size: ${size}`;
const code = 'color: #212529; font-size: 87.5%; background: #f8f8f8; font-family: SFMono-Regular,Menlo,Monaco,Consolas,monospace; word-wrap: break-word';

/** The styles @react-email/markdown (0.0.18, its styles.ts) gives each element unless the template gives its own. */
const DEFAULT_STYLES: Record<string, Style> = Object.fromEntries(
  Object.entries({
    h1: heading('2.5rem'),
    h2: heading('2rem'),
    h3: heading('1.75rem'),
    h4: heading('1.5rem'),
    h5: heading('1.25rem'),
    h6: heading('1rem'),
    bold: 'font-weight: bold',
    italic: 'font-style: italic',
    blockQuote: 'background: #f9f9f9; border-left: 10px solid #ccc; margin: 1.5em 10px; padding: 1em 10px',
    link: 'color: #007bff; text-decoration: underline; background-color: transparent',
    codeInline: `${code}; display: inline`,
    codeBlock: `${code}; display: block; padding: 10px 10px 1px 10px; margin-bottom: 20px`,
  }).map(([name, css]) => [name, parseStyle(css)]),
);

/** Every node of the tree at one place: the Markdown's, where the HTML made from it has no lines of the file's. */
function placed(node: SourceNode, at: Place): SourceNode {
  return node.type === 'element' ? { ...node, at, children: node.children.map((child) => placed(child, at)) } : { ...node, at };
}

function styled(nodes: SourceNode[], styles: Record<string, Style>, parent?: SourceElement): SourceNode[] {
  return nodes.map((node) => {
    if (node.type !== 'element') return node;
    const own = Object.entries(STYLED)
      .filter(([, matches]) => matches(node, parent))
      .map(([name]) => styles[name] ?? {});
    const element: SourceElement = { ...node, style: Object.assign({}, ...own, node.style) as Style };
    return { ...element, children: styled(node.children, styles, element) };
  });
}

/**
 * The blocks a `<Markdown>` draws, from the Markdown it holds (its text, and its variables written
 * `{{name}}`, as the reader writes a prop in text), its `markdownCustomStyles` (by the component's
 * names: `h1`, `link`, `codeBlock`…) in place of the component's own, and its
 * `markdownContainerStyles` on the `<div>` around them, as React Email renders it.
 */
export function markdownBlocks(
  parts: readonly ({ text: string } | { variable: string })[],
  at: Place,
  custom: Record<string, Style>,
  container: Style,
): SourceElement {
  // Each variable stands in the Markdown as a word of letters (marked would escape braces in an address), then as itself again.
  const written = parts.map((part) => ('text' in part ? part.text : '')).join('');
  let token = 'lcvar';
  while (written.includes(token)) token += 'x';
  const variables = parts.flatMap((part) => ('variable' in part ? [part.variable] : []));
  let index = 0;
  const markdown = parts.map((part) => ('text' in part ? part.text : `${token}${index++}q`)).join('');
  const html = marked.parse(markdown, { async: false, gfm: true }).replace(new RegExp(`${token}(\\d+)q`, 'g'), (_, at: string) => variables[Number(at)]!);
  const nodes = htmlFragment(html, at).map((node) => placed(node, at));
  // A style the template gives an element takes the place of the component's, as React Email spreads them.
  const styles = Object.fromEntries(Object.keys(STYLED).map((name) => [name, custom[name] ?? DEFAULT_STYLES[name] ?? {}]));
  return { type: 'element', name: 'div', attrs: {}, style: container, children: styled(nodes, styles), at };
}

/**
 * A `<Markdown>` whose Markdown the file writes out, as React Email renders it; any other as one
 * paragraph, listed. `spelled` writes a variable as the template does.
 */
export function markdownComponent(
  at: Place,
  styles: Record<string, Node>,
  nodes: SourceNode[],
  lookup: (name: string) => Node | undefined,
  findings: Findings,
  spelled: (nodes: readonly SourceNode[]) => string,
): SourceNode[] {
  const custom = styles.markdownCustomStyles === undefined ? {} : stylesOf(styles.markdownCustomStyles, lookup);
  if (custom === undefined)
    findings.add(at, 'markdownCustomStyles', 'dropped', 'not read: the styles are not written out in the file', 'write the styles out as an object literal');
  if (nodes.some((node) => node.type === 'element')) {
    findings.add(at, '<Markdown>', 'kept as text', 'the Markdown kept as one paragraph', 'write it as LMX blocks (headings, paragraphs, lists)');
    return [element('p', at, nodes)];
  }
  const container = styles.markdownContainerStyles === undefined ? {} : styleOf(styles.markdownContainerStyles, lookup);
  const parts = nodes.map((node) => (node.type === 'text' ? { text: node.text } : { variable: spelled([node]) }));
  return [markdownBlocks(parts, at, custom ?? {}, container)];
}
