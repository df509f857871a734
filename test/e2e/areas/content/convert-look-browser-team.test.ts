/**
 * The colours and positions of emails written the way teams write them, not taken from a package:
 * an MJML newsletter and receipt (a dark header band above a white page, plain links, a bold
 * button), an MJML summary of <mj-attributes> and <mj-class>es with an inset divider and a social
 * row, and React Email templates styled with style objects, with Tailwind, and with a row of a
 * picture beside its text. Each is drawn as its source and as its converted LMX in Chromium at 600
 * and 375 px, as the corpus's are (test/support/convert-look.ts), written to the test's own folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { counts, describeLooks, readableWords, uncountedLosses } from '../../../support/convert-look.js';
import { tempDir } from '../../../support/main.js';

const TEMPLATES: Record<string, string> = {
  'newsletter.mjml': `<mjml>
  <mj-head>
    <mj-title>Acme monthly</mj-title>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="22px" color="#374151" />
      <mj-button background-color="#4f46e5" color="#ffffff" font-weight="bold" border-radius="6px" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6">
    <mj-section background-color="#111827" padding="16px">
      <mj-column>
        <mj-image src="https://acme.example/logo-white.png" width="120px" align="left" />
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff">
      <mj-column>
        <mj-image src="https://acme.example/hero.jpg" padding="0" />
        <mj-text font-size="24px" font-weight="bold" color="#111827">What shipped in March</mj-text>
        <mj-text>We rebuilt search from the ground up, added team folders, and made exports three times faster. Here is what changes for you.</mj-text>
        <mj-button href="https://acme.example/changelog">Read the full changelog</mj-button>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff">
      <mj-column width="40%">
        <mj-image src="https://acme.example/folders.png" />
      </mj-column>
      <mj-column width="60%">
        <mj-text font-weight="bold" color="#111827">Team folders</mj-text>
        <mj-text>Share a folder with your whole team and keep its permissions in one place. <a href="https://acme.example/folders" style="color:#4f46e5">Learn more</a></mj-text>
      </mj-column>
    </mj-section>
    <mj-section>
      <mj-column>
        <mj-text align="center" font-size="12px" color="#6b7280">Acme Inc, 1 Main Street, Springfield. <a href="https://acme.example/unsubscribe" style="color:#6b7280">Unsubscribe</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`,
  'receipt.mjml': `<mjml>
  <mj-body background-color="#ffffff">
    <mj-section background-color="#0f172a">
      <mj-column>
        <mj-text color="#f8fafc" font-size="20px" font-weight="bold">Your receipt from Acme</mj-text>
        <mj-text color="#cbd5e1">Order #1042, paid on 3 March</mj-text>
      </mj-column>
    </mj-section>
    <mj-section>
      <mj-column>
        <mj-table>
          <tr style="border-bottom:1px solid #e5e7eb;text-align:left"><th>Item</th><th>Qty</th><th style="text-align:right">Price</th></tr>
          <tr><td>Oak chair</td><td>1</td><td style="text-align:right">$120.00</td></tr>
          <tr><td>Cushion</td><td>2</td><td style="text-align:right">$40.00</td></tr>
          <tr><td><strong>Total</strong></td><td></td><td style="text-align:right"><strong>$160.00</strong></td></tr>
        </mj-table>
        <mj-button href="https://acme.example/orders/1042" align="left" background-color="#0f172a">View your order</mj-button>
        <mj-divider border-color="#e5e7eb" border-width="1px" />
        <mj-text font-size="12px" color="#64748b">Questions? Reply to this email or write to <a href="mailto:help@acme.example">help@acme.example</a>.</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`,
  'classes.mjml': `<mjml>
  <mj-head>
    <mj-attributes>
      <mj-text color="#333333" font-size="14px" />
      <mj-class name="muted" color="#888888" />
      <mj-class name="link" color="#0066cc" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#eeeeee">
    <mj-section background-color="#ffffff">
      <mj-column>
        <mj-text font-size="22px" font-weight="bold">Your weekly summary</mj-text>
        <mj-text>You completed 12 tasks this week, 3 more than last week. Keep it up.</mj-text>
        <mj-table>
          <tr><td>Tasks done</td><td style="text-align:right">12</td></tr>
          <tr><td>Hours tracked</td><td style="text-align:right">31</td></tr>
        </mj-table>
        <mj-text mj-class="muted">Numbers cover Monday to Sunday, in your time zone.</mj-text>
        <mj-divider border-width="1px" border-color="#dddddd" padding="10px 50px" />
        <mj-social font-size="12px" icon-size="20px" mode="horizontal">
          <mj-social-element name="github" href="https://github.com/acme">GitHub</mj-social-element>
        </mj-social>
      </mj-column>
    </mj-section>
    <mj-section>
      <mj-column>
        <mj-text mj-class="muted" align="center" font-size="11px">Acme Inc. <a href="https://acme.example/settings" style="color:#888888">Email settings</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`,
  'welcome.tsx': `import { Body, Button, Container, Head, Heading, Hr, Html, Img, Link, Preview, Section, Text } from '@react-email/components';

export default function Welcome() {
  return (
    <Html lang="en">
      <Head />
      <Preview>Welcome to Acme</Preview>
      <Body style={{ backgroundColor: '#f6f9fc', fontFamily: 'Helvetica, Arial, sans-serif' }}>
        <Container style={{ backgroundColor: '#ffffff', margin: '0 auto', padding: '20px 0 48px', marginBottom: '64px' }}>
          <Section style={{ padding: '0 48px' }}>
            <Img src="https://acme.example/logo.png" width="49" height="21" alt="Acme" />
            <Hr style={{ borderColor: '#e6ebf1', margin: '20px 0' }} />
            <Heading style={{ color: '#1d1c1d', fontSize: '28px', fontWeight: 700 }}>Welcome aboard</Heading>
            <Text style={{ color: '#525f7f', fontSize: '16px', lineHeight: '24px', textAlign: 'left' }}>
              Thanks for joining Acme. Your account is ready: set up your first project in a few minutes.
            </Text>
            <Button href="https://acme.example/start" style={{ backgroundColor: '#656ee8', borderRadius: '5px', color: '#fff', fontSize: '16px', fontWeight: 'bold', textAlign: 'center', display: 'block', width: '100%', padding: '10px' }}>
              Set up your first project
            </Button>
            <Hr style={{ borderColor: '#e6ebf1', margin: '20px 0' }} />
            <Text style={{ color: '#525f7f', fontSize: '16px', lineHeight: '24px' }}>
              Read the <Link href="https://acme.example/docs">documentation</Link> or write to our team.
            </Text>
            <Text style={{ color: '#8898aa', fontSize: '12px', lineHeight: '16px' }}>Acme, 354 Oyster Point Blvd, South San Francisco, CA 94080</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
`,
  'tailwind.tsx': `import { Body, Button, Container, Head, Heading, Html, Link, Preview, Section, Tailwind, Text } from '@react-email/components';

export default function Invite() {
  return (
    <Html>
      <Head />
      <Preview>Join the team</Preview>
      <Tailwind>
        <Body className="mx-auto my-auto bg-gray-100 font-sans">
          <Container className="mx-auto my-10 max-w-[465px] rounded border border-solid border-gray-200 bg-white p-5">
            <Heading className="mx-0 my-8 p-0 text-center text-2xl font-normal text-black">Join Acme on Linear</Heading>
            <Text className="text-sm leading-6 text-black">Hello Ada,</Text>
            <Text className="text-sm leading-6 text-gray-700">Grace has invited you to the Acme team. Accept to start working together.</Text>
            <Section className="mt-8 mb-8 text-center">
              <Button className="rounded bg-black px-5 py-3 text-center text-xs font-semibold text-white no-underline" href="https://acme.example/join">Join the team</Button>
            </Section>
            <Text className="text-sm leading-6 text-black">or copy this address: <Link href="https://acme.example/join" className="text-blue-600 no-underline">https://acme.example/join</Link></Text>
            <Text className="text-xs leading-6 text-gray-500">This invitation was meant for ada@example.com. If you were not expecting it, you can ignore it.</Text>
          </Container>
        </Body>
      </Tailwind>
    </Html>
  );
}
`,
  'product.tsx': `import { Body, Button, Column, Container, Head, Heading, Html, Img, Link, Row, Section, Text } from '@react-email/components';

const footer = { backgroundColor: '#1f2937', padding: '24px' };

export default function Product() {
  return (
    <Html>
      <Head />
      <Body style={{ backgroundColor: '#ffffff', fontFamily: 'Arial, sans-serif', margin: 0 }}>
        <Container style={{ maxWidth: '600px' }}>
          <Section style={{ padding: '24px' }}>
            <Heading as="h2" style={{ color: '#0f766e', fontSize: '24px' }}>New in the shop</Heading>
            <Row>
              <Column style={{ width: '50%', paddingRight: '12px' }}>
                <Img src="https://acme.example/lamp.jpg" width="264" alt="Desk lamp" />
              </Column>
              <Column style={{ width: '50%', verticalAlign: 'top' }}>
                <Text style={{ fontSize: '16px', color: '#111827', fontWeight: 'bold', margin: 0 }}>Desk lamp</Text>
                <Text style={{ color: '#4b5563' }}>Warm light, a solid oak base, and a switch you can find in the dark.</Text>
                <Button href="https://acme.example/lamp" style={{ backgroundColor: '#0f766e', color: '#ffffff', padding: '10px 16px', borderRadius: '4px' }}>Shop the lamp</Button>
              </Column>
            </Row>
          </Section>
          <Section style={footer}>
            <Text style={{ color: '#d1d5db', fontSize: '12px', textAlign: 'center', margin: 0 }}>
              Acme Shop, 1 Main Street. <Link href="https://acme.example/prefs" style={{ color: '#ffffff' }}>Preferences</Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
`,
};

/** The templates, written under `team/` in a folder of the test's own. */
function templates(): string {
  const directory = tempDir('loopsctl-look-team-');
  mkdirSync(join(directory, 'team'));
  for (const [name, text] of Object.entries(TEMPLATES)) writeFileSync(join(directory, 'team', name), text);
  return directory;
}

