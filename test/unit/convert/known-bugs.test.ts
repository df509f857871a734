/**
 * Bugs convert once had, or that a change of one line would bring back, each held by a test named
 * for it: MJML's elements and defaults, the bound on what includes bring in, what fidelity and
 * contrast must list, colours with an opacity in percent, and a button HTML marks by its class.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, keepContrast, rememberLook } from '../../../src/convert/contrast.js';
import { measureFidelity } from '../../../src/convert/fidelity.js';
import { element, Findings, text } from '../../../src/convert/model.js';
import { MAX_INCLUDED_CHARACTERS, readMjml } from '../../../src/convert/sources/mjml-source.js';
import { hexColour } from '../../../src/convert/styles.js';
import { fromHtml, fromMjml } from './layout-support.js';

const MJML = (body: string, head = '') => `<mjml>${head === '' ? '' : `<mj-head>${head}</mj-head>`}<mj-body>${body}</mj-body></mjml>`;
const COLUMN = (content: string) => `<mj-section><mj-column>${content}</mj-column></mj-section>`;

describe('MJML', () => {
  it('bug: <mj-hero> refused: a hero converts, its text and button kept', () => {
    const { lmx } = fromMjml(
      MJML(
        '<mj-hero background-color="#222222" padding="40px"><mj-text color="#ffffff">Big spring sale</mj-text><mj-button href="https://acme.example/sale">Shop</mj-button></mj-hero>',
      ),
    );
    expect(lmx).toMatch(/^<Style bodyColor="#222222" textBaseColor="#ffffff"/);
    expect(lmx).toMatch(/<Paragraph [^>]*>Big spring sale<\/Paragraph>/);
    expect(lmx).toMatch(/<Button href="https:\/\/acme.example\/sale"[^>]*>Shop<\/Button>/);
  });

  it('bug: include sizes not summed: partials under the bound each, over it together, are refused at the include', () => {
    const part = `<mj-raw>${'x'.repeat(Math.ceil(MAX_INCLUDED_CHARACTERS / 3) + 1)}</mj-raw>`;
    const source = MJML(['a', 'b', 'c'].map((name) => `<mj-include path="${name}.mjml" />`).join('\n'));
    const read = () => readMjml(source, 'email.mjml', new Findings(), { readInclude: (path) => ({ file: path, source: part }) });
    expect(read).toThrow(expect.objectContaining({ message: 'email.mjml:3:1: <mj-include> brings in more than 4 MB of MJML for one email' }));
  });

  it('bug: <mj-all> overriding a tag’s own defaults: <mj-attributes>’ <mj-text> wins over <mj-all>', () => {
    const { lmx } = fromMjml(
      MJML(
        COLUMN('<mj-text>Padded by its own default</mj-text><mj-image src="https://acme.example/a.png" />'),
        '<mj-attributes><mj-all padding="0px" /><mj-text padding="0 40px" /></mj-attributes>',
      ),
    );
    expect(lmx).toMatch(/<Paragraph paddingLeft="40" paddingRight="40">Padded by its own default<\/Paragraph>/);
    expect(lmx).toMatch(/<Image src="https:\/\/acme.example\/a.png" width="600" align="center" \/>/);
  });

  it('bug: <mj-style> CSS not listed: its rules are listed, at its place', () => {
    const { findings } = fromMjml(MJML(COLUMN('<mj-text css-class="big">Hi</mj-text>'), '<mj-style inline="inline">.big { font-size: 40px; }</mj-style>'));
    expect(findings.remediation.map((item) => `${item.line}:${item.column} ${item.construct} (${item.outcome})`)).toContain(
      '1:16 custom CSS (<mj-style>) (approximated)',
    );
  });

  it('bug: container-background-color lost: the element’s cell colour is its block colour', () => {
    const white = 'On white, where most of the words of this email stand, as in most emails.';
    const { lmx } = fromMjml(MJML(COLUMN(`<mj-text container-background-color="#eeeeee">On grey</mj-text><mj-text>${white}</mj-text>`)));
    expect(lmx).toMatch(/<Section blockColor="#eeeeee"[^>]*>\s*<Paragraph[^>]*>On grey<\/Paragraph>\s*<\/Section>/);
    expect(lmx).toMatch(new RegExp(`<Paragraph [^>]*>${white}</Paragraph>`));
    expect(lmx).not.toMatch(/blockColor="#eeeeee"[^>]*>On white/);
  });

  it('bug: a button’s container-background-color lost: its cell is a section of that colour, the button inside', () => {
    const white = 'On white, where most of the words of this email stand, as in most emails.';
    const { lmx } = fromMjml(
      MJML(COLUMN(`<mj-text>${white}</mj-text><mj-button container-background-color="#eeeeee" href="https://acme.example/go">Go</mj-button>`)),
    );
    expect(lmx).toMatch(/<Section blockColor="#eeeeee"[^>]*>\s*<Button href="https:\/\/acme.example\/go" bgColor="#414141"[^>]*>Go<\/Button>\s*<\/Section>/);
  });

  it('bug: the spacer’s and the image’s MJML defaults lost: a bare spacer is 20 px, a bare image centred', () => {
    const spaced = fromMjml(MJML(COLUMN('<mj-text padding="0">One</mj-text><mj-spacer /><mj-text padding="0">Two</mj-text>'))).lmx;
    const bare = fromMjml(MJML(COLUMN('<mj-text padding="0">One</mj-text><mj-text padding="0">Two</mj-text>'))).lmx;
    // 20 px of spacer on top of the 16 px LMX leaves between blocks, less those 16.
    expect(spaced).toContain('<Paragraph paddingTop="4" paddingBottom="20">Two</Paragraph>');
    expect(bare).toContain('<Paragraph paddingBottom="20">Two</Paragraph>');
    expect(fromMjml(MJML(COLUMN('<mj-image src="https://acme.example/a.png" width="100px" />'))).lmx).toMatch(/<Image [^>]*align="center"/);
  });
});

describe('fidelity and contrast', () => {
  it('bug: an entry at an element hiding its lost words: only a drop names them, not any entry there', () => {
    const at = (line: number) => ({ file: 'email.html', line, column: 1 });
    const findings = new Findings();
    // An entry about the paragraph's size says nothing of its words.
    findings.add(at(2), 'fontSize 70', 'approximated', 'set to 64', 'check it');
    const body = element('body', at(1), [element('p', at(2), [text('Welcome aboard, friend', at(2))])]);
    const fidelity = measureFidelity({ body }, '<Paragraph>Welcome</Paragraph>\n', findings);
    expect(fidelity.words).toEqual({ source: 3, kept: 1 });
    expect(findings.remediation.map((item) => `${item.construct} (${item.outcome})`)).toContain('the text "aboard friend" (not carried)');
  });

  it('bug: alpha in percent read as opaque: rgba(0, 0, 0, 50%) is half black on white', () => {
    expect(hexColour('rgba(0, 0, 0, 50%)')).toBe('#808080');
    expect(hexColour('rgb(0 0 0 / 25%)')).toBe('#bfbfbf');
  });

  it('bug: a 0.5:1 contrast drop neither fixed nor listed: text that lost a little of its contrast gets its colour back', () => {
    const findings = new Findings();
    const made = { tag: 'Paragraph', attrs: {}, inline: [{ text: 'Small print' }] };
    // #767676 on white (4.54:1) drawn in the base #7a7a7a (4.29:1): a quarter of a point less readable, under AA's 4.5.
    rememberLook(made, '#767676', '#ffffff', { file: 'email.html', line: 4, column: 2 });
    const drop = contrastRatio('#767676', '#ffffff') - contrastRatio('#7a7a7a', '#ffffff');
    expect(drop).toBeGreaterThan(0.2);
    expect(drop).toBeLessThan(0.5);
    keepContrast([made], { textBaseColor: '#7a7a7a', bodyColor: '#ffffff' }, findings);
    expect(made.inline).toEqual([{ tag: 'Text', attrs: { textColor: '#767676' }, children: [{ text: 'Small print' }] }]);
  });
});

describe('HTML', () => {
  it('bug: a cta cell not taken for a button: a link alone in a cell of class cta is a <Button>', () => {
    const { lmx } = fromHtml(
      '<!doctype html><html><head><title>Go</title></head><body><table><tr><td class="cta" style="background-color:#0055ff;border-radius:4px"><a href="https://acme.example/go" style="color:#ffffff">Start now</a></td></tr></table></body></html>',
    );
    expect(lmx).toMatch(/<Button href="https:\/\/acme.example\/go" bgColor="#0055ff" textColor="#ffffff"[^>]*>Start now<\/Button>/);
  });

  it('bug: a cta link not taken for a button: a link of class cta alone in its box is a <Button>, one in a sentence a link', () => {
    const page = (body: string) => `<!doctype html><html><head><title>Go</title></head><body><p>Hello there.</p>${body}</body></html>`;
    expect(fromHtml(page('<div><a class="cta" href="https://acme.example/go">Start now</a></div>')).lmx).toContain(
      '<Button href="https://acme.example/go">Start now</Button>',
    );
    expect(fromHtml(page('<p>Hello <a class="cta" href="https://acme.example/go">Start now</a> there</p>')).lmx).toContain(
      '<Paragraph>Hello <Link href="https://acme.example/go">Start now</Link> there</Paragraph>',
    );
  });
});
