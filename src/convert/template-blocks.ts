/**
 * The blocks of a template language in an email's text (`{{#each}}`, `{{#if}}…{{else}}`, `{{#with}}`,
 * Mustache's `{{#items}}` and `{{^items}}`, `{% for %}`, `{% if %}`, Mailchimp's `*|IF:|*`), read
 * across the elements they enclose: a loop's row between a table's rows, a condition around a list
 * item. LMX has no loops and no conditions (the specification's variables are values only), so each
 * block is listed at its opening tag with what convert kept of it and how many words that is, as
 * the fidelity line counts them. A `{{#with path}}` sets the context of the variables inside it:
 * `{{ fullName }}` there names `path.fullName`, and `../` the context around it.
 */
import type { Findings, Place, SourceElement, SourceNode } from './model.js';
import { hiddenBy, UNSEEN } from './styles.js';
import { type BlockTag, blockListing, blockTagOf, placeAt, placeKey, readerWords, TEMPLATE_TAG, tagExpression } from './variables.js';

/** The attributes whose variables LMX carries (src/convert/template-values.ts). */
const CARRIED = ['href', 'src', 'alt'];

interface OpenBlock {
  block: BlockTag;
  whole: string;
  at: Place;
  /** The order it was opened in: blocks are listed in the order they start. */
  order: number;
  words: number;
  variables: number;
  /** Elements it encloses: a block of no words may still hold a list item or an image. */
  elements: number;
  branches: number;
  /** The context a block sets for the variables inside it: a path, or unknown (an item of a loop). */
  context?: string[] | 'unknown';
  /** Handlebars' block parameters (`as |address|`), by name. */
  params: Map<string, string[]>;
}

/** A variable's path with the `../` and `this.` it starts with, or undefined for anything but a plain path. */
const SCOPED_PATH = /^((?:\.\.\/)*)(?:this\.|\.\/)?([A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)$/;

class BlockReader {
  private readonly open: OpenBlock[] = [];
  private readonly read: { open: OpenBlock; closed: boolean }[] = [];
  private opened = 0;

  constructor(private readonly findings: Findings) {}

  walk(node: SourceNode, shown: boolean): void {
    if (node.type === 'variable') {
      if (shown) for (const block of this.open) block.variables += 1;
      return;
    }
    if (node.type === 'text') return this.text(node.text, node.at, shown);
    if (UNSEEN.has(node.name)) return;
    for (const open of this.open) open.elements += 1;
    for (const name of CARRIED) {
      const value = node.attrs[name];
      // An attribute's value is read trimmed, at its element's place (src/convert/inline.ts).
      if (value !== undefined) this.variables(value.trim(), node.at);
    }
    const visible = shown && hiddenBy(node) === undefined;
    for (const child of node.children) this.walk(child, visible);
  }

  /** Lists each block in the order they open, those still open at the end as never closed. */
  end(): void {
    while (this.open.length > 0) this.read.push({ open: this.open.pop()!, closed: false });
    for (const { open, closed } of this.read.sort((one, other) => one.open.order - other.open.order)) this.list(open, closed);
  }

  private text(text: string, at: Place, shown: boolean): void {
    let last = 0;
    for (const match of text.matchAll(TEMPLATE_TAG)) {
      if (shown) this.count(text.slice(last, match.index));
      last = match.index + match[0].length;
      const place = placeAt(at, text, match.index);
      const block = blockTagOf(match);
      if (block === undefined) {
        if (shown && (match[2] ?? match[3] ?? match[7] ?? match[9] ?? match[10]) !== undefined) for (const open of this.open) open.variables += 1;
        this.variable(match, place);
      } else if (block.role === 'open') this.start(block, match[0], place);
      else if (block.role === 'branch') {
        const top = this.open.at(-1);
        if (top !== undefined) top.branches += 1;
      } else this.closed(block.name);
    }
    if (shown) this.count(text.slice(last));
  }

  private count(text: string): void {
    const words = readerWords(text).length;
    for (const block of this.open) block.words += words;
  }

  private start(block: BlockTag, whole: string, at: Place): void {
    const params = new Map<string, string[]>();
    let context: OpenBlock['context'];
    if (block.kind === 'context') {
      const [target = '', named] = block.argument.split(/\s+as\s+\|/);
      const path = this.resolve(target.trim());
      context = path ?? 'unknown';
      const name = named?.replace(/\|\s*$/, '').trim();
      if (name !== undefined && path !== undefined) params.set(name, path);
    } else if (block.kind === 'loop' || block.kind === 'section') context = 'unknown';
    this.open.push({ block, whole, at, order: this.opened++, words: 0, variables: 0, elements: 0, branches: 1, context, params });
  }

  /** Closes the innermost block of that name, and those opened inside it and never closed. */
  private closed(name: string): void {
    const index = this.open.findLastIndex((open) => open.block.name === name);
    if (index === -1) return;
    while (this.open.length > index + 1) this.read.push({ open: this.open.pop()!, closed: false });
    this.read.push({ open: this.open.pop()!, closed: true });
  }

  private list(open: OpenBlock, closed: boolean): void {
    const path = Array.isArray(open.context) ? open.context.join('.') : undefined;
    const { done, todo } = blockListing(open.block, {
      words: open.words,
      variables: open.variables,
      elements: open.elements,
      branches: open.branches,
      closed,
      path,
    });
    this.findings.add(open.at, open.whole, 'flattened', done, todo);
    this.findings.listedBlocks.add(placeKey(open.at));
  }

  private variables(value: string, at: Place): void {
    for (const match of value.matchAll(TEMPLATE_TAG)) if (blockTagOf(match) === undefined) this.variable(match, placeAt(at, value, match.index));
  }

  /** A variable whose path a block's context changes is given its full path, for the mapper to read at its place. */
  private variable(match: RegExpMatchArray, at: Place): void {
    const [whole, , triple, double] = match;
    const plain = tagExpression(match).split('|')[0]!.trim();
    if ((triple ?? double) === undefined || !SCOPED_PATH.test(plain)) return;
    const path = this.resolve(plain);
    if (path !== undefined && path.join('.') !== plain) this.findings.scopedPaths.set(placeKey(at), { tag: whole, path });
  }

  /** The full path of a plain path written inside the open blocks, or undefined where it names an item of a loop. */
  private resolve(written: string): string[] | undefined {
    const match = SCOPED_PATH.exec(written);
    if (match === null) return undefined;
    const [, ups = '', rest = ''] = match;
    // `{{this}}` is the context itself.
    const segments = rest === 'this' ? [] : rest.split('.');
    // Only the blocks that change the context count for `../` (Handlebars' `#if` keeps its context).
    const contexts = this.open.filter((open) => open.context !== undefined);
    const level = contexts.length - ups.length / 3;
    if (level < 0) return undefined;
    const param = contexts
      .slice(0, level)
      .reverse()
      .find((open) => open.params.has(segments[0]!));
    if (param !== undefined && segments.length > 0) return [...param.params.get(segments[0]!)!, ...segments.slice(1)];
    const context = level === 0 ? [] : contexts[level - 1]!.context!;
    if (context === 'unknown' || context.length + segments.length === 0) return undefined;
    return [...context, ...segments];
  }
}

/** Lists every block of a template language in the tree's text, and gives the variables inside a `{{#with}}` their full paths. */
export function readTemplateBlocks(body: SourceElement, findings: Findings): void {
  const reader = new BlockReader(findings);
  reader.walk(body, true);
  reader.end();
}
