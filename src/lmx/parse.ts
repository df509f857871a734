/**
 * LMX read into a tree, in one pass over the source with a stack of open tags (no recursion, so no input can overflow the call stack). Syntax
 * problems are reported and the parse goes on where it can: a stray closing tag is skipped, an unclosed tag is closed where its parent ends.
 */

import type { LmxAttribute, LmxDocument, LmxElement, LmxNode, LmxText, LmxVariable } from './nodes.js';
import { LineIndex, type LmxPosition, type LmxProblem, type LmxRule, type LmxSeverity } from './problems.js';
import { LMX_TAGS, type LmxContentType, type LmxTagSpec } from './tags.js';
import { TextReader } from './text.js';

export type { LmxAttribute, LmxDocument, LmxElement, LmxNode, LmxText, LmxVariable } from './nodes.js';

/** Tags nest at most this deep: deeper input is refused, so that anything walking the tree may recurse. */
export const MAX_LMX_DEPTH = 100;

const NAME = /[A-Za-z][\w.:-]*/y;
const ATTRIBUTE_NAME = /[A-Za-z_:][\w.:-]*/y;
const CLOSING = /<\/([A-Za-z][\w.:-]*)\s*>/y;

/** HTML's elements that have no content and no closing tag. */
const HTML_EMPTY_ELEMENTS: ReadonlySet<string> = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));

/** A self-closing tag as written: `<Br />`, `<Image ... />` for one that takes attributes. */
export function selfClosed(spec: LmxTagSpec): string {
  return `<${spec.name}${Object.keys(spec.attributes).length === 0 ? '' : ' ...'} />`;
}

/** Every attribute name the table knows, each its own string. */
const ATTRIBUTE_NAMES = new Map([...LMX_TAGS.values()].flatMap((spec) => Object.keys(spec.attributes).map((name) => [name, name] as const)));

interface Frame {
  element: LmxElement;
  content: LmxContentType | undefined;
}

class Parser {
  readonly problems: LmxProblem[] = [];
  readonly document: LmxDocument = { kind: 'document', children: [] };
  private readonly lines: LineIndex;
  private readonly stack: Frame[] = [];
  private stopped = false;
  private readonly reader: TextReader;

  constructor(private readonly source: string) {
    this.lines = new LineIndex(source);
    this.reader = new TextReader(
      source,
      (offset) => this.at(offset),
      (...problem) => this.report(...problem),
    );
  }

  parse(): void {
    const { source } = this;
    let index = 0;
    let textStart = 0;
    while (!this.stopped) {
      const lt = source.indexOf('<', index);
      if (lt < 0) break;
      if (!startsMarkup(source, lt)) {
        this.report('error', 'unescaped-lt', lt, 'a `<` that starts no tag', 'write it as &lt;');
        index = lt + 1;
        continue;
      }
      this.text(textStart, lt);
      index = this.markup(lt);
      textStart = index;
    }
    if (!this.stopped) this.text(textStart, source.length);
    const end = this.at(source.length);
    for (let depth = this.stack.length - 1; depth >= 0; depth -= 1) {
      const { element } = this.stack[depth]!;
      element.end = end;
      if (!this.stopped) this.unclosed(element, 'the end of the document');
    }
  }

  private at(offset: number): LmxPosition {
    return this.lines.at(offset);
  }

  private report(severity: LmxSeverity, rule: LmxRule, offset: number, message: string, fix: string): void {
    const { line, column } = this.at(offset);
    this.problems.push({ severity, rule, message, fix, line, column, offset });
  }

  private stop(): number {
    this.stopped = true;
    return this.source.length;
  }

  private get children(): LmxNode[] {
    return this.stack.length === 0 ? this.document.children : this.stack[this.stack.length - 1]!.element.children;
  }

  /** Text between tags, into the open element (or the top level). */
  private text(start: number, end: number): void {
    if (start >= end) return;
    const frame = this.stack[this.stack.length - 1];
    const content = frame === undefined ? 'none' : frame.content;
    const parts = this.reader.decode(start, end, content === 'raw' ? 'raw' : 'text');
    // Whitespace between blocks means nothing; text that is more than that is the validator's to report.
    const blocks = content === 'none';
    for (const part of parts) if (!(blocks && part.kind === 'text' && part.value.trim() === '')) this.children.push(part);
  }

