import { describe, expect, it } from 'vitest';
import { checkLmx, decodeLmx, LMX_RULES, type LmxRule } from '../../../src/lmx/index.js';
import { CORPUS, corpusCases, KNOWN_COMPONENT } from '../../support/lmx-corpus.js';

const componentIds = new Set([KNOWN_COMPONENT]);

describe('the LMX corpus, through the validator', () => {
  it.each(corpusCases().map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const { problems } = checkLmx(entry.lmx, { kind: entry.kind ?? 'campaign', componentIds });
    const found = (severity: string) => problems.filter((problem) => problem.severity === severity).map((problem) => problem.rule);
    expect({ errors: found('error'), warnings: found('warning') }).toEqual({ errors: entry.errors ?? [], warnings: entry.warnings ?? [] });
    if (!entry.valid) expect(problems.map((problem) => problem.rule)).toContain(entry.rule);
    for (const problem of problems) {
      expect(problem.line).toBeGreaterThanOrEqual(1);
      expect(problem.column).toBeGreaterThanOrEqual(1);
      expect(problem.fix).not.toBe('');
    }
  });

  it('holds every rule both ways; only not-utf8, a matter of bytes, and gmail-clip, of the rendered HTML, are left to content check', () => {
    const covered = new Set(CORPUS.filter((rule) => rule.valid.length > 0 && rule.invalid.length > 0).map((rule) => rule.rule));
    expect(Object.keys(LMX_RULES).filter((rule) => !covered.has(rule as LmxRule))).toEqual(['not-utf8', 'gmail-clip']);
  });
});

/** The fix of each problem found, in order. */
const fixes = (lmx: string) => checkLmx(lmx).problems.map((problem) => problem.fix);

