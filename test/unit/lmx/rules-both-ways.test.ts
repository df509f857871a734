/**
 * Rules held both ways, each with the value just inside and just outside it: a pattern that loses
 * its start or end anchor, a scheme list that takes one more, a limit counted in characters
 * instead of bytes, all make a row here fail.
 */
import { describe, expect, it } from 'vitest';
import { checkLmx, LMX_MAX_BYTES, type LmxKind, parseLmx, utf8Length } from '../../../src/lmx/index.js';
import { renderLmx } from '../../../src/lmx/render/index.js';
import { emailStyles, safeColour } from '../../../src/lmx/theme.js';

/** The rules a document breaks, as `severity rule`. */
const broken = (lmx: string, kind: LmxKind = 'transactional') => checkLmx(lmx, { kind }).problems.map((problem) => `${problem.severity} ${problem.rule}`);

describe("the theme's colour and font patterns", () => {
  it('take a hex colour, and nothing before or after one', () => {
    for (const colour of ['#fff', '#FFFFFF', '#0057ffcc', ' #abc ']) expect(safeColour(colour), colour).toBe(colour.trim().toLowerCase());
    for (const colour of ['#fff;background:url(https://evil.example/x)', 'red;background:url(x);color:#fff', '#fff #000', 'x#fff', '#ffff;'])
      expect(safeColour(colour), colour).toBeUndefined();
  });

  it('take a font name, and nothing before or after one', () => {
    const family = (bodyFontFamily: string) => emailStyles({ bodyFontFamily }, undefined);
    expect(family('Inter').styles.fontFamily).toBe('Inter, sans-serif');
    expect(family('Open Sans').styles.fontFamily).toBe("'Open Sans', sans-serif");
    // The default theme's family, which a value that is no font name leaves in place.
    const fallback = emailStyles({}, undefined).styles.fontFamily;
    expect(fallback).toMatch(/^Helvetica, .*sans-serif$/);
    for (const hostile of ['Inter;background:url(https://evil.example/x)', '};body{background:url(x)} Inter', 'x:url(y);Inter', 'Inter}']) {
      const { styles, dropped } = family(hostile);
      expect(styles.fontFamily, hostile).toBe(fallback);
      expect(dropped, hostile).toEqual([{ where: 'theme style bodyFontFamily', value: hostile, reason: 'not a font name' }]);
    }
  });

  it('never let such a value reach the page', () => {
    const theme = { buttonBodyColor: '#fff;background:url(https://evil.example/b)', bodyFontFamily: 'Inter;background:url(https://evil.example/f)' };
    const { html } = renderLmx(parseLmx('<Button href="https://acme.example">Go</Button>').document, { theme });
    expect(html).not.toContain('evil.example');
  });
});

describe("the validator's rules, both ways", () => {
  it('widths: percentages separated by commas, nothing else', () => {
    const columns = (widths: string) => `<Columns widths="${widths}"><ColumnItem /><ColumnItem /></Columns>`;
    expect(broken(columns('40,60'))).toEqual([]);
    expect(broken(columns(' 40.5 , 59.5 '))).toEqual([]);
    for (const widths of ['40,60%', '40%,60', 'x40,60', '40,,60', '40;60']) expect(broken(columns(widths)), widths).toEqual(['error attribute-value']);
  });

  it('an image address: http(s) only, where a link may also be mailto:', () => {
    expect(broken('<Image src="https://cdn.acme.example/a.png" href="mailto:help@acme.example" />')).toEqual([]);
    expect(broken('<Button href="mailto:help@acme.example">Mail us</Button>')).toEqual([]);
    for (const src of ['mailto:help@acme.example', 'tel:+15550100', 'javascript:alert(1)'])
      expect(broken(`<Image src="${src}" />`), src).toEqual(['error attribute-value']);
    expect(broken('<Image src="https://cdn.acme.example/a.png" dynamicSrc="mailto:{data.x}" />')).toEqual(['error attribute-value']);
  });

  it('a button href: empty is an error, a variable is filled at send time', () => {
    expect(broken('<Button href="{data.link}">Go</Button>')).toEqual([]);
    expect(broken('<Button href=" {data.link}">Go</Button>')).toEqual([]);
    for (const href of ['', '   ']) {
      const { problems } = checkLmx(`<Button href="${href}">Go</Button>`);
      expect(problems.map((problem) => [problem.severity, problem.rule, problem.message])).toEqual([
        ['error', 'attribute-value', `href="${href}" on <Button>: empty`],
      ]);
    }
  });

  it('an icon name: lowercase words and dashes, nothing before or after', () => {
    expect(broken('<Icons><Icon name="github" /><Icon name="x-twitter" /></Icons>')).toEqual([]);
    for (const name of ['github!', '!github', 'git hub', 'github-', '-github']) {
      const { problems } = checkLmx(`<Icons><Icon name="${name}" /></Icons>`);
      expect(
        problems.map((problem) => `${problem.severity} ${problem.rule}`),
        name,
      ).toEqual(['error icon-name']);
    }
    expect(checkLmx('<Icons><Icon name="github!" /></Icons>').problems[0]!.fix).toBe('write the bare name in lowercase with dashes: name="github"');
  });
});

describe('the 100 KB limit, in bytes', () => {
  it('counts UTF-8 bytes: one for ASCII, two for é, three for €, four for an emoji written as two UTF-16 units', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('\u007f')).toBe(1);
    expect(utf8Length('\u0080')).toBe(2);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('\u07ff')).toBe(2);
    expect(utf8Length('\u0800')).toBe(3);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('a é € 😀')).toBe(Buffer.byteLength('a é € 😀'));
    // A lone surrogate is written as U+FFFD's three bytes.
    expect(utf8Length('\ud800')).toBe(3);
    expect(utf8Length('\ud800a')).toBe(4);
  });

  it.each([
    ['é', 2],
    ['€', 3],
    ['😀', 4],
  ])('takes %s text up to exactly 100 KB, and refuses one byte more', (character, bytes) => {
    const frame = '<Paragraph></Paragraph>';
    const room = LMX_MAX_BYTES - frame.length;
    const text = character.repeat(Math.floor(room / bytes)) + 'a'.repeat(room % bytes);
    const atLimit = `<Paragraph>${text}</Paragraph>`;
    expect(Buffer.byteLength(atLimit)).toBe(LMX_MAX_BYTES);
    // Fewer characters than bytes: a limit counted in characters would take far more.
    expect(atLimit.length).toBeLessThan(LMX_MAX_BYTES * 0.6);
    expect(broken(atLimit)).toEqual([]);
    const over = `<Paragraph>${text}a</Paragraph>`;
    const { problems } = checkLmx(over);
    expect(problems.map((problem) => [problem.rule, problem.message])).toEqual([
      ['too-large', `${LMX_MAX_BYTES + 1} bytes of LMX; the API takes at most ${LMX_MAX_BYTES} (100 KB) and refuses more`],
    ]);
  });
});
