/**
 * What convert once lost in silence, each carried where LMX can hold it or listed where it cannot:
 * MJML's borders, a button's border and text weight, a divider's thickness and colour, and a
 * font stack that opens with the system's own fonts, and an image inside a paragraph.
 */
import { describe, expect, it } from 'vitest';
import { fromHtml, fromMjml, fromReact } from './layout-support.js';

const listed = (findings: ReturnType<typeof fromHtml>['findings']) => findings.remediation.map((item) => `${item.construct} | ${item.outcome} | ${item.done}`);

describe('MJML borders', () => {
  it('lists the border of a section and a column, which LMX draws around no box', () => {
    const { findings } = fromMjml(
      '<mjml><mj-body><mj-section border="1px solid #eaeaea" background-color="#f4f4f4"><mj-column border-left="2px dashed #cccccc"><mj-text>Your order has shipped.</mj-text></mj-column></mj-section></mj-body></mjml>',
    );
    expect(listed(findings)).toContain('the border 1px solid #eaeaea | dropped | left out: LMX draws no border around a box of blocks');
    expect(listed(findings)).toContain('the border-left 2px dashed #cccccc | dropped | left out: LMX draws no border around a box of blocks');
  });

  it('lists a column’s inner border and a wrapper’s, but not a border MJML does not draw (mj-text takes none)', () => {
    const { findings } = fromMjml(
      '<mjml><mj-body><mj-wrapper border-top="3px solid #0057ff"><mj-section><mj-column inner-border="1px solid #dddddd" padding="8px"><mj-text border="1px solid #000000">Your order has shipped.</mj-text></mj-column></mj-section></mj-wrapper></mj-body></mjml>',
    );
    const constructs = findings.remediation.map((item) => item.construct);
    expect(constructs).toContain('the border-top 3px solid #0057ff');
    expect(constructs).toContain('the border 1px solid #dddddd');
    expect(constructs).not.toContain('the border 1px solid #000000');
  });

  it('carries a button’s and an image’s border, which LMX draws, and lists one it draws otherwise', () => {
    const { lmx, findings } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-button href="https://example.com/track" border="2px solid #123456">Track it</mj-button><mj-image src="https://example.com/box.png" border="1px solid #dddddd" /><mj-button href="https://example.com/help" border-bottom="3px solid #000000">Help</mj-button></mj-column></mj-section></mj-body></mjml>',
    );
    expect(lmx).toMatch(/<Button [^>]*borderWidth="2" borderColor="#123456"[^>]*>Track it</);
    expect(lmx).toMatch(/<Image [^>]*borderWidth="1" borderColor="#dddddd"/);
    expect(listed(findings)).toContain('the button’s border-bottom 3px solid #000000 | approximated | left out: LMX draws its border on every side alike');
  });

  it('carries an HTML button’s border too, but not one of its own colour (its inner padding)', () => {
    const { lmx } = fromHtml(
      '<html><body><p>Your order has shipped.</p><a href="https://example.com/a" style="background-color:#0057ff;color:#ffffff;border:1px dashed #003399;padding:10px 20px">Dashed</a><a href="https://example.com/b" style="background-color:#0057ff;color:#ffffff;border-width:10px 20px;border-style:solid;border-color:#0057ff">Padded</a></body></html>',
    );
    expect(lmx).toMatch(/<Button [^>]*borderWidth="1" borderColor="#003399"[^>]*>Dashed</);
    expect(lmx).not.toMatch(/<Button [^>]*borderWidth[^>]*>Padded</);
  });

  it('makes a border of the button’s own colour its inner padding, however its background is written', () => {
    const { lmx, findings } = fromHtml(
      '<html><body><p>Please confirm your address.</p><a href="https://example.com/confirm" class="btn-primary" style="color:#ffffff;background:#3a90d7;padding:0;border-color:#3a90d7;border-style:solid;border-width:10px 20px">Confirm</a></body></html>',
    );
    expect(lmx).toMatch(/<Button [^>]*innerYPadding="10" innerXPadding="20"[^>]*>Confirm</);
    expect(lmx).not.toMatch(/<Button [^>]*borderWidth/);
    expect(findings.remediation.filter((item) => item.construct.includes('border'))).toEqual([]);
  });

  it('makes each side’s border of the button’s own colour its inner padding, and a cell’s padding outside its face space above it', () => {
    // Mailgen's Salted theme: `border-top: 15px solid #3869D4; border-bottom: 15px …; border-left: 25px …; border-right: 25px …`
    // on the link, in a cell padded `25px 0 0 0` of a `mobile-button-container` table; Chromium draws it 48 px tall.
    const { lmx, findings } = fromHtml(
      '<html><body><p>You can check the status of your order.</p><table class="mobile-button-container"><tr><td style="padding: 25px 0 0 0"><table><tr><td align="center">' +
        '<a href="https://example.com/dashboard" style="font-size: 16px; color: #ffffff; background-color: #3869D4; border-top: 15px solid #3869D4; border-bottom: 15px solid #3869D4; border-left: 25px solid #3869D4; border-right: 25px solid #3869D4; display: inline-block">Go to Dashboard</a>' +
        '</td></tr></table></td></tr></table></body></html>',
    );
    expect(lmx).toMatch(/<Button [^>]*innerYPadding="15" innerXPadding="25"[^>]*>Go to Dashboard</);
    expect(lmx).toMatch(/<Button [^>]*paddingTop="\d+"/);
    expect(findings.remediation.filter((item) => item.construct.includes('border'))).toEqual([]);
  });

  it('carries a React Email button’s border, padded or not', () => {
    const { lmx } = fromReact(
      `import { Button, Html } from '@react-email/components';
export default function Email() {
  return (<Html><Button href="https://example.com/a" style={{ backgroundColor: '#ffffff', border: '1px solid #111111' }}>Track it</Button><Button href="https://example.com/b" style={{ backgroundColor: '#ffffff', border: '2px solid #222222', padding: '12px 20px' }}>Help</Button></Html>);
}`,
    );
    expect(lmx).toMatch(/<Button [^>]*borderWidth="1" borderColor="#111111"[^>]*>Track it</);
    expect(lmx).toMatch(/<Button [^>]*borderWidth="2" borderColor="#222222"[^>]*>Help</);
  });
});

