/** What the parser and the validator report: one problem per finding, where it is and what to write instead. */

/** The rules, each with what it holds a document to. */
export const LMX_RULES = {
  'not-utf8': 'an LMX file is UTF-8 text',
  'too-large': 'the API takes at most 100 KB of LMX',
  'too-deep': 'tags nest at most 100 deep',
  'malformed-tag': 'a tag is `<Name attribute="value">`, `</Name>` or `<Name ... />`',
  'not-lmx': 'no XML declarations, doctypes or CDATA sections',
  comment: 'comments are not part of LMX',
  'unclosed-tag': 'every opened tag is closed, innermost first',
  'stray-close': 'a closing tag closes the tag opened before it',
  'self-closing': 'tags that never have content are written `<Tag ... />`',
  'attribute-syntax': 'attribute values are quoted strings: name="value"',
  'duplicate-attribute': 'an attribute is given once per tag',
  'unescaped-lt': '`<` in text or a value is written `&lt;`',
  'unescaped-amp': '`&` in text or a value is written `&amp;`',
  'unknown-entity': 'only &lt; &gt; &amp; &quot; &apos; and numeric character references',
  'control-character': 'no control characters (escape sequences, a bell) in text or values: they do nothing in an email',
  'unknown-tag': 'only the documented PascalCase tags',
  placement: 'each tag stands only where the specification allows it',
  'text-placement': 'text stands only inside a block such as <Paragraph>',
  'child-count': 'lists need a <ListItem>, <Columns> 2 to 4 <ColumnItem>s, <Icons> 1 to 100 <Icon />s',
  'required-attribute': 'required attributes are present and not empty',
  'unknown-attribute': 'attributes the tag does not document have no effect',
  'attribute-value': 'attribute values have the documented type, range or enum',
  'one-style': 'a document has at most one <Style />',
  'style-first': 'the <Style /> tag comes first',
  'variable-syntax': 'variables are written {contact.name}, {event.name} or {data.name}',
  'variable-placement': 'variables stand in inline or button text and in the attributes that take them',
  'variable-namespace': 'each kind of email takes its own namespaces',
  'button-href': 'a button has an href: without one it goes nowhere',
  'icon-name': 'an icon is named by its Font Awesome name',
  'unknown-component': 'a <Component> names a component of the account',
  'gmail-clip': "the rendered HTML stays under Gmail's 102 KB, past which it clips the email",
} as const;

export type LmxRule = keyof typeof LMX_RULES;
export type LmxSeverity = 'error' | 'warning';

export interface LmxProblem {
  severity: LmxSeverity;
  rule: LmxRule;
  message: string;
  /** What to write instead. */
  fix: string;
  /** 1-based; the column counts UTF-16 code units from the start of the line. */
  line: number;
  column: number;
  /** 0-based index into the source. */
  offset: number;
}

/** 1-based line and column of an offset, and the offset itself. */
export interface LmxPosition {
  line: number;
  column: number;
  offset: number;
}

/** Line and column of offsets, in time proportional to the lines crossed since the last one asked. */
export class LineIndex {
  private readonly starts: number[] = [0];
  private last = 0;

  constructor(source: string) {
    for (let index = source.indexOf('\n'); index >= 0; index = source.indexOf('\n', index + 1)) this.starts.push(index + 1);
  }

  at(offset: number): LmxPosition {
    const starts = this.starts;
    let line = this.last;
    if (starts[line]! > offset) {
      // Asked backwards: a binary search, rare (an unclosed tag reported at its start).
      let low = 0;
      let high = line;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle]! <= offset) low = middle;
        else high = middle - 1;
      }
      line = low;
    } else while (line + 1 < starts.length && starts[line + 1]! <= offset) line += 1;
    this.last = line;
    return { line: line + 1, column: offset - starts[line]! + 1, offset };
  }
}

/** Problems in the order they stand in the source; the same place keeps the order found. */
export function inSourceOrder(problems: LmxProblem[]): LmxProblem[] {
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => a.problem.offset - b.problem.offset || a.index - b.index)
    .map(({ problem }) => problem);
}

/**
 * Whether a problem refuses a body: `content check` fails on it, and the sandbox answers an email
 * message's update with 422 naming it. Every error, the variables its kind cannot use included: the
 * specification's namespace rules ("Transactional emails support `{data.*}` only") are errors of
 * the body like any other, and one verdict on a body holds on both sides.
 */
export function refusesBody(problem: LmxProblem): boolean {
  return problem.severity === 'error';
}
