/**
 * LMX read into a tree, in one pass over the source with a stack of open tags (no recursion, so no input can overflow the call stack). Syntax
 * problems are reported and the parse goes on where it can: a stray closing tag is skipped, an unclosed tag is closed where its parent ends.
 */
import { LineIndex, type LmxPosition, type LmxProblem, type LmxRule, type LmxSeverity } from './problems.js';
import { LMX_TAGS, type LmxContentType, type LmxNamespace, type LmxTagSpec } from './tags.js';
import { FALLBACK_FIELDS } from '../platform/email-messages/schemas.js';

export interface LmxText {
  kind: 'text';
  /** With character references decoded. */
  value: string;
  position: LmxPosition;
}

export interface LmxVariable {
  kind: 'variable';
  namespace: LmxNamespace;
  name: string;
  /** As written, braces included: `{contact.firstName}`. LMX has no inline fallback syntax. */
  source: string;
  position: LmxPosition;
}

export interface LmxAttribute {
  name: string;
  /** With character references decoded. */
  value: string;
  /** The value as text and variables; any attribute's value is split so, whether it takes variables or not. */
  parts: (LmxText | LmxVariable)[];
  position: LmxPosition;
}

export interface LmxElement {
  kind: 'element';
  name: string;
  attributes: LmxAttribute[];
  children: LmxNode[];
  /** Written `<Name ... />`. */
  selfClosing: boolean;
  /** Where its opening tag starts, and where the element ends (just past its closing tag). */
  position: LmxPosition;
  end: LmxPosition;
}

export type LmxNode = LmxElement | LmxText | LmxVariable;

/** The top level: whitespace between block tags is not kept, nor inside tags whose content is `none`. */
export interface LmxDocument {
  kind: 'document';
  children: LmxNode[];
}

/** Tags nest at most this deep: deeper input is refused, so that anything walking the tree may recurse. */
export const MAX_LMX_DEPTH = 100;