describe('a button’s text weight', () => {
  const bold = (findings: ReturnType<typeof fromHtml>['findings']) => findings.remediation.filter((item) => item.construct.startsWith('a bold button'));

  it('lists a bold MJML, React Email, Tailwind or HTML button, which LMX draws in the theme’s button weight', () => {
    const mjml = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-button href="https://example.com/a" font-weight="700">Track it</mj-button></mj-column></mj-section></mj-body></mjml>',
    );
    const react = fromReact(
      `import { Button, Html, Tailwind } from '@react-email/components';
export default function Email() {
  return (<Html><Button href="https://example.com/a" style={{ fontWeight: 600, backgroundColor: '#000000' }}>Track it</Button><Tailwind><Button href="https://example.com/b" className="bg-black font-semibold">Help</Button></Tailwind></Html>);
}`,
    );
    const html = fromHtml(
      '<html><body><a href="https://example.com/a" style="background-color:#0057ff;color:#ffffff;font-weight:bold">Track it</a></body></html>',
    );
    expect(bold(mjml.findings).map((item) => `${item.construct} | ${item.outcome}`)).toEqual(['a bold button (font-weight: 700) | approximated']);
    expect(bold(react.findings).map((item) => item.construct)).toEqual(['a bold button (font-weight: 600)', 'a bold button (font-weight: 600)']);
    expect(bold(html.findings).map((item) => item.construct)).toEqual(['a bold button (font-weight: bold)']);
  });

  it('lists no button of a regular weight', () => {
    const { findings } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-button href="https://example.com/a" font-weight="400">Track it</mj-button><mj-button href="https://example.com/b">Help</mj-button></mj-column></mj-section></mj-body></mjml>',
    );
    expect(bold(findings)).toEqual([]);
  });
});