describe('checkLmx', () => {
  it('points at the problem, and says what to write instead', () => {
    const { problems } = checkLmx('<H1>Hi</H1>\n<Paragraph>\n  Thanks, {firstName}.\n  <Image src="{contact.avatar}" />\n</Paragraph>\ntrailing', {
      kind: 'campaign',
    });
    expect(problems.map(({ line, column, rule, fix }) => ({ line, column, rule, fix }))).toEqual([
      { line: 3, column: 11, rule: 'variable-syntax', fix: expect.stringContaining('write {contact.firstName}') },
      { line: 4, column: 3, rule: 'placement', fix: 'close the <Paragraph> before it: blocks do not stand in text' },
      { line: 4, column: 10, rule: 'variable-placement', fix: 'keep src a fixed URL (a placeholder) and put the dynamic one in dynamicSrc="{contact.avatar}"' },
      { line: 6, column: 1, rule: 'text-placement', fix: 'wrap it in a block such as <Paragraph>...</Paragraph>' },
    ]);
  });

  it('leaves namespaces unchecked without a kind, and components unchecked without their ids', () => {
    expect(checkLmx('<Paragraph>{data.x} {event.y}</Paragraph><Component componentId="anything" />').problems).toEqual([]);
  });

  it('suggests the tag meant, an even split of widths, and the attribute as cased', () => {
    expect(fixes('<Bold>x</Bold>')).toEqual(['write <Strong>']);
    expect(fixes('<paragraph>x</paragraph>')).toEqual(['write <Paragraph>: tags are case-sensitive']);
    expect(fixes('<Columns widths="50,50"><ColumnItem /><ColumnItem /><ColumnItem /></Columns>')).toEqual([
      'give one percentage per column, such as widths="34,33,33"',
    ]);
    expect(fixes('<Button href="https://acme.example" TextColor="#fff">x</Button>')).toEqual(['write textColor: attribute names are case-sensitive']);
    expect(fixes('<Icons><Icon name="fa-GitHub" /></Icons>')).toEqual(['write the bare name in lowercase with dashes: name="github"']);
    expect(fixes('<OrderedList start="third"><ListItem>x</ListItem></OrderedList>')).toEqual(['write a number, such as "0"']);
    expect(fixes('<Paragraph paddingTop="-4">x</Paragraph>')).toEqual(['write a number of 0 or more (pixels), such as "0"']);
  });

  it('suggests wrapping a tag in a list item, column or icon only where that child may hold it', () => {
    expect(fixes('<UnorderedList><ListItem>x</ListItem><Strong>b</Strong></UnorderedList>')).toEqual(['wrap it in a <ListItem>']);
    expect(fixes('<Columns><ColumnItem /><ColumnItem /><Paragraph>x</Paragraph></Columns>')).toEqual(['wrap it in a <ColumnItem>']);
    expect(fixes('<OrderedList><ListItem>x</ListItem><Image src="https://acme.example/a.png" /></OrderedList>')).toEqual([
      'close the <OrderedList> before it: it holds only <ListItem> tags',
    ]);
    expect(fixes('<UnorderedList><ListItem>x</ListItem><UnorderedList><ListItem>y</ListItem></UnorderedList></UnorderedList>')).toEqual([
      'close the <UnorderedList> before it: it holds only <ListItem> tags',
    ]);
    expect(fixes('<Icons><Icon name="github" /><Paragraph>x</Paragraph></Icons>')).toEqual(['close the <Icons> before it: it holds only <Icon> tags']);
    expect(fixes('<Icons><Icon name="github" /><Strong>x</Strong></Icons>')).toEqual(['close the <Icons> before it: it holds only <Icon> tags']);
  });

  it('reports a link that starts with a variable written wrongly as that variable, not as a relative URL', () => {
    const { problems } = checkLmx('<Button href="{DATA_VARIABLE:resetLink}">Reset</Button>\n<Paragraph><Link href="{firstName}">x</Link></Paragraph>', {
      kind: 'transactional',
    });
    expect(problems.map((problem) => problem.rule)).toEqual(['variable-syntax', 'variable-syntax']);
    // Braces that read as no variable at all leave a URL to check.
    expect(checkLmx('<Button href="{ }">x</Button>').problems.map((problem) => problem.rule)).toEqual(['attribute-value']);
  });

  it('checks 100 KB in one linear pass: a hundred times the input is about a hundred times the work', () => {
    // Not a timing: counts what grows with the input, the problems, on inputs built to be worst cases.
    const braces = checkLmx(`<Paragraph>${'{a'.repeat(40_000)}</Paragraph>`).problems;
    expect(braces).toEqual([]);
    // Each unclosed variable looks for its closing brace only as far as the next brace.
    const unclosed = checkLmx(`<Paragraph>${'{data.a '.repeat(12_000)}</Paragraph>`).problems;
    expect(unclosed).toHaveLength(12_000);
    const amps = checkLmx(`<Paragraph>${'&a'.repeat(40_000)}</Paragraph>`).problems;
    expect(amps).toHaveLength(40_000);
    expect(amps.at(-1)).toMatchObject({ line: 1, column: 11 + 2 * 40_000 - 1 });
  });
});

describe('decodeLmx', () => {
  it('reads UTF-8, and names the first byte of another encoding by line and column', () => {
    expect(decodeLmx(Buffer.from('<Paragraph>Café</Paragraph>'))).toEqual({ source: '<Paragraph>Café</Paragraph>' });
    const latin1 = Buffer.concat([Buffer.from('<H1>a</H1>\n<Paragraph>Caf'), Buffer.from([0xe9, 0x20]), Buffer.from('</Paragraph>')]);
    expect(decodeLmx(latin1)).toEqual({
      problem: expect.objectContaining({ rule: 'not-utf8', line: 2, column: 15, message: 'byte 26 (0xe9) is not UTF-8: the file is in another encoding' }),
    });
    expect(decodeLmx(Buffer.from([0x3c, 0xed, 0xa0, 0x80]))).toEqual({ problem: expect.objectContaining({ rule: 'not-utf8', column: 2 }) });
    expect(decodeLmx(Buffer.alloc(200 * 1024, 0x61))).toEqual({
      problem: expect.objectContaining({ rule: 'too-large', message: expect.stringContaining('204800 bytes') }),
    });
  });
});