  /** Whatever starts at a `<` that starts markup; returns where reading goes on. */
  private markup(lt: number): number {
    const { source } = this;
    const next = source[lt + 1];
    if (next === '!' || next === '?') return this.declaration(lt);
    if (next === '/') {
      CLOSING.lastIndex = lt;
      const match = CLOSING.exec(source);
      if (match === null) {
        const end = source.indexOf('>', lt);
        this.report('error', 'malformed-tag', lt, 'a closing tag that is not `</Name>`', 'write the closing tag as </Name>');
        return end < 0 ? this.stop() : end + 1;
      }
      this.close(match[1]!, lt, CLOSING.lastIndex);
      return CLOSING.lastIndex;
    }
    return this.open(lt);
  }

  private declaration(lt: number): number {
    const { source } = this;
    if (source.startsWith('<!--', lt)) {
      const end = source.indexOf('-->', lt + 4);
      if (end < 0) {
        this.report('error', 'malformed-tag', lt, 'a comment that is never closed', 'remove it');
        return this.stop();
      }
      this.report('warning', 'comment', lt, 'a comment: the editor drops it', 'remove it, or keep notes outside the LMX');
      return end + 3;
    }
    const cdata = source.startsWith('<![CDATA[', lt);
    const end = source.indexOf(cdata ? ']]>' : '>', lt);
    const what = cdata ? 'a CDATA section' : source[lt + 1] === '?' ? 'an XML declaration' : 'a doctype or declaration';
    this.report(
      'error',
      'not-lmx',
      lt,
      `${what} is not LMX`,
      cdata ? 'write the text itself, with < and & escaped' : 'remove it: an LMX document is its tags alone',
    );
    if (end < 0) return this.stop();
    return end + (cdata ? 3 : 1);
  }

  private open(lt: number): number {
    const { source } = this;
    NAME.lastIndex = lt + 1;
    NAME.exec(source);
    // The table's own string where the tag is known: later comparisons are then of the same string.
    const written = source.slice(lt + 1, NAME.lastIndex);
    const name = LMX_TAGS.get(written)?.name ?? written;
    const attributes: LmxAttribute[] = [];
    // The names given so far, so that a duplicate is found in constant time: a tag may have any number of attributes.
    const given = new Set<string>();
    let index = NAME.lastIndex;
    let selfClosing = false;
    let previous: { name: string; end: number } | undefined;
    for (;;) {
      index = skipSpace(source, index);
      const char = source[index];
      if (char === undefined) {
        this.report('error', 'malformed-tag', lt, `<${name} is never ended with > or />`, `end the tag: <${name} ...> or <${name} ... />`);
        return this.stop();
      }
      if (char === '>') {
        index += 1;
        break;
      }
      if (char === '/' && source[index + 1] === '>') {
        index += 2;
        selfClosing = true;
        break;
      }
      ATTRIBUTE_NAME.lastIndex = index;
      if (ATTRIBUTE_NAME.exec(source) === null) {
        const end = source.indexOf('>', index);
        this.report('error', 'malformed-tag', index, `\`${char}\` where an attribute or the end of <${name}> should be`, 'attributes are written name="value"');
        if (end < 0) return this.stop();
        selfClosing = source[end - 1] === '/';
        index = end + 1;
        break;
      }
      const quote = source[index - 1];
      if (index === previous?.end && (quote === '"' || quote === "'") && source[skipSpace(source, ATTRIBUTE_NAME.lastIndex)] !== '=') {
        // A name with no value right after a closing quote: that quote was meant inside the value before it.
        const end = source.indexOf('>', index);
        this.report(
          'error',
          'attribute-syntax',
          index - 1,
          `a ${quote} inside the value of ${previous.name} ends it early`,
          `write it as ${quote === '"' ? '&quot;' : '&apos;'}`,
        );
        if (end < 0) return this.stop();
        selfClosing = source[end - 1] === '/';
        index = end + 1;
        break;
      }
      const attribute = this.attribute(index, name);
      if (attribute === undefined) return this.stop();
      index = attribute.end;
      previous = { name: attribute.attribute.name, end: index };
      if (given.has(attribute.attribute.name)) {
        this.report(
          'error',
          'duplicate-attribute',
          attribute.attribute.position.offset,
          `${attribute.attribute.name} is given twice on <${name}>`,
          'keep one of them',
        );
      } else {
        given.add(attribute.attribute.name);
        attributes.push(attribute.attribute);
      }
    }
    const element: LmxElement = { kind: 'element', name, attributes, children: [], selfClosing, position: this.at(lt), end: this.at(index) };
    this.children.push(element);
    return selfClosing ? index : this.opened(element, lt, index);
  }