describe('a button’s height', () => {
  it('is as tall as MJML’s `height` draws it: the inner padding above and below made up to it, never less than its own', () => {
    // Covalent's `<mj-class name="button" height="50px" … font-size="15px" … line-height="22px" />`: the cell is 50 px tall, the link centred in it.
    const button = (attributes: string) =>
      /<Button [^>]*innerYPadding="(\d+)"/.exec(
        fromMjml(
          `<mjml><mj-body><mj-section><mj-column><mj-button href="https://example.com/a" ${attributes}>Track it</mj-button></mj-column></mj-section></mj-body></mjml>`,
        ).lmx,
      )?.[1];
    expect(button('height="50px" font-size="15px" line-height="22px"')).toBe('14');
    // 120% of mj-button's 13 px unless told: (40 - 15.6) / 2.
    expect(button('height="40px"')).toBe('12');
    expect(button('height="20px" inner-padding="10px 25px"')).toBe('10');
  });
});

describe('a text’s size', () => {
  const sizes = (findings: ReturnType<typeof fromHtml>['findings']) =>
    findings.remediation.filter((item) => item.construct.startsWith('text of')).map((item) => `${item.construct}: ${item.done}`);

  it('is the size an inline element gives all of a block’s text, as Chromium draws it: Foundation’s footer in a <small> of 80%', () => {
    // Foundation's newsletter: `<p style="font-size: 16px"><small style="font-size: 80%; color: #cacaca">You received…</small></p>`, 12.8 px in Chromium.
    const { lmx, findings } = fromHtml(
      '<html><body><p style="font-size: 16px">Thanks for reading.</p><p style="font-size: 16px"><small style="font-size: 80%">You received this email because you signed up.</small></p><p><small>Sent by Acme.</small></p></body></html>',
    );
    expect(lmx).toContain('<Paragraph fontSize="13">You received this email because you signed up.</Paragraph>');
    // A <small> of no size of its own is CSS's `smaller`: 16 / 1.2.
    expect(lmx).toContain('<Paragraph fontSize="13">Sent by Acme.</Paragraph>');
    expect(sizes(findings)).toEqual([]);
  });

  it('reads a size relative to the size around it, as a browser does: Mailgen’s `0.8em` inside a 15 px cell is 12 px', () => {
    const { lmx } = fromHtml(
      '<html><body><table><tr><td style="font-size: 15px"><p>Your order is on its way.</p><p style="font-size: 0.8em">Trouble with the button? Paste the link.</p><p style="font-size: 120%">Thanks!</p></td></tr></table></body></html>',
    );
    expect(lmx).toContain('<Paragraph fontSize="12">Trouble with the button? Paste the link.</Paragraph>');
    expect(lmx).toContain('<Paragraph fontSize="18">Thanks!</Paragraph>');
  });

  it('lists text an inline element sizes otherwise than the rest of its block, drawn at the block’s size', () => {
    // Foundation's hero: `<h2 style="font-size: 30px">Title Ipsum <small style="font-size: 80%">This is a note.</small></h2>`.
    const { lmx, findings } = fromHtml(
      '<html><body><h2 style="font-size: 30px">Title Ipsum <small style="font-size: 80%">This is a note.</small></h2></body></html>',
    );
    expect(lmx).toContain('<H2 fontSize="30">');
    expect(sizes(findings)).toEqual(["text of 24 px within a <H2> of 30 px: drawn at 30 px: LMX gives a block's text one size"]);
  });

  it('leaves text of no size of its own in the theme’s size (MJML’s), and lists a part sized otherwise', () => {
    const { lmx, findings } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-text>Welcome aboard.</mj-text><mj-text><p>Your account is <span style="font-size: 0.5em">nearly</span> ready.</p></mj-text></mj-column></mj-section></mj-body></mjml>',
    );
    expect(lmx).toContain('<Paragraph paddingTop="30">Welcome aboard.</Paragraph>');
    expect(lmx).toContain('<Paragraph paddingTop="4" paddingBottom="30">Your account is nearly ready.</Paragraph>');
    expect(sizes(findings)).toEqual(["text of 8 px within a <Paragraph> of the theme’s size: drawn at the theme’s size: LMX gives a block's text one size"]);
  });
});

