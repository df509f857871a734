/**
 * LMX's text and variable reader: a stretch of source as text and variables, character references
 * decoded and the entity tables they are read against, what looks like a variable but is not one
 * reported. The parser (parse.ts) hands it each stretch between tags and each attribute value.
 */
import { FALLBACK_FIELDS } from '../platform/email-messages/fallbacks.js';
import type { LmxText, LmxVariable } from './nodes.js';
import type { LmxPosition, LmxRule, LmxSeverity } from './problems.js';
import type { LmxNamespace } from './tags.js';

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

/** How a stretch of source is read: text in content (raw keeps braces), or an attribute's value. */
export type Mode = 'text' | 'raw' | 'attribute';

/** Where a problem goes: the parser's own list, with the position of its offset. */
type Report = (severity: LmxSeverity, rule: LmxRule, offset: number, message: string, fix: string) => void;

export class TextReader {
  constructor(
    private readonly source: string,
    private readonly at: (offset: number) => LmxPosition,
    private readonly report: Report,
  ) {}

  /** Source as text and variables: references decoded, an unescaped `&` (and `<` in values) reported, braces read as variables unless raw. */
  decode(start: number, end: number, mode: Mode): (LmxText | LmxVariable)[] {
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
}

/** The problem of a variable written with an inline fallback, which LMX does not have: the message and the fix. */
function fallbackProblem(written: string, namespace: LmxNamespace, name: string): [message: string, fix: string] {
  return [`${written}: LMX has no inline fallback`, `write {${namespace}.${name}} and set its fallback on the email message (${FALLBACK_FIELDS[namespace]})`];
}

/** C0 controls but tab and line ends, DEL and C1: what a terminal acts on (escape sequences, a bell). */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);
}