  /** An element whose opening tag (at `lt`) did not close itself: its content starts at `index`; returns where reading goes on. */
  private opened(element: LmxElement, lt: number, index: number): number {
    const { source } = this;
    const { name } = element;
    const spec = LMX_TAGS.get(name);
    // HTML's empty elements (<br>, <img>) have no closing tag: the validator names the LMX tag meant, nothing is left open.
    if (spec === undefined && HTML_EMPTY_ELEMENTS.has(name.toLowerCase())) return index;
    if (spec?.selfClosing) {
      // `<Br></Br>` is the same element in XML; `<Image src="...">` with nothing after it is HTML's way.
      const close = skipSpace(source, index);
      CLOSING.lastIndex = close;
      const match = CLOSING.exec(source);
      if (match !== null && match[1] === name) {
        element.end = this.at(CLOSING.lastIndex);
        return CLOSING.lastIndex;
      }
      this.report('error', 'self-closing', lt, `<${name}> never has content and must close itself`, `write ${selfClosed(spec)}`);
      element.selfClosing = true;
      return index;
    }
    if (this.stack.length >= MAX_LMX_DEPTH) {
      this.report(
        'error',
        'too-deep',
        lt,
        `tags nested more than ${MAX_LMX_DEPTH} deep; the rest of the document is not read`,
        'flatten the document: an email nests a few tags deep',
      );
      return this.stop();
    }
    this.stack.push({ element, content: spec?.content ?? 'inline' });
    return index;
  }

  /** One attribute from its name on; undefined when its value never ends (reported). */
  private attribute(start: number, tag: string): { attribute: LmxAttribute; end: number } | undefined {
    const { source } = this;
    const spelled = source.slice(start, ATTRIBUTE_NAME.lastIndex);
    const name = ATTRIBUTE_NAMES.get(spelled) ?? spelled;
    const position = this.at(start);
    let index = skipSpace(source, ATTRIBUTE_NAME.lastIndex);
    if (source[index] !== '=') {
      this.report('error', 'attribute-syntax', start, `${name} on <${tag}> has no value`, `write ${name}="true" (or the value it needs)`);
      return { attribute: { name, value: '', parts: [], position }, end: index };
    }
    index = skipSpace(source, index + 1);
    const quote = source[index];
    if (quote === '"' || quote === "'") {
      const close = source.indexOf(quote, index + 1);
      if (close < 0) {
        this.report('error', 'malformed-tag', start, `the value of ${name} is never closed with ${quote}`, `close it: ${name}="..."`);
        return undefined;
      }
      const parts = this.reader.decode(index + 1, close, 'attribute');
      return { attribute: { name, value: joinedValue(parts), parts, position }, end: close + 1 };
    }
    let end = index;
    while (end < source.length && !/[\s>]/.test(source[end]!) && !(source[end] === '/' && source[end + 1] === '>')) end += 1;
    const written = source.slice(index, end);
    this.report('error', 'attribute-syntax', start, `the value of ${name} is not quoted`, `write ${name}="${written}"`);
    const parts = this.reader.decode(index, end, 'attribute');
    return { attribute: { name, value: joinedValue(parts), parts, position }, end };
  }

  private close(name: string, lt: number, end: number): void {
    const stack = this.stack;
    let depth = stack.length - 1;
    while (depth >= 0 && stack[depth]!.element.name !== name) depth -= 1;
    if (depth < 0) {
      this.report('error', 'stray-close', lt, `</${name}> closes no open <${name}>`, `remove it, or open <${name}> before it`);
      return;
    }
    for (let inner = stack.length - 1; inner > depth; inner -= 1) {
      const { element } = stack[inner]!;
      element.end = this.at(lt);
      this.unclosed(element, `</${name}>`);
    }
    stack[depth]!.element.end = this.at(end);
    stack.length = depth;
  }

  private unclosed(element: LmxElement, before: string): void {
    this.report('error', 'unclosed-tag', element.position.offset, `<${element.name}> is never closed`, `add </${element.name}> before ${before}`);
  }
}

function startsMarkup(source: string, lt: number): boolean {
  const next = source.charCodeAt(lt + 1);
  const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return isLetter(next) || next === 0x21 /* ! */ || next === 0x3f /* ? */ || (next === 0x2f /* / */ && isLetter(source.charCodeAt(lt + 2)));
}

function skipSpace(source: string, index: number): number {
  while (index < source.length) {
    const code = source.charCodeAt(index);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
    index += 1;
  }
  return index;
}

function joinedValue(parts: (LmxText | LmxVariable)[]): string {
  if (parts.length === 1 && parts[0]!.kind === 'text') return parts[0]!.value;
  return parts.map((part) => (part.kind === 'text' ? part.value : part.source)).join('');
}

/** The document's tree and its syntax problems (in the order found). Never throws. */
export function parseLmx(source: string): { document: LmxDocument; problems: LmxProblem[] } {
  const parser = new Parser(source);
  parser.parse();
  return { document: parser.document, problems: parser.problems };
}