describe('a text’s weight', () => {
  const weights = (findings: ReturnType<typeof fromHtml>['findings']) =>
    findings.remediation.filter((item) => item.construct.startsWith('font-weight')).map((item) => `${item.construct}: ${item.done}`);

  it('lists light text, which LMX draws regular, and a heading drawn lighter than LMX’s bold; not text of a regular or bold weight', () => {
    // Covalent's headings: `<mj-class name="h1" font-size="26px" font-weight="300" …>`.
    const mjml = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-text font-size="26px" font-weight="300">Welcome aboard</mj-text><mj-text font-weight="400">Your account is ready.</mj-text><mj-text font-weight="700">Start here.</mj-text></mj-column></mj-section></mj-body></mjml>',
    );
    expect(weights(mjml.findings)).toEqual(['font-weight 300: <Paragraph> drawn in the regular weight: LMX has no lighter one']);
    const html = fromHtml(
      '<html><body><h1 style="font-weight: 400">Welcome aboard</h1><p style="font-weight: lighter">Your account is ready.</p><p style="font-weight: 500">Start here.</p></body></html>',
    );
    expect(weights(html.findings)).toEqual([
      'font-weight 400: <H1> drawn bold, as LMX draws every heading',
      'font-weight lighter: <Paragraph> drawn in the regular weight: LMX has no lighter one',
    ]);
  });
});

describe('a text’s letter spacing', () => {
  it('is listed where the source spaces text out or in, as LMX draws text with its font’s own spacing', () => {
    // Plaid's and ProofKit's sign-in code: `letterSpacing: "6px"`; their other text's `letterSpacing: "0"`.
    const { findings } = fromReact(
      `import { Html, Text } from '@react-email/components';
export default function Email() {
  return (<Html><Text style={{ letterSpacing: '0' }}>Enter this code:</Text><Text style={{ letterSpacing: '6px', fontSize: 32 }}>D7CU4GOV</Text><Text style={{ letterSpacing: 'normal' }}>It expires soon.</Text></Html>);
}`,
    );
    expect(findings.remediation.filter((item) => item.construct.startsWith('letter-spacing')).map((item) => `${item.construct}: ${item.done}`)).toEqual([
      "letter-spacing 6px: <Paragraph> drawn with its font's own spacing: LMX has no letter spacing",
    ]);
    const mjml = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-text letter-spacing="-0.78px">Welcome aboard</mj-text></mj-column></mj-section></mj-body></mjml>',
    );
    expect(mjml.findings.remediation.filter((item) => item.construct.startsWith('letter-spacing')).map((item) => item.construct)).toEqual([
      'letter-spacing -0.78px',
    ]);
  });
});

