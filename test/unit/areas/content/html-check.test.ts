import { describe, expect, it } from 'vitest';
import { checkHtml } from '../../../../src/areas/content/html-check.js';

/** An email that passes every rule: lang and dir on <html> and on its wrapper, a title, layout tables marked, readable text. */
const CLEAN = `<!doctype html>
<html lang="en" dir="ltr">
<head><meta charset="utf-8"><title>Your March invoice</title>
<style>.muted { color: #4b5563; }</style></head>
<body style="background-color:#f3f4f6">
<div lang="en" dir="ltr">
<table role="presentation" width="600"><tr><td style="background-color:#ffffff">
<h1>Your March invoice</h1>
<p>Hi Ada, your invoice for March is ready. It covers the Team plan for 12 seats.</p>
<img src="https://cdn.acme.example/logo.png" alt="Acme" width="120">
<img src="https://cdn.acme.example/divider.png" alt="">
<h2>What changed</h2>
<p class="muted">Two seats were added on March 3. <a href="https://acme.example/billing">See the billing page</a> for details.</p>
<table><caption>Seats</caption><tr><th>Plan</th><th>Seats</th></tr><tr><td>Team</td><td>12</td></tr></table>
<a href="https://acme.example/invoice" style="background-color:#1d4ed8;color:#ffffff;padding:12px 20px">View your March invoice</a>
</td></tr></table>
</div>
</body>
</html>`;

const rules = (html: string) => checkHtml(html, 'email.html').findings.map((found) => found.rule);
const impacts = (html: string) => checkHtml(html, 'email.html').findings.map((found) => [found.rule, found.impact]);

