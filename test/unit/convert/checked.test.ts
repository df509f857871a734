/**
 * Every converted record passes `content check`: links to the pages Loops gives every email
 * itself (Mailchimp's and Campaign Monitor's unsubscribe, preferences and web version) go with
 * their text, a link to an address computed when the app runs keeps its text, an image over
 * http:// is listed, as content check warns of it, and a name in braces, which LMX reads as a
 * variable, is made the email's variable or written so that LMX shows it.
 */
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../../src/areas/content/shared/check.js';
import { convertDocument } from '../../../src/convert/document.js';
import { measureFidelity } from '../../../src/convert/fidelity.js';
import { type ConvertKind, Findings } from '../../../src/convert/model.js';
import { readHtml } from '../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../src/convert/sources/mjml-source.js';
import { fromHtml, fromMjml, fromReact } from './layout-support.js';

const page = (body: string) => `<!doctype html><html><head><title>News</title></head><body>${body}</body></html>`;

describe('a converted record content check takes', () => {
  it('drops the links to *|UNSUB|*, *|UPDATE_PROFILE|* and *|ARCHIVE|* with their text, each listed, never <Link href="">', () => {
    const { lmx, findings } = fromHtml(
      page(`<p>Spring sale, all week.</p>
        <p><a href="*|ARCHIVE|*">View this email in your browser</a></p>
        <p>You signed up at our shop. <a href="*|UPDATE_PROFILE|*">Update your preferences</a> or <a href="*|UNSUB|*">unsubscribe from this list</a>.</p>`),
    );
    expect(lmx).not.toContain('href=""');
    expect(lmx).not.toMatch(/View this email|Update your preferences|unsubscribe from this list/);
    // The sentence that held only the two links goes with them, its "or" and stop too.
    expect(lmx).toContain('<Paragraph>You signed up at our shop.</Paragraph>');
    expect(
      findings.remediation.filter((item) => item.outcome === 'dropped').map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual([
      '2:12 the link to *|ARCHIVE|*: dropped with its text "View this email in your browser"',
      '3:39 the link to *|UPDATE_PROFILE|*: dropped with its text "Update your preferences"',
      '3:95 the word "or": dropped with the link it joined to another',
      '3:99 the link to *|UNSUB|*: dropped with its text "unsubscribe from this list"',
    ]);
    expect(checkSource('draft.lmx', lmx, 'campaign', new Map()).errors).toEqual([]);
  });

  it('drops Campaign Monitor’s <unsubscribe>, <webversion> and [preferences] links with their text', () => {
    const { lmx, findings } = fromHtml(
      page(`<p><webversion>View it online</webversion></p><p>Thanks for reading.</p>
        <p><unsubscribe>Unsubscribe</unsubscribe> | <a href="[preferences]">Preferences</a></p>`),
    );
    expect(lmx).not.toMatch(/View it online|Unsubscribe|Preferences/);
    expect(findings.remediation.map((item) => item.construct)).toEqual(
      expect.arrayContaining(['the link to <webversion>', 'the link to <unsubscribe>', 'the link to [preferences]']),
    );
    expect(checkSource('draft.lmx', lmx, 'campaign', new Map()).errors).toEqual([]);
  });

  it('closes the gap a dropped link leaves: the bar between links, the comma before a sentence’s end', () => {
    const { lmx } = fromHtml(
      page(`<p>@copywrite nobody<br> <a href="https://acme.example/contact">hello@acme.example</a> | <preferences>Manage Email Notifications</preferences> | <unsubscribe>Unsubscribe</unsubscribe></p>
        <p><unsubscribe>Unsubscribe</unsubscribe> · <a href="https://acme.example/help">Help</a></p>
        <p>If you want to opt-out of future emails, <a href="*|UNSUB|*">unsubscribe here</a>.</p>`),
    );
    expect(lmx).toContain('<Link href="https://acme.example/contact">hello@acme.example</Link></Paragraph>');
    expect(lmx).toContain('<Paragraph><Link href="https://acme.example/help">Help</Link></Paragraph>');
    expect(lmx).toContain('<Paragraph>If you want to opt-out of future emails.</Paragraph>');
    expect(lmx).not.toMatch(/\| *<\/Paragraph>|, \./);
  });

  it('leaves no space before a comma or stop where Mailchimp’s footer loses its tags and links', () => {
    // Mailchimp's own footer, as its templates write it.
    const findings = new Findings();
    const document = readHtml(
      page(`<p><em>Copyright © *|CURRENT_YEAR|* *|LIST:COMPANY|*, All rights reserved.</em><br>
        Want to change how you receive these emails?<br>
        You can <a href="*|UPDATE_PROFILE|*">update your preferences</a> or <a href="*|UNSUB|*">unsubscribe from this list</a>.</p>`),
      'email.html',
      findings,
    );
    const { lmx } = convertDocument(document, 'campaign', findings);
    expect(lmx).toContain('Copyright ©, All rights reserved.');
    expect(lmx).not.toMatch(/\s[,.](?=\s|<|$)/);
    // "You can" says nothing once the links that ended its sentence went: it goes with them, listed at the text it stood in (after the <br>), and the line break before it.
    expect(lmx).toContain('Want to change how you receive these emails?</Paragraph>');
    expect(findings.remediation.filter((item) => item.construct.startsWith('the word')).map((item) => `${item.line}:${item.column} ${item.construct}`)).toEqual(
      ['3:73 the word "or"', '2:57 the words "You can"'],
    );
    // Listed where it was written, so the fidelity line counts no word lost in silence.
    measureFidelity(document, lmx, findings);
    expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
  });

  it('drops a link of the template’s own around Campaign Monitor’s tag as the tag’s link, never an empty <Link>', () => {
    const { lmx, findings } = fromHtml(
      page(`<p>Thanks for reading.</p>
        <p>Don't like these annoying emails? <a href="#"><unsubscribe>Unsubscribe</unsubscribe></a>.</p>
        <p><a href="https://acme.example/terms">Terms</a> | <a href="#"> <unsubscribe>Unsubscribe</unsubscribe> </a></p>`),
    );
    expect(lmx).not.toMatch(/<Link[^>]*><\/Link>|Unsubscribe/);
    expect(lmx).toContain("<Paragraph>Don't like these annoying emails?</Paragraph>");
    expect(lmx).toContain('<Paragraph><Link href="https://acme.example/terms">Terms</Link></Paragraph>');
    expect(findings.remediation.filter((item) => item.construct === 'the link to <unsubscribe>').map((item) => `${item.line}:${item.column}`)).toEqual([
      '2:46',
      '3:61',
    ]);
  });

  it('drops the unsubscribe and preferences tags of Postmark, SendGrid and Mailgun, as links or alone, each listed', () => {
    // Postmark: "An unsubscribe placeholder is a way to tell Postmark where to place the unsubscribe link",
    // `{{{ pm:unsubscribe }}}`, alone or "as a hyperlink" (postmarkapp.com, How to add an unsubscribe link).
    // SendGrid: "When you add the <%asm_global_unsubscribe_url%> tag to your email, we will replace that tag with
    // the text "Unsubscribe From All Emails"", and the _raw_ form "with only the global unsubscribe URL" (Global Unsubscribes).
    // Mailgun: "%unsubscribe_url% Link to unsubscribe recipient from all messages sent by given domain" (Tracking Messages).
    const { lmx, findings } = fromHtml(
      page(`<p>Thanks for reading.</p>
        <p><a href="{{{ pm:unsubscribe }}}">Unsubscribe from this list</a></p>
        <p>{{{ pm:unsubscribe label="Stop these emails" }}}</p>
        <p><a href="<%asm_group_unsubscribe_raw_url%>">Unsubscribe</a> | <a href="<%asm_preferences_raw_url%>">Preferences</a></p>
        <p><%asm_global_unsubscribe_url%></p>
        <p><a href="%mailing_list_unsubscribe_url%">Leave the list</a></p>
        <p>Save 50% today, %recipient_name%.</p>`),
    );
    expect(lmx).not.toMatch(/pm:unsubscribe|asm_|unsubscribe_url|Unsubscribe|Preferences|Stop these|Leave the list/);
    expect(lmx).toContain('<Paragraph>Save 50% today, %recipient_name%.</Paragraph>');
    expect(findings.remediation.filter((item) => item.outcome === 'dropped').map((item) => `${item.line} ${item.construct}: ${item.done}`)).toEqual([
      '2 the link to {{{ pm:unsubscribe }}}: dropped with its text "Unsubscribe from this list"',
      '3 {{{ pm:unsubscribe label="Stop these emails" }}}: the tag dropped',
      '4 the link to <%asm_group_unsubscribe_raw_url%>: dropped with its text "Unsubscribe"',
      '4 the link to <%asm_preferences_raw_url%>: dropped with its text "Preferences"',
      '5 <%asm_global_unsubscribe_url%>: the tag dropped',
      '6 the link to %mailing_list_unsubscribe_url%: dropped with its text "Leave the list"',
    ]);
    expect(checkSource('draft.lmx', lmx, 'campaign', new Map()).errors).toEqual([]);
  });

  it('keeps an image’s empty alt, which marks it decorative, and writes none where the source writes none (MJML’s default)', () => {
    const { lmx } = fromHtml(
      page('<p>Your order</p><img src="https://shop.example/mug.jpg" alt="" width="100"><img src="https://shop.example/tea.jpg" width="100">'),
    );
    expect(lmx).toContain('<Image src="https://shop.example/mug.jpg" alt="" width="100"');
    expect(lmx).toMatch(/<Image src="https:\/\/shop.example\/tea.jpg" width="100"/);
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
    const mjml = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-image src="https://shop.example/mug.jpg" /></mj-column></mj-section></mj-body></mjml>',
    ).lmx;
    expect(mjml).toContain('<Image src="https://shop.example/mug.jpg"');
    expect(mjml).not.toContain('alt=');
  });

  it('keeps the text of a link to an address computed when the app runs, listed', () => {
    const { lmx, findings } = fromHtml(
      page(
        `<p>Read <a href="{% url 'guide' %}">the guide</a> today.</p><p><a href="{% url 'home' %}"><img src="https://acme.example/logo.png" alt="Acme"></a></p>`,
      ),
    );
    expect(lmx).toContain('<Paragraph>Read the guide today.</Paragraph>');
    expect(lmx).not.toContain('href=""');
    expect(findings.remediation.filter((item) => item.outcome === 'kept as text').map((item) => item.construct)).toEqual([
      "a link to {% url 'guide' %}",
      "a link to {% url 'home' %}",
    ]);
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('keeps a button of no address as its label on the button’s colour, in its text colour (MJML’s README button)', () => {
    const { lmx } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-text>Plain words on the white body, most of the text.</mj-text><mj-button background-color="#f45e43" color="white">Do not click me</mj-button></mj-column></mj-section></mj-body></mjml>',
    );
    expect(lmx).toMatch(/<Paragraph[^>]* blockColor="#f45e43"[^>]*><Text textColor="#ffffff">Do not click me<\/Text><\/Paragraph>/);
  });

  it('keeps the text of a link to an address the other provider fills (*|TWITTER:PROFILEURL|*), listed, never a link no client can follow', () => {
    const { lmx, findings } = fromHtml(
      page('<p><a href="*|TWITTER:PROFILEURL|*">Follow us</a> or <a href="https://acme.example/?id=*|UNIQID|*">read more</a>.</p>'),
    );
    expect(lmx).toContain('<Paragraph>Follow us or <Link href="https://acme.example/?id={data.uniqid}">read more</Link>.</Paragraph>');
    expect(findings.remediation.filter((item) => item.outcome === 'kept as text').map((item) => item.construct)).toEqual([
      '*|TWITTER:PROFILEURL|*',
      'a link to *|TWITTER:PROFILEURL|*',
    ]);
    const check = checkSource('draft.lmx', lmx, 'transactional', new Map());
    expect([...check.errors, ...check.warnings].filter((problem) => problem.rule === 'attribute-value')).toEqual([]);
  });

  it('says a merge tag Loops has no value for is to be written out, and one for its own pages needs nothing', () => {
    const { findings } = fromHtml(page('<p>© *|CURRENT_YEAR|* *|LIST:COMPANY|*</p>'));
    expect(findings.remediation.map((item) => `${item.construct}: ${item.todo}`)).toEqual([
      '*|CURRENT_YEAR|*: Loops fills no such value: write it out (the subject or preview text in the fields file, or --subject), or send it as a variable',
      '*|LIST:COMPANY|*: Loops adds the unsubscribe link and the postal address to every email itself: nothing to do',
    ]);
  });

  it('lists an image over http://, and content check warns of it', () => {
    const { lmx, findings } = fromHtml(page('<p>Hello.</p><img src="http://acme.example/logo.png" alt="Acme">'));
    expect(findings.remediation.map((item) => `${item.construct}: ${item.done}`)).toContain(
      '<img src="http://acme.example/logo.png">: kept at its http:// address, which some mail clients do not load (content check warns of it)',
    );
    const check = checkSource('draft.lmx', lmx, 'transactional', new Map());
    expect(check.errors).toEqual([]);
    expect(check.warnings.map((warning) => warning.message)).toContain(
      'src="http://acme.example/logo.png" on <Image>: an image over http://, which some mail clients do not load',
    );
  });

  it('leaves out an image of no address, which shows nothing, listed; one whose address the app computes gets the placeholder', () => {
    const html = fromHtml(page('<p>Your order.</p>\n<img src="" alt="" width="200">\n<p>Thanks.</p>'));
    expect(html.lmx).not.toContain('<Image');
    expect(html.findings.remediation.map((item) => `${item.line} ${item.construct}: ${item.outcome}`)).toEqual(['2 <img src="">: dropped']);
    const react = fromReact(`import { Html, Img } from '@react-email/components';
export default function Email() {
  return (
    <Html>
      <Img src="" alt="" />
      <Img src={cdn()} alt="Logo" />
    </Html>
  );
}
`);
    expect(react.lmx.match(/<Image [^>]*>/g)).toEqual(['<Image src="https://placehold.co/600x300.png" alt="Logo" align="left" />']);
    expect(react.findings.remediation.map((item) => `${item.line} ${item.construct}`)).toEqual(
      expect.arrayContaining(['5 <img src="">', '6 an image whose address is computed when the app runs']),
    );
    expect(checkSource('draft.lmx', react.lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('drops an MJML button to *|UNSUB|* with its label, and keeps a button to nowhere’s text where the button stood', () => {
    const { lmx, findings } = fromMjml(`<mjml><mj-body><mj-section><mj-column>
      <mj-text>Thanks for reading.</mj-text>
      <mj-button href="*|UNSUB|*">Unsubscribe</mj-button>
      <mj-button href="{% url 'home' %}">Open the app</mj-button>
    </mj-column></mj-section></mj-body></mjml>`);
    expect(lmx).not.toContain('Unsubscribe');
    expect(findings.remediation.map((item) => `${item.line} ${item.construct}: ${item.done}`)).toContain(
      '3 the link to *|UNSUB|*: dropped with its text "Unsubscribe"',
    );
    // MJML centres a button: its text, kept as a paragraph, stands centred as the button did.
    expect(lmx).toMatch(/<Paragraph (?=[^>]*align="center")(?=[^>]*blockColor="#414141")[^>]*><Text textColor="#ffffff">Open the app<\/Text><\/Paragraph>/);
    expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
  });
});

describe('merge tags inside attributes of every kind', () => {
  it('takes off each layout or colour value filled when the email is sent, listed at its place; addresses and alt text keep their variables', () => {
    const { lmx, findings } = fromHtml(`<!doctype html><html><head><title>News</title></head><body style="background-color:*|BRAND_COLOR|*">
<table width="*|WIDTH|*" bgcolor="[bg,fallback=#ffffff]" class="*|CLASS|*"><tr><td align="*|ALIGN|*" style="padding:*|PAD|*;color:#111111">
<p title="*|FNAME|*" style="font-size:*|SIZE|*px">Hi *|FNAME|*, and [lastname,fallback=friend].</p>
<img src="*|LOGO_URL|*" alt="*|COMPANY|*" width="*|W|*" height="{{ h }}">
<a href="https://acme.example/?e=*|EMAIL|*" style="background-color:*|BTN|*;color:#1d4ed8;padding:10px">Open your account</a>
<a href="mailto:*|REPLY_TO|*">Write to us</a>
</td></tr></table></body></html>`);
    expect(findings.remediation.filter((item) => item.outcome === 'dropped').map((item) => `${item.line}:${item.column} ${item.construct}`)).toEqual([
      '1:54 background-color: *|BRAND_COLOR|*',
      '2:1 width="*|WIDTH|*"',
      '2:1 bgcolor="[bg,fallback=#ffffff]"',
      '2:1 class="*|CLASS|*"',
      '2:80 align="*|ALIGN|*"',
      '2:80 padding: *|PAD|*',
      '3:1 title="*|FNAME|*"',
      '3:1 font-size: *|SIZE|*px',
      '4:1 width="*|W|*"',
      '4:1 height="{{ h }}"',
      '5:1 background-color: *|BTN|*',
    ]);
    expect(lmx).toContain('<Paragraph>Hi {data.firstName}, and {data.lastName}.</Paragraph>');
    expect(lmx).toMatch(/<Image src="https:\/\/placehold.co\/600x300.png" dynamicSrc="\{data.logoUrl\}" alt="\{data.company\}" align="left"/);
    expect(lmx).toContain('href="https://acme.example/?e={data.email}"');
    expect(lmx).toContain('href="mailto:{data.replyTo}"');
    // Nothing filled in at sending reaches an attribute of the LMX as written.
    expect(lmx).not.toMatch(/\*\||\{\{|\[\w+,fallback/);
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('reads Campaign Monitor’s personalisation tags as variables, a fallback made the message’s, and a React attribute by its own expression', () => {
    const { lmx, findings } = fromHtml(page('<p>Hello [firstname,fallback=there], your plan is [PlanName,fallback=Free]. Reply to [email].</p>'));
    expect(lmx).toContain('<Paragraph>Hello {data.firstName}, your plan is {data.planName}. Reply to {data.email}.</Paragraph>');
    expect(findings.fallbacks.data).toEqual({ firstName: 'there', planName: 'Free' });
    // A word in brackets that is no tag of Campaign Monitor's stays as written.
    expect(fromHtml(page('<p>Reply with [Order ID] or [yes].</p>')).lmx).toContain('Reply with [Order ID] or [yes].');
    const react = fromReact(`import { Html, Img, Text } from '@react-email/components';
export default function Email({ logoWidth }: { logoWidth: string }) {
  return <Html><Img src="https://acme.example/logo.png" alt="Acme" width={logoWidth} /><Text>Hi</Text></Html>;
}
`);
    expect(react.findings.remediation.filter((item) => item.outcome === 'dropped').map((item) => item.construct)).toEqual(['width="{logoWidth}"']);
  });
});

describe('a name in one pair of braces, as Loops’ editor and MJML write a variable', () => {
  // The LMX specification, of the syntax of Loops' editor and MJML: "`{resetLink}` (unprefixed) is
  // invalid in LMX; use `{data.resetLink}`" and "`{DATA_VARIABLE:resetLink}` is valid in MJML and the
  // Loops editor, but not in LMX". Written as it is, each is a record content check refuses.
  const source = `<mjml><mj-body><mj-section><mj-column>
      <mj-text>Hi {firstName}, reset at {DATA_VARIABLE:resetLink} before {contact.expiry | soon}.</mj-text>
      <mj-button href="https://acme.example/reset?t={token}">Reset</mj-button>
      <mj-text>Braces { like this } and {a, b} are text; {x:y} is not a name.</mj-text>
    </mj-column></mj-section></mj-body></mjml>`;
  const convert = (kind: ConvertKind) => {
    const findings = new Findings();
    const document = readMjml(source, 'email.mjml', findings, { readInclude: () => ({ file: '', source: '' }) });
    return { lmx: convertDocument(document, kind, findings).lmx, findings };
  };

  it.each([
    ['transactional', 'Hi {data.firstName}, reset at {data.resetLink} before {data.expiry}.', '{data.token}', { data: { expiry: 'soon' } }],
    ['campaign', 'Hi {contact.firstName}, reset at {contact.resetLink} before {contact.expiry}.', '{contact.token}', { contact: { expiry: 'soon' } }],
    ['workflow', 'Hi {contact.firstName}, reset at {event.resetLink} before {contact.expiry}.', '{event.token}', { contact: { expiry: 'soon' } }],
  ] as const)('becomes the variable of a %s email, its fallback the message’s, and content check takes the record', (kind, text, token, fallbacks) => {
    const { lmx, findings } = convert(kind);
    expect(lmx).toContain(`>${text}</Paragraph>`);
    expect(lmx).toContain(`href="https://acme.example/reset?t=${token}"`);
    expect(findings.fallbacks).toMatchObject(fallbacks);
    expect([...findings.variables.values()].map((variable) => variable.source)).toEqual([
      '{firstName}',
      '{DATA_VARIABLE:resetLink}',
      '{contact.expiry | soon}',
      '{token}',
    ]);
    expect(checkSource('draft.lmx', lmx, kind, new Map()).errors).toEqual([]);
  });

  it('is counted among a loop’s variables where the loop is listed', () => {
    const { findings } = fromHtml(page('<p>{{#each items}}{name} at {DATA_VARIABLE:price}{{/each}}</p>'));
    expect(findings.remediation.map((item) => `${item.construct}: ${item.done}`)).toContain(
      '{{#each items}}: the loop dropped: its body (1 word, 2 variables) kept once, as written, for however many items are sent',
    );
  });

  it('keeps braces LMX shows as written, and writes one that is no name so that LMX shows it, listed', () => {
    const { lmx, findings } = convert('transactional');
    expect(lmx).toContain('>Braces { like this } and {a, b} are text; { x:y} is not a name.</Paragraph>');
    expect(
      findings.remediation.filter((item) => item.construct.includes('x:y')).map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual(['4:58 {x:y}: written with a space after its opening brace: LMX reads a name in braces as a variable, and {x:y} is none']);
  });
});

describe('a link to a variable another provider fills with its unsubscribe or preferences page', () => {
  // HubSpot's `{{ unsubscribe_link }}`, Plunk's `{{manageUrl}}` ("URL to the preferences management page"),
  // Bento's `{{ visitor.unsubscribe_url }}`, Brevo's `{{ update_profile }}`, Dittofeed's `{% unsubscribe_url %}`.
  const source = page(`<p>October news.</p>
    <p><a href="{{ unsubscribe_link }}">Unsubscribe</a> · <a href="{{manageUrl}}">Manage preferences</a> · <a href="{{ visitor.unsubscribe_url }}">Leave</a></p>
    <p><a href="{% unsubscribe_url %}">Opt out</a> | <a href="{{ update_profile }}">Update your profile</a></p>
    <p><a href="{{ account_url }}">Your account</a></p>`);
  const convert = (kind: ConvertKind) => {
    const findings = new Findings();
    const document = readHtml(source, 'email.html', findings);
    const { lmx } = convertDocument(document, kind, findings);
    return { lmx, findings, fidelity: measureFidelity(document, lmx, findings) };
  };

  it('goes with its text from a campaign or workflow email, to which Loops adds its own; the link after it stays, counted kept', () => {
    for (const [kind, account] of [
      ['campaign', '{contact.accountUrl}'],
      ['workflow', '{event.account_url}'],
    ] as const) {
      const { lmx, findings, fidelity } = convert(kind);
      expect(lmx).not.toMatch(/Unsubscribe|Manage preferences|Leave|Opt out|Update your profile/);
      expect(lmx).toContain(`<Link href="${account}">Your account</Link>`);
      expect(findings.remediation.filter((item) => item.outcome === 'dropped').map((item) => item.construct)).toEqual([
        'the link to {{ unsubscribe_link }}',
        'the link to {{manageUrl}}',
        'the link to {{ visitor.unsubscribe_url }}',
        'the link to {% unsubscribe_url %}',
        'the link to {{ update_profile }}',
      ]);
      // The links dropped do not take the place of the one kept: nothing else is listed of them.
      expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
      expect(fidelity.links).toEqual({ source: 6, kept: 1 });
      expect(checkSource('email.lmx', lmx, kind, new Map()).errors).toEqual([]);
    }
  });

  it('stays in a transactional email, which Loops sends with no unsubscribe link: the app sends its own address', () => {
    const { lmx } = convert('transactional');
    expect(lmx).toContain('<Link href="{data.unsubscribe_link}">Unsubscribe</Link>');
    expect(lmx).toContain('<Link href="{data.manageUrl}">Manage preferences</Link>');
    // Dittofeed's tag is its own page, never the app's value: it goes in every kind.
    expect(lmx).not.toContain('Opt out');
  });
});