describeLooks('emails written as teams write them', /\.(mjml|tsx)$/, templates, (looks) => {
  expect(looks.filter((look) => look.unmatched > 0).map((look) => look.file)).toEqual([]);
  expect(counts(looks)).toMatchInlineSnapshot(`
    {
      "team/classes.mjml": "colours 7/8 (model 7/8), positions 6/6 (model 7/7)",
      "team/newsletter.mjml": "colours 11/12 (model 10/11), positions 9/9 (model 9/9)",
      "team/product.tsx": "colours 8/8 (model 7/7), positions 4/6 (model 5/6)",
      "team/receipt.mjml": "colours 10/10 (model 9/9), positions 8/8 (model 8/8)",
      "team/tailwind.tsx": "colours 8/8 (model 7/7), positions 6/6 (model 6/6)",
      "team/welcome.tsx": "colours 8/8 (model 7/7), positions 5/6 (model 5/6)",
    }
  `);
  expect(readableWords(looks)).toMatchInlineSnapshot(`
    {
      "team/classes.mjml": "600 37 → 37, 375 37 → 37 (fidelity 37/37)",
      "team/newsletter.mjml": "600 55 → 55, 375 55 → 55 (fidelity 55/55)",
      "team/product.tsx": "600 30 → 30, 375 30 → 30 (fidelity 30/30)",
      "team/receipt.mjml": "600 39 → 39, 375 39 → 39 (fidelity 39/39)",
      "team/tailwind.tsx": "600 48 → 48, 375 48 → 48 (fidelity 48/48)",
      "team/welcome.tsx": "600 32 → 32, 375 32 → 32 (fidelity 42/42)",
    }
  `);
  expect(uncountedLosses(looks)).toEqual([]);
});