describe('the accessibility rules on an email as HTML', () => {
  it('find nothing in a clean email, and read its text and lang', () => {
    const audit = checkHtml(CLEAN, 'email.html');
    expect(audit.findings).toEqual([]);
    expect(audit.lang).toBe('en');
    expect(audit.text).toMatch(/^Your March invoice Hi Ada, your invoice for March is ready\./);
  });

  it('critical: an image without alt, a linked image with alt="" and nothing else to say', () => {
    expect(impacts(CLEAN.replace(' alt="Acme"', ''))).toEqual([['image-without-alt', 'critical']]);
    const linked = CLEAN.replace(
      '<img src="https://cdn.acme.example/divider.png" alt="">',
      '<a href="https://acme.example"><img src="https://cdn.acme.example/divider.png" alt=""></a>',
    );
    expect(impacts(linked)).toEqual([['image-linked-empty-alt', 'critical']]);
    const said = linked.replace('alt=""></a>', 'alt="Acme’s home page"></a>');
    expect(rules(said)).toEqual([]);
  });

  it('serious: lang and dir on <html> and on the body’s first children', () => {
    const found = checkHtml(CLEAN.replace(' lang="en" dir="ltr">\n<head>', '>\n<head>'), 'email.html').findings;
    expect(found.map((each) => [each.rule, each.impact, each.position?.line])).toEqual([
      ['lang-missing', 'serious', 2],
      ['dir-missing', 'serious', 2],
    ]);
    expect(found[0]!.message).toMatch(/^no lang on <html>: /);
    const wrapper = checkHtml(CLEAN.replace('<div lang="en" dir="ltr">', '<div lang="en">'), 'email.html').findings;
    expect(wrapper.map((each) => [each.rule, each.message.split(':')[0], each.position?.line])).toEqual([
      ['dir-missing', "no dir on the body's first child", 6],
    ]);
  });

  it('name in the fix the language the text is written in, and its direction', () => {
    const bare = (body: string) => `<!doctype html><html><head><title>Reçu</title></head><body><div>${body}</div></body></html>`;
    const french = checkHtml(bare('<p>Votre commande a été expédiée aujourd’hui. Vous la recevrez d’ici trois à cinq jours ouvrés.</p>'), 'email.html');
    expect(french.findings.map((each) => each.fix)).toEqual([
      'write lang="fr" on <html> and on the element that wraps the body\'s content',
      'write dir="ltr" on <html> and on the element that wraps the body\'s content',
    ]);
    const arabic = checkHtml(bare('<p>تم شحن طلبك اليوم. ستصلك الطلبية خلال ثلاثة إلى خمسة أيام عمل. شكرا لتسوقك معنا.</p>'), 'email.html');
    expect(arabic.findings.map((each) => /(lang|dir)="[^"]+"/.exec(each.fix)?.[0])).toEqual(['lang="ar"', 'dir="rtl"']);
  });

  it('say how many of the body’s first children lack it', () => {
    const two = CLEAN.replace('</div>\n</body>', '</div><div lang="en">Acme, 1 Main Street</div><div>Unsubscribe</div>\n</body>');
    expect(checkHtml(two, 'email.html').findings.map((each) => each.message.split(':')[0])).toEqual([
      "no lang on 1 of the body's 3 first children",
      "no dir on 2 of the body's 3 first children",
    ]);
  });

  it('serious: a layout table without role="presentation"; a table of data (<th>, <caption>) needs none', () => {
    expect(impacts(CLEAN.replace('<table role="presentation" width="600">', '<table width="600">'))).toEqual([['layout-table-role', 'serious']]);
    expect(rules(CLEAN.replace('<caption>Seats</caption>', ''))).toEqual([]);
  });

  it('serious: a link or button with no text a screen reader can say; an aria-label says it', () => {
    const empty = CLEAN.replace('View your March invoice</a>', '</a>');
    expect(impacts(empty)).toEqual([['link-without-text', 'serious']]);
    expect(
      rules(empty.replace('<a href="https://acme.example/invoice"', '<a aria-label="View your March invoice" href="https://acme.example/invoice"')),
    ).toEqual([]);
    expect(rules(CLEAN.replace('</div>\n</body>', '<button type="button"></button></div>\n</body>'))).toEqual(['link-without-text']);
  });

  it('serious: no <title>, an empty one, or a template’s placeholder', () => {
    expect(impacts(CLEAN.replace('<title>Your March invoice</title>', ''))).toEqual([['title-missing', 'serious']]);
    expect(rules(CLEAN.replace('<title>Your March invoice</title>', '<title> </title>'))).toEqual(['title-missing']);
    // A template's placeholder is not the email's own title.
    const placeholder = checkHtml(CLEAN.replace('<title>Your March invoice</title>', '<title>Untitled document</title>'), 'email.html').findings;
    expect(placeholder.map((each) => [each.rule, each.message.split(':')[0]])).toEqual([
      ['title-missing', 'the <title> "Untitled document" is a template\'s, not the email\'s own'],
    ]);
  });

  it('serious: text under 4.5:1 (3:1 large) in the colour the cascade gives it, on what is behind it', () => {
    // The stylesheet's .muted grey, lightened: #9ca3af on white is 2.54:1.
    const pale = checkHtml(CLEAN.replace('color: #4b5563', 'color: #9ca3af'), 'email.html').findings;
    expect(pale.map((each) => [each.rule, each.impact])).toEqual([['low-contrast', 'serious']]);
    expect(pale[0]!.message).toBe('text in #9ca3af on #ffffff: contrast 2.54:1, under the 4.5:1 WCAG 2.1 asks of body text');
    // The button's white label on a pale fill; the heading is large: #949494 passes at 32 px, not at 16.
    expect(rules(CLEAN.replace('background-color:#1d4ed8', 'background-color:#93c5fd'))).toEqual(['low-contrast']);
    expect(rules(CLEAN.replace('<h1>', '<h1 style="color:#949494">'))).toEqual([]);
    expect(rules(CLEAN.replace('<p>Hi Ada', '<p style="color:#949494">Hi Ada'))).toEqual(['low-contrast']);
    // Hidden text (a preheader) is not drawn, and not judged.
    expect(rules(CLEAN.replace('<div lang', '<div style="display:none;color:#ffffff">Preview</div><div lang'))).toEqual([]);
  });

  it('serious: a link judged in the colour its words are drawn in, on the dark band it stands on', () => {
    const footer = (link: string) =>
      CLEAN.replace(
        '</td></tr></table>\n</div>',
        `</td></tr><tr><td style="background-color:#1f2937;color:#9ca3af"><p>Acme Inc · ${link}</p></td></tr></table>\n</div>`,
      );
    // The body's link colour on the dark band: 2.84:1.
    const blue = checkHtml(footer('<a href="https://acme.example/p" style="color:#2563eb">Email preferences</a>'), 'email.html').findings;
    expect(blue.map((each) => each.message.split(':')[0])).toEqual(['link text in #2563eb on #1f2937']);
    // As the LMX renderer draws <Link><Text textColor="#ffffff">: the link's colour holds no words, the white does.
    expect(rules(footer('<a href="https://acme.example/p" style="color:#2563eb"><span style="color:#ffffff">Email preferences</span></a>'))).toEqual([]);
    // A link of no colour is a browser's blue, unreadable there.
    expect(rules(footer('<a href="https://acme.example/p">Email preferences</a>'))).toEqual(['low-contrast']);
  });

  it('serious: contrast in dark mode too, where the stylesheet gives dark colours of its own', () => {
    const dark = (rules: string) => CLEAN.replace('.muted { color: #4b5563; }', `.muted { color: #4b5563; }\n@media (prefers-color-scheme: dark) { ${rules} }`);
    // The cells go dark and their text light, but the muted grey stays as it was: 2.2:1 on the dark cell.
    const forgotten = 'td { background-color: #111827 !important; color: #f9fafb !important; } .muted a { color: #93c5fd !important; }';
    const found = checkHtml(dark(forgotten), 'email.html').findings;
    expect(found.map((each) => [each.rule, each.impact, each.message.split(':')[0]])).toEqual([
      ['low-contrast', 'serious', 'in dark mode, text in #4b5563 on #111827'],
    ]);
    expect(found[0]!.position?.line).toBe(14);
    expect(rules(dark(`${forgotten} .muted { color: #d1d5db !important; }`))).toEqual([]);
  });

  it('moderate: link text that does not say where it goes, and alt text that names the file', () => {
    expect(impacts(CLEAN.replace('See the billing page', 'click here'))).toEqual([['vague-link-text', 'moderate']]);
    // An image whose alt is its file name says what the file is, not what it shows.
    expect(impacts(CLEAN.replace('alt="Acme"', 'alt="logo.png"'))).toEqual([['image-alt-unhelpful', 'moderate']]);
  });

  it('mild: one <h1>, headings in order', () => {
    expect(impacts(CLEAN.replace('<h2>What changed</h2>', '<h3>What changed</h3>'))).toEqual([['heading-order', 'mild']]);
    expect(impacts(CLEAN.replace('<h2>What changed</h2>', '<h1>What changed</h1>'))).toEqual([['heading-one-h1', 'mild']]);
  });
});