describe('a divider’s thickness and colour', () => {
  const dividers = (lmx: string) => lmx.split('\n').filter((line) => line.startsWith('<Divider'));
  const lines = (findings: ReturnType<typeof fromHtml>['findings']) =>
    findings.remediation.filter((item) => item.construct.includes('divider')).map((item) => `${item.construct} | ${item.done}`);

  it('carries React Email’s <Hr> as it draws it: #eaeaea unless told, two lines as one of their sum, listed', () => {
    const { lmx, findings } = fromReact(
      `import { Hr, Html, Tailwind, Text } from '@react-email/components';
export default function Email() {
  return (<Html><Text>Your order has shipped.</Text><Hr /><Hr style={{ borderColor: '#e6ebf1' }} /><Hr style={{ borderTop: '3px solid #ff0000' }} /><Tailwind><Hr className="border border-solid border-[#cccccc]" /></Tailwind><Text>Thanks.</Text></Html>);
}`,
    );
    expect(dividers(lmx).map((line) => line.replace(/ padding\w+="\d+"/g, ''))).toEqual([
      '<Divider color="#eaeaea" />',
      '<Divider color="#e6ebf1" />',
      '<Divider color="#ff0000" borderWidth="3" />',
      '<Divider color="#cccccc" borderWidth="2" />',
    ]);
    expect(lines(findings)).toEqual([
      'the divider’s border-top 1px solid #cccccc, border-bottom 1px solid #cccccc | drawn as one solid line of 2 px in #cccccc',
    ]);
  });

  it('carries an HTML divider drawn by its height and background, and lists one dotted or drawing no line', () => {
    const { lmx, findings } = fromHtml(
      '<html><body><p>Your order has shipped.</p><hr style="border:none;height:2px;background-color:#333333"><hr style="border:0;border-bottom:1px dotted #999999"><hr style="border:none"><p>Thanks.</p></body></html>',
    );
    expect(dividers(lmx).map((line) => line.replace(/ padding\w+="\d+"/g, ''))).toEqual([
      '<Divider color="#333333" borderWidth="2" />',
      '<Divider color="#999999" />',
      '<Divider />',
    ]);
    expect(lines(findings)).toEqual([
      'the divider’s border-bottom 1px dotted #999999 | drawn as one solid line of 1 px in #999999',
      'a divider that draws no line | written as a <Divider>, which draws the theme’s line',
    ]);
  });

  it('keeps the line a browser draws below an <hr> whose style sets only its top, and a plain <hr>’s', () => {
    // The HTML standard's rendering of <hr>: "color: gray; border-style: inset; border-width: 1px".
    const { lmx, findings } = fromHtml('<html><body><p>Your order has shipped.</p><hr style="border-top:2px solid #cccccc"><hr><p>Thanks.</p></body></html>');
    expect(dividers(lmx).map((line) => line.replace(/ padding\w+="\d+"/g, ''))).toEqual([
      '<Divider color="#cccccc" borderWidth="3" />',
      '<Divider color="#808080" borderWidth="2" />',
    ]);
    expect(lines(findings)).toEqual([
      'the divider’s border-top 2px solid #cccccc, border-bottom 1px inset gray | drawn as one solid line of 3 px in #cccccc',
      'the divider’s border-top 1px inset gray, border-bottom 1px inset gray | drawn as one solid line of 2 px in #808080',
    ]);
  });

  it('reads an MJML divider’s border-style, and lists a dashed one', () => {
    const { lmx, findings } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-text>Your order has shipped.</mj-text><mj-divider border-width="2px" border-style="dashed" border-color="#cccccc" /></mj-column></mj-section></mj-body></mjml>',
    );
    expect(dividers(lmx)[0]).toMatch(/^<Divider color="#cccccc" borderWidth="2"/);
    expect(lines(findings)).toEqual(['the divider’s border-top 2px dashed #cccccc | drawn as one solid line of 2 px in #cccccc']);
  });
});

