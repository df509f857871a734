import { describe, expect, it } from 'vitest';
import { type LmxElement, type LmxNode, MAX_LMX_DEPTH, parseLmx } from '../../../src/lmx/index.js';

const rules = (source: string) => parseLmx(source).problems.map((problem) => problem.rule);
const element = (node: LmxNode | undefined): LmxElement => {
  expect(node?.kind).toBe('element');
  return node as LmxElement;
};

describe('parseLmx', () => {
  it('reads elements, attributes, text and variables with 1-based lines and columns', () => {
    const { document, problems } = parseLmx('<Style themeId="st_1" />\n<Paragraph align="center">Hi {contact.firstName}, <Strong>you</Strong>!</Paragraph>\n');
    expect(problems).toEqual([]);
    const [style, paragraph] = document.children.map(element);
    expect(style).toMatchObject({
      name: 'Style',
      selfClosing: true,
      position: { line: 1, column: 1, offset: 0 },
      attributes: [{ name: 'themeId', value: 'st_1', position: { line: 1, column: 8 } }],
    });
    expect(paragraph!.position).toEqual({ line: 2, column: 1, offset: 25 });
    expect(paragraph!.end.line).toBe(2);
    expect(paragraph!.children).toMatchObject([
      { kind: 'text', value: 'Hi ', position: { line: 2, column: 27 } },
      { kind: 'variable', namespace: 'contact', name: 'firstName', source: '{contact.firstName}', position: { line: 2, column: 30 } },
      { kind: 'text', value: ', ' },
      { kind: 'element', name: 'Strong', children: [{ kind: 'text', value: 'you' }] },
      { kind: 'text', value: '!' },
    ]);
  });

  it('decodes character references in text and values, and splits values into text and variables', () => {
    const { document, problems } = parseLmx(
      '<Paragraph>a &lt; b &amp;&amp; &#233;&#x1F600; &quot;&apos;&gt;</Paragraph><Button href="https://x.com/?a=1&amp;u={data.id}">Go</Button>',
    );
    expect(problems).toEqual([]);
    const [paragraph, button] = document.children.map(element);
    expect(paragraph!.children).toMatchObject([{ kind: 'text', value: 'a < b && é😀 "\'>' }]);
    expect(button!.attributes[0]).toMatchObject({
      name: 'href',
      value: 'https://x.com/?a=1&u={data.id}',
      parts: [
        { kind: 'text', value: 'https://x.com/?a=1&u=' },
        { kind: 'variable', namespace: 'data', name: 'id' },
      ],
    });
  });

  it('keeps the braces of raw content, and drops whitespace between blocks only', () => {
    const { document } = parseLmx(
      '\n  <CodeBlock>const a = "{contact.firstName}";</CodeBlock>\n  <Columns>\n <ColumnItem> <Paragraph> a  b </Paragraph> </ColumnItem> <ColumnItem /></Columns>\n',
    );
    const [code, columns] = document.children.map(element);
    expect(document.children).toHaveLength(2);
    expect(code!.children).toEqual([{ kind: 'text', value: 'const a = "{contact.firstName}";', position: { line: 2, column: 14, offset: 14 } }]);
    const [item] = columns!.children.map(element);
    expect(item!.children.map((child) => child.kind)).toEqual(['element']);
    expect(element(item!.children[0]).children).toMatchObject([{ kind: 'text', value: ' a  b ' }]);
  });

  it('reports what is not escaped, and entities LMX does not know', () => {
    expect(rules('<Paragraph>1 < 2</Paragraph>')).toEqual(['unescaped-lt']);
    expect(rules('<Paragraph>Tom & Jerry</Paragraph>')).toEqual(['unescaped-amp']);
    expect(rules('<Paragraph>a&nbsp;b &#0;</Paragraph>')).toEqual(['unknown-entity', 'unknown-entity']);
    expect(rules('<Image src="a<b" />')).toEqual(['unescaped-lt']);
    expect(parseLmx('<Paragraph>&nbsp; &eacute; &foo; &Nbsp;</Paragraph>').problems.map((problem) => problem.message)).toEqual([
      '&nbsp; is an HTML entity, which LMX does not know',
      '&eacute; is an HTML entity, which LMX does not know',
      '&foo; is an unknown entity',
      '&Nbsp; is an unknown entity',
    ]);
    const { document } = parseLmx('<Paragraph>1 < 2 & 3</Paragraph>');
    expect(element(document.children[0]).children).toMatchObject([{ kind: 'text', value: '1 < 2 & 3' }]);
  });

  it('reports variables written as another language would', () => {
    const found = parseLmx('<Paragraph>{firstName} {DATA_VARIABLE:link} {contact.firstName|there} {user.name} { not a variable } {}</Paragraph>').problems;
    expect(found.map((problem) => [problem.rule, problem.fix])).toEqual([
      ['variable-syntax', expect.stringContaining('{contact.firstName}')],
      ['variable-syntax', 'write {data.link}'],
      ['variable-syntax', expect.stringContaining('write {contact.firstName} and set its fallback')],
      ['variable-syntax', expect.stringContaining('{contact.name}, {event.name} or {data.name}')],
    ]);
  });

  it('suggests namespaced variables for a prefixed tag other than DATA_VARIABLE, never a variable that is itself invalid', () => {
    const found = parseLmx('<Paragraph>{EVENT_PROPERTY:planName}</Paragraph>').problems;
    expect(found.map((problem) => [problem.rule, problem.fix])).toEqual([
      ['variable-syntax', 'write {contact.planName} or {event.planName} (campaigns, workflows) or {data.planName} (transactional emails)'],
    ]);
  });

  it('reports text that looks like a variable but would reach recipients as written, and leaves other braces alone', () => {
    const found = (lmx: string) => parseLmx(lmx).problems.map(({ severity, column, message, fix }) => ({ severity, column, message, fix }));
    expect(found('<Paragraph>Hi {contact.firstName ?? "there"}</Paragraph>')).toEqual([
      {
        severity: 'error',
        column: 15,
        message: '{contact.firstName ?? "there"}: LMX has no inline fallback',
        fix: 'write {contact.firstName} and set its fallback on the email message (contactPropertiesFallbacks)',
      },
    ]);
    expect(found('<Paragraph>{ contact.firstName } {contact.firstName } {data.first name} {event.plan, "free"}</Paragraph>')).toEqual([
      {
        severity: 'warning',
        column: 12,
        message: '{ contact.firstName } has spaces inside its braces: it is shown as written',
        fix: 'write {contact.firstName}',
      },
      {
        severity: 'warning',
        column: 34,
        message: '{contact.firstName } has spaces inside its braces: it is shown as written',
        fix: 'write {contact.firstName}',
      },
      {
        severity: 'warning',
        column: 55,
        message: '{data.first name} is not a variable: a name has no spaces, so it is shown as written',
        fix: 'write the name as it is spelled, such as {data.firstName}',
      },
      {
        severity: 'error',
        column: 73,
        message: '{event.plan, "free"}: LMX has no inline fallback',
        fix: 'write {event.plan} and set its fallback on the email message (eventPropertiesFallbacks)',
      },
    ]);
    expect(found('<Paragraph>Hi {contact.firstName</Paragraph>\n<Button href="https://acme.example/{data.id">Go</Button>')).toEqual([
      { severity: 'warning', column: 15, message: '{contact.firstName is never closed: it is shown as written', fix: 'write {contact.firstName}' },
      { severity: 'warning', column: 36, message: '{data.id is never closed: it is shown as written', fix: 'write {data.id}' },
    ]);
    expect(found('<Paragraph>{contact.firstName or "there"}</Paragraph>').map((problem) => [problem.severity, problem.message])).toEqual([
      ['warning', '{contact.firstName or "there"} is not a variable LMX knows: it is shown as written'],
    ]);
    expect(
      found('<Paragraph>{} { "a": 1 } { contact } {contact} {contact.firstName}</Paragraph>\n<CodeBlock>{ contact.firstName ?? "x" } {data.a</CodeBlock>'),
    ).toEqual([expect.objectContaining({ message: '{contact} has no namespace' })]);
  });

  it('reports tags that are not closed, closed twice or closed out of order, and goes on', () => {
    expect(rules('<Paragraph><Strong>a</Paragraph>')).toEqual(['unclosed-tag']);
    expect(rules('<Paragraph>a</Paragraph></Paragraph><H1>b</H1>')).toEqual(['stray-close']);
    const { document, problems } = parseLmx('<Section><Paragraph>a');
    expect(problems.map((problem) => [problem.rule, problem.line, problem.column])).toEqual([
      ['unclosed-tag', 1, 10],
      ['unclosed-tag', 1, 1],
    ]);
    expect(element(element(document.children[0]).children[0]).children).toMatchObject([{ kind: 'text', value: 'a' }]);
  });

  it('takes <Image> written as HTML as self-closing, and reports it', () => {
    const { document, problems } = parseLmx('<Image src="https://x.com/a.png"><Paragraph>after</Paragraph>');
    expect(problems.map((problem) => problem.rule)).toEqual(['self-closing']);
    expect(document.children.map((node) => (node as LmxElement).name)).toEqual(['Image', 'Paragraph']);
    expect(rules('<Br></Br><Divider>\n</Divider>')).toEqual([]);
  });

  it('reports attributes that are not name="value"', () => {
    expect(rules('<Link notrack href="https://x.com">a</Link>')).toEqual(['attribute-syntax']);
    const unquoted = parseLmx('<Image src="https://x.com/a.png" width=400/>');
    expect(unquoted.problems.map((problem) => [problem.rule, problem.fix])).toEqual([['attribute-syntax', 'write width="400"']]);
    expect(element(unquoted.document.children[0]).attributes[1]).toMatchObject({ name: 'width', value: '400' });
    expect(rules('<Divider width="1" width="2" />')).toEqual(['duplicate-attribute']);
    expect(rules("<Divider width='50' />")).toEqual([]);
    expect(rules('<Paragraph align="left>a</Paragraph>')).toEqual(['malformed-tag']);
    expect(rules('<Paragraph ="x">a</Paragraph>')).toEqual(['malformed-tag']);
    expect(rules('<Paragraph')).toEqual(['malformed-tag']);
  });

  it('reports a quote inside a value as a quote to escape, once, and reads on after the tag', () => {
    const { document, problems } = parseLmx('<Image src="https://x.com/a.png" alt="say "hi" now" /><Paragraph>after</Paragraph>');
    expect(problems.map(({ rule, message, fix, column }) => ({ rule, message, fix, column }))).toEqual([
      { rule: 'attribute-syntax', message: 'a " inside the value of alt ends it early', fix: 'write it as &quot;', column: 43 },
    ]);
    expect(document.children.map((node) => (node as LmxElement).name)).toEqual(['Image', 'Paragraph']);
    expect(rules("<Image src='https://x.com/a.png' alt='it's' />")).toEqual(['attribute-syntax']);
    // Two attributes with no space between are read as two, as before.
    expect(rules('<Image src="https://x.com/a.png"alt="a" />')).toEqual([]);
  });

  it('reports XML that is not LMX: declarations, doctypes, CDATA; comments are warnings', () => {
    expect(rules('<?xml version="1.0"?><!DOCTYPE x><![CDATA[a]]>')).toEqual(['not-lmx', 'not-lmx', 'not-lmx']);
    const comment = parseLmx('<!-- note --><Paragraph>a</Paragraph>');
    expect(comment.problems.map((problem) => [problem.rule, problem.severity])).toEqual([['comment', 'warning']]);
    expect(comment.document.children).toHaveLength(1);
  });

  it(`refuses tags nested deeper than ${MAX_LMX_DEPTH} without overflowing the stack, however deep the input`, () => {
    const deep = `${'<Strong>'.repeat(10_000)}x${'</Strong>'.repeat(10_000)}`;
    const { document, problems } = parseLmx(`<Paragraph>${deep}</Paragraph>`);
    expect(problems.map((problem) => problem.rule)).toEqual(['too-deep']);
    let depth = 0;
    for (let node: LmxNode | undefined = document.children[0]; node?.kind === 'element'; node = node.children[0]) depth += 1;
    expect(depth).toBe(MAX_LMX_DEPTH + 1);
  });

  it('counts columns in UTF-16 code units from the start of each line, CRLF or LF', () => {
    const { problems } = parseLmx('<Paragraph>é\r\n😀 & x</Paragraph>');
    expect(problems[0]).toMatchObject({ rule: 'unescaped-amp', line: 2, column: 4 });
  });
});