const NAME = /[A-Za-z][\w.:-]*/y;
const ATTRIBUTE_NAME = /[A-Za-z_:][\w.:-]*/y;
const CLOSING = /<\/([A-Za-z][\w.:-]*)\s*>/y;
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/y;
/** The characters decode acts on: references, braces, `<` and the control characters isControl names. */
const NOTABLE = /[&{<\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** What an author meant as a variable: a brace, a name and a closing brace, no spaces. */
const VARIABLE_LIKE = /\{([A-Za-z_][^\s{}<>&"']*)\}/y;
const VARIABLE = /^(contact|event|data)\.([A-Za-z0-9_-]+)$/;
/** The start of what looks like a variable but did not read as one: spaces inside, a fallback, no closing brace. */
const LOOSE_VARIABLE = /\{\s*(contact|event|data)\.([A-Za-z0-9_-]+)/y;
/** What follows it up to its closing brace, in the same text (no tag or other brace between). */
const BRACE_REST = /([^{}<]*)\}/y;
/** A variable in two pairs of braces, as Handlebars and Liquid write it. */
const DOUBLE_BRACES = /\{\{(contact|event|data)\.([A-Za-z0-9_-]+)\}\}/y;
/** Fallback syntax other languages have: `{name|there}`, `{name:there}`, `{name ?? "there"}`, `{name, there}`. */
const FALLBACK = /^\s*(\||:|\?\?|,)/;

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** HTML 4's named references (its Latin-1, symbol and special sets), which authors bring from HTML and MJML. */
const HTML_ENTITY_NAMES: ReadonlySet<string> = new Set(
  (
    'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para ' +
    'middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave ' +
    'Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc ' +
    'Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc ' +
    'iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml fnof Alpha Beta ' +
    'Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega alpha ' +
    'beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi ' +
    'omega thetasym upsih piv bull hellip prime Prime oline frasl weierp image real trade alefsym larr uarr rarr darr harr ' +
    'crarr lArr uArr rArr dArr hArr forall part exist empty nabla isin notin ni prod sum minus lowast radic prop infin ang ' +
    'and or cap cup int there4 sim cong asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot lceil rceil lfloor ' +
    'rfloor lang rang loz spades clubs hearts diams OElig oelig Scaron scaron Yuml circ tilde ensp emsp thinsp zwnj zwj lrm ' +
    'rlm ndash mdash lsquo rsquo sbquo ldquo rdquo bdquo dagger Dagger permil lsaquo rsaquo euro'
  ).split(' '),
);

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

/** How a stretch of source is read: text in content (raw keeps braces), or an attribute's value. */
type Mode = 'text' | 'raw' | 'attribute';

class Parser {
  readonly problems: LmxProblem[] = [];
  readonly document: LmxDocument = { kind: 'document', children: [] };
  private readonly lines: LineIndex;
  private readonly stack: Frame[] = [];
  private stopped = false;

  constructor(private readonly source: string) {
    this.lines = new LineIndex(source);
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
    const parts = this.decode(start, end, content === 'raw' ? 'raw' : 'text');
    // Whitespace between blocks means nothing; text that is more than that is the validator's to report.
    const blocks = content === 'none';
    for (const part of parts) if (!(blocks && part.kind === 'text' && part.value.trim() === '')) this.children.push(part);
  }

  /** Source as text and variables: references decoded, an unescaped `&` (and `<` in values) reported, braces read as variables unless raw. */
  private decode(start: number, end: number, mode: Mode): (LmxText | LmxVariable)[] {
    const { source } = this;
    const parts: (LmxText | LmxVariable)[] = [];
    let value = '';
    let valueStart = start;
    let copied = start;
    const stretch = source.slice(start, end); // searched alone, so that no search runs past the end (V8 slices without copying)
    const flush = (upTo: number) => {
      value += source.slice(copied, upTo);
      if (value !== '') parts.push({ kind: 'text', value, position: this.at(valueStart) });
      value = '';
    };
    for (let index = start; index < end; index += 1) {
      // Jump to the next character that matters: the regex engine scans plain text natively, where our loop would run unoptimised.
      NOTABLE.lastIndex = index - start;
      if (NOTABLE.exec(stretch) === null) break;
      index = start + NOTABLE.lastIndex - 1;
      const char = source.charCodeAt(index);
      if (isControl(char)) {
        // A run of them is one finding, at its start.
        if (!isControl(source.charCodeAt(index - 1))) this.controlCharacter(index);
      } else if (char === 0x26 /* & */) {
        ENTITY.lastIndex = index;
        const match = ENTITY.exec(source);
        if (match === null || ENTITY.lastIndex > end) {
          this.report('error', 'unescaped-amp', index, 'a `&` that starts no character reference', 'write it as &amp;');
          continue;
        }
        const decoded = this.entity(match[1]!, index);
        if (decoded === undefined) continue;
        value += source.slice(copied, index) + decoded;
        index = ENTITY.lastIndex - 1;
        copied = ENTITY.lastIndex;
      } else if (char === 0x3c /* < */ && mode === 'attribute') {
        this.report('error', 'unescaped-lt', index, 'a `<` in an attribute value', 'write it as &lt;');
      } else if (char === 0x7b /* { */ && mode !== 'raw') {
        // The inner braces are read as the variable, as the platform reads them: only a warning is added.
        if (source.charCodeAt(index + 1) === 0x7b /* { */) this.doubleBraces(index, end);
        VARIABLE_LIKE.lastIndex = index;
        const match = VARIABLE_LIKE.exec(source);
        if (match === null || VARIABLE_LIKE.lastIndex > end) {
          index = this.looseVariable(index, end);
          continue;
        }
        const expression = match[1]!;
        const variable = VARIABLE.exec(expression);
        if (variable === null) {
          this.badVariable(expression, index);
          index = VARIABLE_LIKE.lastIndex - 1;
          continue;
        }
        flush(index);
        parts.push({ kind: 'variable', namespace: variable[1] as LmxNamespace, name: variable[2]!, source: match[0], position: this.at(index) });
        index = VARIABLE_LIKE.lastIndex - 1;
        copied = valueStart = VARIABLE_LIKE.lastIndex;
      }
    }
    flush(end);
    return parts;
  }

  /** `{{data.firstName}}`, a Handlebars habit: the platform fills the inner braces and shows the outer ones, `{Ada}`. */
  private doubleBraces(offset: number, end: number): void {
    DOUBLE_BRACES.lastIndex = offset;
    const match = DOUBLE_BRACES.exec(this.source);
    if (match === null || DOUBLE_BRACES.lastIndex > end) return;
    this.report(
      'warning',
      'variable-syntax',
      offset,
      `${match[0]} is Handlebars syntax: LMX fills the inner {${match[1]}.${match[2]}} and shows the outer braces around its value`,
      `write {${match[1]}.${match[2]}}, with one pair of braces`,
    );
  }

  private controlCharacter(offset: number): void {
    const code = this.source.charCodeAt(offset);
    this.report(
      'warning',
      'control-character',
      offset,
      `a control character, U+${code.toString(16).toUpperCase().padStart(4, '0')}: it does nothing in an email, and a terminal that shows the file acts on it`,
      'remove it',
    );
  }

  /** A character reference's text, or undefined (reported) when LMX does not know it. */
  private entity(reference: string, offset: number): string | undefined {
    if (reference.startsWith('#')) {
      const code = reference[1] === 'x' ? Number.parseInt(reference.slice(2), 16) : Number.parseInt(reference.slice(1), 10);
      if (code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) return String.fromCodePoint(code);
      this.report('error', 'unknown-entity', offset, `&${reference}; is not a character`, 'write the character itself');
      return undefined;
    }
    const named = NAMED_ENTITIES[reference];
    if (named !== undefined) return named;
    const html = HTML_ENTITY_NAMES.has(reference);
    this.report(
      'error',
      'unknown-entity',
      offset,
      html ? `&${reference}; is an HTML entity, which LMX does not know` : `&${reference}; is an unknown entity`,
      html ? 'write the character itself, or a numeric reference such as &#160;' : `write &amp;${reference}; for the text itself, or the character meant`,
    );
    return undefined;
  }

  private badVariable(expression: string, offset: number): void {
    const namespaced = /^(contact|event|data)\.([A-Za-z0-9_-]+)(.+)$/.exec(expression);
    // Another syntax's prefix (DATA_VARIABLE:, EVENT_PROPERTY:) is not part of the name the fix suggests.
    const prefixed = /^([A-Za-z_]+):([A-Za-z0-9_-]+)$/.exec(expression);
    const name = prefixed?.[2] ?? expression;
    const [message, fix] =
      prefixed?.[1] === 'DATA_VARIABLE'
        ? [`{${expression}} is MJML and editor syntax, not LMX`, `write {data.${name}}`]
        : namespaced !== null && FALLBACK.test(namespaced[3]!)
          ? fallbackProblem(`{${expression}}`, namespaced[1] as LmxNamespace, namespaced[2]!)
          : !expression.includes('.')
            ? [`{${expression}} has no namespace`, `write {contact.${name}} or {event.${name}} (campaigns, workflows) or {data.${name}} (transactional emails)`]
            : [
                `{${expression}} is not a variable LMX knows`,
                'variables are {contact.name}, {event.name} or {data.name}, the name in letters, digits, _ and -',
              ];
    this.report('error', 'variable-syntax', offset, message, fix);
  }

  /**
   * A namespaced variable that does not read as one and would reach recipients as written: a fallback after its name (an error, as in
   * badVariable), spaces inside its braces, a name with a space, or no closing brace (warnings: it may be meant as text). Returns where reading goes on.
   */
  private looseVariable(offset: number, end: number): number {
    const { source } = this;
    LOOSE_VARIABLE.lastIndex = offset;
    const start = LOOSE_VARIABLE.exec(source);
    if (start === null || LOOSE_VARIABLE.lastIndex > end) return offset;
    const namespace = start[1] as LmxNamespace;
    const meant = `{${namespace}.${start[2]}}`;
    BRACE_REST.lastIndex = LOOSE_VARIABLE.lastIndex;
    const rest = BRACE_REST.exec(source);
    if (rest === null || BRACE_REST.lastIndex > end) {
      this.report(
        'warning',
        'variable-syntax',
        offset,
        `${source.slice(offset, LOOSE_VARIABLE.lastIndex)} is never closed: it is shown as written`,
        `write ${meant}`,
      );
      return LOOSE_VARIABLE.lastIndex - 1;
    }
    const written = source.slice(offset, BRACE_REST.lastIndex);
    const inside = rest[1]!;
    if (FALLBACK.test(inside)) this.report('error', 'variable-syntax', offset, ...fallbackProblem(written, namespace, start[2]!));
    else if (inside.trim() === '')
      this.report('warning', 'variable-syntax', offset, `${written} has spaces inside its braces: it is shown as written`, `write ${meant}`);
    else if (/^(\s+[A-Za-z0-9_-]+)+\s*$/.test(inside)) {
      const joined = `${start[2]}${inside
        .trim()
        .replace(/\s+(.)/g, (_, first: string) => first.toUpperCase())
        .replace(/^./, (first) => first.toUpperCase())}`;
      this.report(
        'warning',
        'variable-syntax',
        offset,
        `${written} is not a variable: a name has no spaces, so it is shown as written`,
        `write the name as it is spelled, such as {${namespace}.${joined}}`,
      );
    } else
      this.report(
        'warning',
        'variable-syntax',
        offset,
        `${written} is not a variable LMX knows: it is shown as written`,
        `write ${meant}; variables are {contact.name}, {event.name} or {data.name}, nothing else in the braces`,
      );
    return BRACE_REST.lastIndex - 1;
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
      const parts = this.decode(index + 1, close, 'attribute');
      return { attribute: { name, value: joinedValue(parts), parts, position }, end: close + 1 };
    }
    let end = index;
    while (end < source.length && !/[\s>]/.test(source[end]!) && !(source[end] === '/' && source[end + 1] === '>')) end += 1;
    const written = source.slice(index, end);
    this.report('error', 'attribute-syntax', start, `the value of ${name} is not quoted`, `write ${name}="${written}"`);
    const parts = this.decode(index, end, 'attribute');
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

/** The problem of a variable written with an inline fallback, which LMX does not have: the message and the fix. */
function fallbackProblem(written: string, namespace: LmxNamespace, name: string): [message: string, fix: string] {
  return [`${written}: LMX has no inline fallback`, `write {${namespace}.${name}} and set its fallback on the email message (${FALLBACK_FIELDS[namespace]})`];
}

/** C0 controls but tab and line ends, DEL and C1: what a terminal acts on (escape sequences, a bell). */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);
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