describe('a font stack that opens with the system’s own fonts', () => {
  const style = (lmx: string) => lmx.split('\n')[0]!;
  const fonts = (findings: ReturnType<typeof fromHtml>['findings']) =>
    findings.remediation.filter((item) => item.construct.startsWith('the font')).map((item) => `${item.construct} | ${item.outcome} | ${item.done}`);

  it('takes the first family a theme can name past the system aliases, and lists those left out', () => {
    const { lmx, findings } = fromHtml(
      '<html><body style="font-family:-apple-system,BlinkMacSystemFont,&quot;Segoe UI&quot;,Roboto,&quot;Helvetica Neue&quot;,Ubuntu,sans-serif"><p>Your order has shipped.</p></body></html>',
    );
    expect(style(lmx)).toContain('bodyFontFamily="Roboto" bodyFontCategory="sans-serif"');
    expect(fonts(findings)).toEqual([
      'the fonts -apple-system, BlinkMacSystemFont, Segoe UI (of -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Ubuntu,sans-serif) | approximated | carried as bodyFontFamily="Roboto", the first family of the stack a theme can name',
    ]);
  });

  it('leaves Tailwind’s font-sans to the theme’s font of its category, listed', () => {
    const { lmx, findings } = fromReact(
      `import { Body, Html, Tailwind, Text } from '@react-email/components';
export default function Email() {
  return (<Html><Tailwind><Body className="font-sans"><Text>Your order has shipped.</Text></Body></Tailwind></Html>);
}`,
    );
    expect(style(lmx)).not.toContain('bodyFontFamily');
    expect(style(lmx)).toContain('bodyFontCategory="sans-serif"');
    expect(fonts(findings)).toEqual([
      expect.stringMatching(
        /^the fonts ui-sans-serif, system-ui \(of .*\) \| approximated \| left to the theme’s sans-serif font: the stack names no family a theme can name$/,
      ),
    ]);
  });

  it('lists nothing where the first family is one a theme can name', () => {
    const { lmx, findings } = fromHtml('<html><body style="font-family:\'Helvetica Neue\',Arial,sans-serif"><p>Your order has shipped.</p></body></html>');
    expect(style(lmx)).toContain('bodyFontFamily="Helvetica Neue"');
    expect(fonts(findings)).toEqual([]);
  });
});

describe('an image inside a paragraph', () => {
  it('is an image after the paragraph’s text, as drawn, where it was dropped', () => {
    const { lmx, findings } = fromHtml(
      '<html><body><p>Our new dashboard: <a href="https://acme.example/app"><img src="https://acme.example/dashboard.png" alt="Dashboard" width="560"></a></p><p><img src="https://acme.example/logo.png" alt="Acme"></p></body></html>',
    );
    expect(lmx).toMatch(
      /<Paragraph[^>]*>Our new dashboard:<\/Paragraph>\n<Image src="https:\/\/acme.example\/dashboard.png" alt="Dashboard" href="https:\/\/acme.example\/app"[^>]*\/>\n<Image src="https:\/\/acme.example\/logo.png" alt="Acme"/,
    );
    // The logo of no width, drawn at its own size in the source, is drawn across the body: listed.
    expect(findings.remediation.filter((item) => item.outcome === 'not carried').map((item) => `${item.construct}: ${item.done}`)).toEqual([
      'the position of <Image>: drawn across the full width, where the source draws it at the left at its own size',
    ]);
  });
});

describe('a list inside a list', () => {
  it('adds the items of a list written inside an item, or straight inside the list, to the outer list, each listed at its place', () => {
    const { lmx, findings } = fromHtml(
      '<html><body>\n<ul>\n<li>One</li>\n<ul><li>One-a</li><li>One-b</li></ul>\n<li>Two <ul><li>Two-a</li><ul><li>Two-a-i</li></ul></ul></li>\n</ul>\n<ul style="list-style:none"><li>Street</li><ul><li>Town</li></ul></ul>\n</body></html>',
    );
    const items = [...lmx.matchAll(/<ListItem[^>]*>([^<]*)</g)].map((match) => match[1]);
    expect(items).toEqual(['One', 'One-a', 'One-b', 'Two', 'Two-a', 'Two-a-i']);
    expect(lmx).toMatch(/<Paragraph[^>]*>Street<Br \/>Town</);
    const nested = findings.remediation.filter((item) => item.construct === 'a list inside a list').map((item) => `${item.line}:${item.column}`);
    expect(nested).toEqual(['4:1', '5:9', '5:27']);
  });
});
