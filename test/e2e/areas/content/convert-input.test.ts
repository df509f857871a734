/**
 * `content convert` on what it is given: each source's variables by the kind of email, the
 * template logic it lists, a partial that becomes a component, and bad input refused with the
 * file and the place named, nothing written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';
import { type McpRun, startMcp } from '../../../support/mcp.js';

/** A directory holding these files; returns its path. */
function sources(files: Record<string, string | Buffer>): string {
  const root = tempDir('loopsctl-convert-src-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

async function convert(source: string, ...options: string[]) {
  const out = join(tempDir('loopsctl-convert-out-'), 'loops');
  const result = await run(['content', 'convert', source, '--out', out, ...options]);
  return { out, result, json: () => JSON.parse(result.stdout) };
}

/** One email of these lines, converted with --json; the run must succeed. */
async function convertedEmail(name: string, lines: string[]) {
  const made = await convert(join(sources({ [name]: lines.join('\n') }), name), '--json');
  expect(made.result.code, made.result.stderr).toBe(0);
  return made;
}

const MJML = (body: string, head = '') =>
  `<mjml><mj-head><mj-title>Welcome, {{ customer.first_name }}</mj-title>${head}</mj-head><mj-body>${body}</mj-body></mjml>`;
const TEXT = (html: string) => `<mj-section><mj-column><mj-text>${html}</mj-text></mj-column></mj-section>`;

describe('content convert: variables by the kind of email', () => {
  const source = () =>
    sources({
      'welcome.mjml': MJML(TEXT('<p>Hi {{ customer.first_name }}, your order {{order_id}} ships to {{ email }}.</p><p>Hello *|FNAME|*</p>')),
    });

  it('a transactional email takes the send’s data only', async () => {
    const { out, result, json } = await convert(join(source(), 'welcome.mjml'), '--json');
    expect(result.code, result.stderr).toBe(0);
    const lmx = readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8');
    expect(lmx).toMatch(/<Paragraph[^>]*>Hi \{data\.first_name\}, your order \{data\.order_id\} ships to \{data\.email\}\.<\/Paragraph>/);
    expect(lmx).toContain('Hello {data.firstName}');
    expect(JSON.parse(readFileSync(join(out, 'transactional/welcome/draft.json'), 'utf8'))).toEqual({ subject: 'Welcome, {data.first_name}' });
    expect(JSON.parse(readFileSync(join(out, 'transactional/welcome/transactional.json'), 'utf8'))).toEqual({ name: 'Welcome' });
    expect(json().records[0].variables.map((variable: { source: string; lmx: string }) => `${variable.source} -> ${variable.lmx}`)).toEqual([
      '{{ customer.first_name }} -> {data.first_name}',
      '{{order_id}} -> {data.order_id}',
      '{{ email }} -> {data.email}',
      '*|FNAME|* -> {data.firstName}',
    ]);
  });

  it('a campaign takes contact properties; a workflow email the contact’s and the event’s', async () => {
    const campaign = await convert(join(source(), 'welcome.mjml'), '--kind', 'campaign');
    expect(campaign.result.code, campaign.result.stderr).toBe(0);
    expect(readFileSync(join(campaign.out, 'campaigns/welcome/email.lmx'), 'utf8')).toContain(
      'Hi {contact.firstName}, your order {contact.orderId} ships to {contact.email}.',
    );
    expect(campaign.result.stdout).toContain('variable {{ customer.first_name }} -> {contact.firstName}: a campaign takes contact properties only');
    const workflow = await convert(join(source(), 'welcome.mjml'), '--kind', 'workflow', '--workflow', 'Onboarding');
    expect(workflow.result.code, workflow.result.stderr).toBe(0);
    expect(readFileSync(join(workflow.out, 'workflows/onboarding/emails/welcome/email.lmx'), 'utf8')).toContain(
      'Hi {contact.firstName}, your order {event.order_id} ships to {contact.email}.',
    );
    expect(readdirSync(join(workflow.out, 'workflows/onboarding/emails/welcome')).sort()).toEqual(['email.json', 'email.lmx']);
    expect(readFileSync(join(workflow.out, 'workflows/onboarding/workflow.yaml'), 'utf8')).toContain(
      'trigger:\n    type: BlankTrigger\n    next: [welcome]\n  welcome:\n    type: SendEmailAction\n    next: [exit]\n    email: emails/welcome/email.json\n',
    );
  });

  it('translates the variables of addresses and alt text, and leaves a button’s colours to the button', async () => {
    const { out, json } = await convertedEmail('reset.html', [
      '<html><body>',
      '<p>Hello, <a href="https://example.com/reset?t={{token}}" style="color:#0a66c2">reset your password</a>.</p>',
      '<a href="{{ url }}" style="background:#1d4ed8;color:#ffffff;padding:10px">Open</a>',
      '<img src="https://example.com/avatar.png" alt="{{ name }}, pictured" width="64">',
      '</body></html>',
    ]);
    const lmx = readFileSync(join(out, 'transactional/reset/draft.lmx'), 'utf8');
    // The links of the text keep their own colour: the button's white is not made every link's.
    expect(lmx).toMatch(/^<Style [^>]*textLinkColor="#0a66c2"/);
    expect(lmx).toContain('<Link href="https://example.com/reset?t={data.token}">reset your password</Link>');
    expect(lmx).toContain('<Button href="{data.url}" bgColor="#1d4ed8" textColor="#ffffff"');
    expect(lmx).toContain('alt="{data.name}, pictured"');
    // The HTML names no subject: the one thing to look at.
    expect(json().records[0].remediation).toEqual([expect.objectContaining({ line: 1, column: 1, construct: 'no subject', outcome: 'listed' })]);
  });

  it('reads MJML written for Loops’ own upload, its {name} and {DATA_VARIABLE:name}, into a record content check takes', async () => {
    // Loops' MJML and editor syntax, which LMX refuses as written (the LMX specification): a data
    // variable unprefixed or behind DATA_VARIABLE:, and an email that names a contact property in LMX's form.
    const { out, json } = await convertedEmail('index.mjml', [
      MJML(TEXT('<p>Hi {firstName}, your code is {DATA_VARIABLE:loginCode}. Plan: {contact.plan | free}. Shortcut: {ctrl:k}.</p>')),
    ]);
    const lmx = readFileSync(join(out, 'transactional/index/draft.lmx'), 'utf8');
    expect(lmx).toMatch(/>Hi \{data\.firstName\}, your code is \{data\.loginCode\}\. Plan: \{data\.plan\}\. Shortcut: \{ ctrl:k\}\.<\/Paragraph>/);
    expect(JSON.parse(readFileSync(join(out, 'transactional/index/draft.json'), 'utf8'))).toMatchObject({ dataVariablesFallbacks: { plan: 'free' } });
    expect(json().records[0].variables.map((variable: { source: string; lmx: string }) => `${variable.source} -> ${variable.lmx}`)).toEqual([
      '{firstName} -> {data.firstName}',
      '{DATA_VARIABLE:loginCode} -> {data.loginCode}',
      '{contact.plan | free} -> {data.plan}',
      // The subject's, from the title, read after the body.
      '{{ customer.first_name }} -> {data.first_name}',
    ]);
    const check = await run(['content', 'check', out]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('writes no subject or preview text from Mailchimp’s *|MC:SUBJECT|* and *|MC_PREVIEW_TEXT|*, which Mailchimp fills, and lists each', async () => {
    const { out, json } = await convertedEmail('news.html', [
      '<!doctype html><html><head><title>*|MC:SUBJECT|*</title></head><body>',
      '<span class="mcnPreviewText" style="display:none">*|MC_PREVIEW_TEXT|*</span>',
      '<p>Hello *|FNAME|*.</p>',
      '</body></html>',
    ]);
    // Neither becomes a contact property, nor an empty subject: the record is listed as having none.
    expect(JSON.parse(readFileSync(join(out, 'transactional/news/draft.json'), 'utf8'))).toEqual({});
    const listed = (json().records[0].remediation as { construct: string; outcome: string }[]).map((item) => `${item.construct}: ${item.outcome}`);
    expect(listed).toEqual(expect.arrayContaining(['*|MC:SUBJECT|*: dropped', '*|MC_PREVIEW_TEXT|*: dropped', 'no subject: listed']));
    const noSubject = (json().records[0].remediation as { construct: string; done: string }[]).find((item) => item.construct === 'no subject');
    expect(noSubject?.done).toBe(
      `the record has no subject: the source's, "*|MC:SUBJECT|*", holds nothing once its template's tags are dropped (listed), and no --subject or send gave one`,
    );
    expect(json().records[0].variables.map((variable: { source: string }) => variable.source)).toEqual(['*|FNAME|*']);
  });

  it('leaves a workflow file that is there as it was, and lists the node to add', async () => {
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const pulled = 'name: Onboarding\nmailingList: null\nroot: trigger\nnodes:\n  trigger:\n    type: BlankTrigger\n    next: []\n';
    mkdirSync(join(out, 'workflows/onboarding--cw1'), { recursive: true });
    writeFileSync(join(out, 'workflows/onboarding--cw1/workflow.yaml'), pulled);
    const result = await run([
      'content',
      'convert',
      join(source(), 'welcome.mjml'),
      '--out',
      out,
      '--kind',
      'workflow',
      '--workflow',
      'onboarding--cw1',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    // The pulled workflow's directory, named as it is, not made another slug.
    expect(readdirSync(join(out, 'workflows/onboarding--cw1/emails'))).toEqual(['welcome']);
    expect(readFileSync(join(out, 'workflows/onboarding--cw1/workflow.yaml'), 'utf8')).toBe(pulled);
    const listed = JSON.parse(result.stdout).records[0].remediation.filter(
      (item: { construct: string }) => item.construct === 'the workflow the email is sent by',
    );
    expect(listed).toEqual([
      expect.objectContaining({
        outcome: 'listed',
        todo: 'add a node to its graph, `welcome: { type: SendEmailAction, next: [], email: emails/welcome/email.json }`, and name it in the next of the node it follows',
      }),
    ]);
  });
});

describe('content convert: nothing lost in silence', () => {
  it('lists logic, filters and defaults with their places, keeps every branch’s text, and --strict exits 1', async () => {
    const root = sources({
      'receipt.html': [
        '<html><head><title>Receipt</title><style>p { color: red }</style></head><body>',
        '<p>{{#if paid}}Thanks for paying.{{else}}Please pay.{{/if}}</p>',
        '<p>Hi {{ name | default: "there" }}, total {{ total | money }}.</p>',
        '<form action="https://example.com"><p>Tell us what you think.</p></form>',
        '<script>track()</script>',
        '</body></html>',
      ].join('\n'),
    });
    const strict = await convert(join(root, 'receipt.html'), '--strict');
    expect(strict.result.code).toBe(1);
    expect(strict.result.stderr).toContain('--strict: 6 things could not be carried as they were.');
    const { out, result, json } = await convert(join(root, 'receipt.html'), '--json');
    expect(result.code, result.stderr).toBe(0);
    const listed = json().records[0].remediation.map(
      (item: { line: number; column: number; construct: string; outcome: string }) => `${item.line}:${item.column} ${item.construct} (${item.outcome})`,
    );
    expect(listed).toEqual([
      '1:35 custom CSS (<style>) (approximated)',
      '2:4 {{#if paid}} (flattened)',
      '3:7 {{ name | default: "there" }} (approximated)',
      '3:44 {{ total | money }} (dropped)',
      '4:1 a form (kept as text)',
      '5:1 a script (dropped)',
    ]);
    const lmx = readFileSync(join(out, 'transactional/receipt/draft.lmx'), 'utf8');
    expect(lmx).toContain('<Paragraph>Thanks for paying. Please pay.</Paragraph>');
    expect(lmx).toContain('<Paragraph>Hi {data.name}, total {data.total}.</Paragraph>');
    expect(lmx).toContain('<Paragraph>Tell us what you think.</Paragraph>');
    expect(lmx).not.toContain('track');
    expect(JSON.parse(readFileSync(join(out, 'transactional/receipt/draft.json'), 'utf8'))).toEqual({
      subject: 'Receipt',
      dataVariablesFallbacks: { name: 'there' },
    });
  });

  it('lists five columns and a background image, keeping their content', async () => {
    const column = (word: string) => `<mj-column><mj-text>${word}</mj-text></mj-column>`;
    const root = sources({
      'wide.mjml': MJML(`<mj-section background-url="https://example.com/bg.png">${['One', 'Two', 'Three', 'Four', 'Five'].map(column).join('')}</mj-section>`),
    });
    const { out, result, json } = await convert(join(root, 'wide.mjml'), '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(json().records[0].remediation.map((item: { construct: string }) => item.construct)).toEqual([
      'the background image https://example.com/bg.png',
      '5 columns',
      `the record's name from "Welcome, {{ customer.first_name }}"`,
      // Stacked, each column's text spans the width its row had: MJML drew them side by side.
      ...Array(5).fill('the layout of <Paragraph>'),
    ]);
    const lmx = readFileSync(join(out, 'transactional/wide/draft.lmx'), 'utf8');
    for (const word of ['One', 'Two', 'Three', 'Four', 'Five']) expect(lmx).toMatch(new RegExp(`<Paragraph[^>]*>${word}</Paragraph>`));
    expect(lmx).not.toContain('<Columns');
  });
  it('names each place an entry holds for, where one stands for several', async () => {
    const link = (name: string, colour: string) => `<a href="https://acme.example/${name}" style="color:${colour}">${name}</a>`;
    const root = sources({
      'links.mjml': [
        '<mjml><mj-head><mj-title>News</mj-title></mj-head><mj-body><mj-section><mj-column>',
        ...['guide', 'forum', 'blog'].map((name) => `<mj-text>${link(name, '#2563eb')}</mj-text>`),
        ...['privacy', 'terms'].map((name) => `<mj-text>${link(name, '#6b7280')}</mj-text>`),
        '</mj-column></mj-section></mj-body></mjml>',
      ].join('\n'),
    });
    const { result } = await convert(join(root, 'links.mjml'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `links.mjml:5:10 2 links in #6b7280: drawn in the email's link colour #2563eb (textLinkColor): LMX gives every link of an email one colour (approximated)\n    also at: 6:10\n    to do: `,
    );
    const { json } = await convert(join(root, 'links.mjml'), '--json');
    const [entry] = json().records[0].remediation.filter((item: { construct: string }) => item.construct.endsWith('in #6b7280'));
    expect(entry.also).toEqual([{ file: join(root, 'links.mjml'), line: 6, column: 10 }]);
  });
});

describe('content convert: spacing', () => {
  it('carries a spacer as the padding of the block beside it, a list’s on its first or last item', async () => {
    const spacer = (height: number) => `<mj-spacer height="${height}px" />`;
    const root = sources({
      'spaced.mjml': MJML(
        `<mj-section><mj-column>${spacer(20)}<mj-text>Hello</mj-text>${spacer(40)}<mj-text><ul><li>One</li><li>Two</li></ul></mj-text>${spacer(30)}</mj-column></mj-section>`,
      ),
    });
    const { out, result, json } = await convert(join(root, 'spaced.mjml'), '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(out, 'transactional/spaced/draft.lmx'), 'utf8')).toBe(
      // MJML's own spacing counted in: the section's 20 px and the text's 10 px, less the 16 px LMX leaves between blocks;
      // the text's 25 px at each side, which every block has, is the body's; a list's items stand a browser's 40 px in, 24 of them LMX's own.
      '<Style textBaseColor="#000000" bodyXPadding="25" />\n<Paragraph paddingTop="50">Hello</Paragraph>\n<UnorderedList>\n  <ListItem paddingTop="44" paddingLeft="16">One</ListItem>\n  <ListItem paddingBottom="60" paddingLeft="16">Two</ListItem>\n</UnorderedList>\n',
    );
    // The LMX checks clean: no attribute a block does not take; the one entry is the name its title gives, without its variable.
    expect(json().records[0].remediation.map((item: { construct: string }) => item.construct)).toEqual([
      `the record's name from "Welcome, {{ customer.first_name }}"`,
    ]);
  });
});

describe('content convert: MJML partials', () => {
  it('makes a partial that several emails include one component, and inlines one used once', async () => {
    const root = sources({
      'partials/footer.mjml': TEXT('<p>Acme Inc, 1 Main Street</p>'),
      'partials/hero.mjml': TEXT('<h1>Big news</h1>'),
      'welcome.mjml': MJML(`${TEXT('<p>Welcome aboard.</p>')}<mj-include path="./partials/hero.mjml" /><mj-include path="partials/footer.mjml" />`),
      'goodbye.mjml': MJML(`${TEXT('<p>Sorry to see you go.</p>')}<mj-include path="./partials/footer.mjml" />`),
    });
    const { out, result, json } = await convert(root, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(json().records.map((record: { path: string }) => record.path)).toEqual([
      'components/partials-footer',
      'transactional/goodbye',
      'transactional/welcome',
    ]);
    expect(readFileSync(join(out, 'components/partials-footer/component.lmx'), 'utf8')).toBe(
      '<Paragraph paddingTop="30" paddingBottom="30" paddingLeft="25" paddingRight="25">Acme Inc, 1 Main Street</Paragraph>\n',
    );
    // The component keeps its own padding: the body's would add to it.
    expect(readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8')).toBe(
      [
        '<Style textBaseColor="#000000" heading1Color="#000000" />',
        '<Paragraph paddingTop="30" paddingBottom="14" paddingLeft="25" paddingRight="25">Welcome aboard.</Paragraph>',
        '<H1 paddingTop="30" paddingBottom="14" paddingLeft="25" paddingRight="25">Big news</H1>',
        '<Component componentId="partials-footer" />',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(out, 'transactional/goodbye/draft.lmx'), 'utf8')).toContain('<Component componentId="partials-footer" />');
  });

  it('writes out a partial included in a section or a column where it stands, however many emails include it', async () => {
    const root = sources({
      'partials/signature.mjml': '<mj-text>The Acme team</mj-text>',
      'partials/aside.mjml': '<mj-column><mj-text>Questions? Reply to this email.</mj-text></mj-column>',
      'welcome.mjml': MJML(
        '<mj-section><mj-column><mj-text>Welcome aboard.</mj-text><mj-include path="partials/signature.mjml" /></mj-column><mj-include path="partials/aside.mjml" /></mj-section>',
      ),
      'partials/note.html': '<p>Sent with care.</p>',
      'goodbye.mjml': MJML(
        '<mj-wrapper><mj-section><mj-column><mj-text>Sorry to see you go.</mj-text><mj-include path="partials/signature.mjml" /><mj-include path="partials/note.html" type="html" /></mj-column></mj-section></mj-wrapper>',
      ),
    });
    const { out, result, json } = await convert(root, '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(json().records.map((record: { path: string }) => record.path)).toEqual(['transactional/goodbye', 'transactional/welcome']);
    const welcome = readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8');
    for (const sentence of ['Welcome aboard.', 'The Acme team', 'Questions? Reply to this email.'])
      expect(welcome).toMatch(new RegExp(`<Paragraph[^>]*>${sentence.replace('?', '\\?')}</Paragraph>`));
    expect(welcome).toContain('<Columns');
    // An HTML partial is read with the email that includes it, not converted as an email of its own.
    expect(readFileSync(join(out, 'transactional/goodbye/draft.lmx'), 'utf8')).toContain(
      '<Paragraph paddingTop="4" paddingLeft="25" paddingRight="25">The Acme team</Paragraph>\n<Paragraph paddingBottom="40">Sent with care.</Paragraph>',
    );
  });

  it('pushed with its component: the emails keep its name in the files and are sent with the id the account gave it', async () => {
    const server = await startTestSandbox();
    try {
      const env = sandboxEnv(server);
      const out = join(tempDir('loopsctl-convert-out-'), 'loops');
      expect((await run(['content', 'pull', out, '--only', 'components,transactional'], { env })).code).toBe(0);
      const root = sources({
        'partials/footer.mjml': TEXT('<p>Acme Inc, 1 Main Street</p>'),
        // Named apart, and apart from the sandbox's own "Welcome": a name holds no variables, so the titles' are taken out.
        'welcome.mjml': MJML(`${TEXT('<p>Welcome aboard.</p>')}<mj-include path="partials/footer.mjml" />`).replace(
          '<mj-title>Welcome,',
          '<mj-title>Welcome aboard,',
        ),
        'goodbye.mjml': MJML(`${TEXT('<p>Sorry to see you go.</p>')}<mj-include path="partials/footer.mjml" />`).replace(
          '<mj-title>Welcome,',
          '<mj-title>Goodbye,',
        ),
      });
      expect((await run(['content', 'convert', root, '--out', out])).code).toBe(0);
      const only = ['--only', 'components,transactional'];
      // A plan file cannot hold the id of a component the same plan makes: the account gives it only once it is made.
      const file = join(dirname(out), 'change.json');
      const refused = await run(['content', 'push', out, ...only, '--plan', '--out', file], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/transactional\/(goodbye|welcome): names components\/partials-footer, which this plan makes/);
      expect(refused.stderr).toContain('`loopsctl content push --only components,themes`');
      expect(existsSync(file)).toBe(false);
      // One push makes the component, then the emails that name it.
      const push = await run(['content', 'push', out, ...only, '--yes', '--json'], { env });
      expect(push.code, push.stderr + push.stdout).toBe(0);
      const created = (JSON.parse(push.stdout).records as { path: string; status: string }[]).filter((line) => line.status === 'created');
      expect(created.map((line) => line.path)).toEqual(['components/partials-footer', 'transactional/goodbye', 'transactional/welcome']);
      const listed = JSON.parse((await run(['components', 'list', '--json'], { env })).stdout) as { id: string; name: string }[];
      const footer = listed.find((component) => component.name === 'partials/footer')!;
      expect(footer).toBeDefined();
      // The files name the component by its directory, as they did: the same in every account.
      for (const email of ['welcome', 'goodbye'])
        expect(readFileSync(join(out, `transactional/${email}/draft.lmx`), 'utf8')).toContain('<Component componentId="partials-footer" />');
      // What the account holds names the component by its id.
      const sent = JSON.parse((await run(['transactional', 'list', '--json'], { env })).stdout) as { name: string; draftEmailMessageId: string | null }[];
      const welcome = sent.find((email) => email.name.startsWith('Welcome'))!;
      const message = JSON.parse((await run(['email-messages', 'get', welcome.draftEmailMessageId!, '--json'], { env })).stdout) as { lmx: string };
      expect(message.lmx).toContain(`<Component componentId="${footer.id}" />`);
      // In step: a diff finds nothing, a pull writes nothing, and the tree checks clean.
      const diff = await run(['content', 'diff', out, ...only], { env });
      expect(diff.code, diff.stdout).toBe(0);
      const pull = await run(['content', 'pull', out, ...only, '--json'], { env });
      expect(pull.code, pull.stderr).toBe(0);
      expect((JSON.parse(pull.stdout).records as { status: string }[]).every((line) => line.status === 'unchanged')).toBe(true);
      const check = await run(['content', 'check', out]);
      expect(check.code, check.stdout + check.stderr).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('content convert: bad input', () => {
  const refused = async (source: string, message: string | RegExp) => {
    const { out, result } = await convert(source);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  };

  it('refuses a file that is not what its extension says, naming it', async () => {
    const root = sources({ 'welcome.html': '{"subject": "Welcome"}', 'logo.mjml': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff]) });
    await refused(join(root, 'welcome.html'), `${join(root, 'welcome.html')}: not HTML`);
    await refused(join(root, 'logo.mjml'), `${join(root, 'logo.mjml')}: not a text file`);
    const renamed = sources({
      'welcome.html': `<!-- built by hand -->\n  ${MJML(TEXT('<p>Hi</p>'))}`,
      'invite.html': "// Invite\nimport { Html, Text } from '@react-email/components';\nexport default () => <Html><Text>Hi</Text></Html>;",
    });
    await refused(join(renamed, 'welcome.html'), `${join(renamed, 'welcome.html')}:2:3: not HTML: MJML (an <mjml> element)`);
    await refused(join(renamed, 'invite.html'), `${join(renamed, 'invite.html')}:2:1: not HTML: a JavaScript module (an import or export)`);
    const react = sources({ 'email.tsx': 'export default function Page() { return <div>Hello</div>; }' });
    await refused(join(react, 'email.tsx'), 'not a React Email template (it imports nothing from @react-email/components or react-email)');
    const broken = sources({ 'email.tsx': "import { Text } from '@react-email/components';\nexport default () => <Text>Hi</Tex>;" });
    await refused(join(broken, 'email.tsx'), `${join(broken, 'email.tsx')}:2:`);
  });

  it('says of a saved message (.eml) to convert its HTML part, which `content check --html` judges as it is', async () => {
    const root = sources({ 'receipt.eml': 'Subject: Your receipt\nContent-Type: text/html\n\n<p>Thanks</p>\n' });
    const { result } = await convert(join(root, 'receipt.eml'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(root, 'receipt.eml')}: not an email file convert reads`);
    expect(result.stderr).toContain('a saved message: save its HTML part as an .html file and convert that');
  });

  it('names the JSX library a template is built with when it is not React Email, and how to convert it', async () => {
    // jsx-email's starter template (create-jsx-email): its components are its own, its Button another's.
    const root = sources({
      'jsx-email.tsx':
        'import { Body, Button, Html } from \'jsx-email\';\nexport const Template = ({ name }) => <Html><Body><Button width={160} href="https://example.com">Hi {name}</Button></Body></Html>;',
      'mjml-react.tsx': "import { Mjml, MjmlBody } from '@faire/mjml-react';\nexport default () => <Mjml><MjmlBody /></Mjml>;",
    });
    await refused(
      join(root, 'jsx-email.tsx'),
      /jsx-email\.tsx: a jsx-email template, not React Email's[\s\S]*Hint: build it to HTML with jsx-email's CLI \(npx email build/,
    );
    await refused(
      join(root, 'mjml-react.tsx'),
      /mjml-react\.tsx: a mjml-react template, not React Email's[\s\S]*Hint: render it to MJML or HTML with mjml-react's render/,
    );
  });

  it('refuses MJML that MJML would refuse, naming the place', async () => {
    const root = sources({
      'open.mjml': '<mjml><mj-body>\n  <mj-section>\n</mj-body></mjml>',
      'root.mjml': '<mj-body></mj-body>',
      'unknown.mjml': MJML('<mj-section><mj-column><mj-paragraph>Hi</mj-paragraph></mj-column></mj-section>'),
      'misplaced.mjml': MJML('<mj-column><mj-text>Hi</mj-text></mj-column>'),
    });
    await refused(join(root, 'open.mjml'), `${join(root, 'open.mjml')}:2:3: <mj-section> is never closed (the closing tag at 3:1 closes its parent)`);
    await refused(join(root, 'root.mjml'), 'no <mjml> root element');
    await refused(join(root, 'unknown.mjml'), '<mj-paragraph> is not an MJML element');
    await refused(join(root, 'misplaced.mjml'), '<mj-column> cannot stand in <mj-body>');
  });

  it('refuses an element where MJML would not take it, whose content would otherwise be lost', async () => {
    const root = sources({
      'text.mjml': MJML('<mj-section>\n  <mj-text>Hi</mj-text></mj-section>'),
      'link.mjml': MJML('<mj-section><mj-column><mj-navbar-link href="https://example.com">Shop</mj-navbar-link></mj-column></mj-section>'),
      'head.mjml': MJML('<mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section>', '<mj-section></mj-section>'),
      'social.mjml': MJML('<mj-section><mj-column><mj-social><mj-text>Follow us</mj-text></mj-social></mj-column></mj-section>'),
      'roots.mjml': `${MJML(TEXT('Hi'))}\n${MJML(TEXT('Bye'))}`,
      'bodies.mjml': `<mjml><mj-body>${TEXT('Hi')}</mj-body>\n<mj-body>${TEXT('Bye')}</mj-body></mjml>`,
      'partial.mjml': MJML('<mj-include path="parts/text.mjml" />'),
      'parts/text.mjml': '<mj-text>Hi</mj-text>',
    });
    await refused(join(root, 'text.mjml'), `${join(root, 'text.mjml')}:2:3: <mj-text> cannot stand in <mj-section>`);
    await refused(join(root, 'text.mjml'), 'put it in <mj-column> or <mj-hero>');
    await refused(join(root, 'link.mjml'), '<mj-navbar-link> cannot stand in <mj-column>');
    await refused(join(root, 'head.mjml'), '<mj-section> cannot stand in <mj-head>');
    await refused(join(root, 'social.mjml'), '<mj-text> cannot stand in <mj-social>');
    await refused(join(root, 'roots.mjml'), `${join(root, 'roots.mjml')}:2:1: <mjml> stands outside the <mjml> root`);
    await refused(join(root, 'bodies.mjml'), `${join(root, 'bodies.mjml')}:2:1: <mj-body> cannot stand in <mjml> a second time`);
    await refused(join(root, 'partial.mjml'), `${join(root, 'parts/text.mjml')}:1:1: <mj-text> cannot stand in <mj-body>`);
  });

  it('refuses an include outside the directory or through a link, as content trees are', async () => {
    const outside = sources({ 'secret.mjml': TEXT('<p>secret</p>') });
    const root = sources({ 'welcome.mjml': MJML(`\n<mj-include path="../${outside.split('/').at(-1)}/secret.mjml" />`) });
    await refused(join(root, 'welcome.mjml'), `${join(root, 'welcome.mjml')}:2:1: <mj-include path="../`);
    await refused(join(root, 'welcome.mjml'), 'names a file outside');
    const linked = sources({ 'welcome.mjml': MJML('<mj-include path="footer.mjml" />') });
    symlinkSync(join(outside, 'secret.mjml'), join(linked, 'footer.mjml'));
    await refused(join(linked, 'welcome.mjml'), 'symbolic link');
    await refused(join(linked, 'welcome.mjml'), `${join(linked, 'welcome.mjml')}:1:`);
  });

  it('refuses an include of a file that is not there, or one that includes itself, naming the include', async () => {
    const root = sources({
      'welcome.mjml': MJML('\n<mj-include path="partials/footer" />'),
      'loop.mjml': MJML('\n<mj-include path="loop.mjml" />'),
    });
    await refused(
      join(root, 'welcome.mjml'),
      `${join(root, 'welcome.mjml')}:2:1: <mj-include path="partials/footer">: ${join(root, 'partials/footer.mjml')}: no such file`,
    );
    await refused(join(root, 'loop.mjml'), `${join(root, 'loop.mjml')}:2:1: <mj-include> nested more than 20 deep`);
    const circle = sources({ 'a.mjml': MJML('<mj-include path="b.mjml" />'), 'b.mjml': MJML('<mj-include path="a.mjml" />') });
    await refused(circle, `${circle}: no email to convert: each MJML file is a partial another includes`);
  });

  it('refuses a directory that holds a link, and a link named as the source', async () => {
    const outside = sources({ 'secret.html': '<html><body><p>Secret</p></body></html>' });
    const root = sources({ 'welcome.html': '<html><body><p>Hello</p></body></html>' });
    symlinkSync(join(outside, 'secret.html'), join(root, 'linked.html'));
    await refused(root, `${join(root, 'linked.html')} is a symbolic link: convert never reads through a link`);
    await refused(join(root, 'linked.html'), `${join(root, 'linked.html')} is a symbolic link`);
  });

  it('lists what a React template needs the app for, runs none of its code, and writes the file’s own components in place', async () => {
    const marker = join(tempDir('loopsctl-convert-marker-'), 'ran');
    const { out, json } = await convertedEmail('welcome.tsx', [
      "import { Body, Html, Text } from '@react-email/components';",
      "import { Header } from './header';",
      `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');`,
      'const Footer = () => <Text>Acme Inc, 1 Main Street</Text>;',
      'function Signature() {',
      '  return (<><Text>Thanks,</Text><Text>The Acme team</Text></>);',
      '}',
      'const Again = () => <Again />;',
      'export default function Welcome({ name }) {',
      '  return (<Html><Body><Header /><Text>Hi {name}, it is {formatDate(new Date())}.</Text>',
      '    <Signature /><Footer /><Again /></Body></Html>);',
      '}',
    ]);
    expect(existsSync(marker)).toBe(false);
    expect(
      json().records[0].remediation.map(
        (item: { line: number; column: number; construct: string; outcome: string }) => `${item.line}:${item.column} ${item.construct} (${item.outcome})`,
      ),
    ).toEqual([
      '10:23 <Header>, a component of the app (listed)',
      '10:57 the expression formatDate(…) (dropped)',
      '11:5 <Signature>, a component of this file (flattened)',
      '11:18 <Footer>, a component of this file (flattened)',
      '11:28 <Again>, a component of this file (flattened)',
      '8:21 <Again>, a component of the app (listed)',
      '1:1 no subject (listed)',
    ]);
    expect(readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8')).toBe(
      [
        // React Email's <Text> is 14 px on 24 px lines where its style says nothing; a browser's 8 px around the body is the body's padding.
        '<Style textBaseColor="#000000" textBaseFontSize="14" bodyXPadding="8" />',
        '<Paragraph lineHeight="171">Hi {data.name}, it is .</Paragraph>',
        '<Paragraph lineHeight="171">Thanks,</Paragraph>',
        '<Paragraph lineHeight="171">The Acme team</Paragraph>',
        '<Paragraph lineHeight="171">Acme Inc, 1 Main Street</Paragraph>',
        '',
      ].join('\n'),
    );
  });

  it('refuses an HTML page of 10 MB without reading it', async () => {
    const root = sources({ 'huge.html': `<html><body>${'<p>word</p>'.repeat(1_000_000)}</body></html>` });
    await refused(join(root, 'huge.html'), /huge\.html is \d+ bytes, more than convert reads of an email \(2 MB\); it was not read/);
  });

  it('writes nothing over a record that is there unless --force', async () => {
    const root = sources({ 'welcome.html': '<html><body><p>Hello</p></body></html>' });
    const first = await convert(join(root, 'welcome.html'));
    expect(first.result.code, first.result.stderr).toBe(0);
    const again = await run(['content', 'convert', join(root, 'welcome.html'), '--out', first.out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${join(first.out, 'transactional/welcome')} already exists: nothing was written`);
    const forced = await run(['content', 'convert', join(root, 'welcome.html'), '--out', first.out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
  });
});

describe('content convert --upload', () => {
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 7)]);
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  async function sandbox() {
    const seen: ApiRequest[] = [];
    const server = await startTestSandbox({ onRequest: (request) => seen.push(request) });
    closers.push(() => server.close());
    return { seen, env: sandboxEnv(server) };
  }
  const email = () =>
    sources({
      'welcome.html': [
        '<html><body>',
        '<img src="images/logo.png" alt="Logo">',
        '<p>Hello</p>',
        '<img src="images/logo.png" alt="Logo again">',
        '<img src="missing.png" alt="Missing">',
        '<img src="notes.png" alt="Notes">',
        '</body></html>',
      ].join('\n'),
      'images/logo.png': PNG,
      'notes.png': 'not an image',
    });

  it('uploads each image the email names beside it once, points the email at it, and lists those it could not', async () => {
    const { seen, env } = await sandbox();
    const source = email();
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', join(source, 'welcome.html'), '--out', out, '--upload', '--json'], { env });
    // An image --upload could not carry fails the run, --strict or not; the JSON lists why.
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('');
    expect(seen.map((request) => `${request.method} ${request.path.replace(/c[0-9a-z]{24}/, ':id')}`)).toEqual([
      'POST /v1/uploads',
      'PUT /sandbox-uploads/:id',
      'POST /v1/uploads/:id/complete',
    ]);
    expect(seen[1]!.rawBody?.equals(PNG)).toBe(true);
    const id = seen[2]!.path.split('/')[3]!;
    const lmx = readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8');
    expect(lmx.match(/<Image src="[^"]*"/g)).toEqual([
      `<Image src="https://assets.sandbox.invalid/${id}.png"`,
      `<Image src="https://assets.sandbox.invalid/${id}.png"`,
      '<Image src="missing.png"',
      '<Image src="notes.png"',
    ]);
    const listed = JSON.parse(result.stdout).records[0].remediation.filter((item: { construct: string }) => item.construct.startsWith('--upload'));
    expect(listed.map((item: { line: number; construct: string; done: string }) => `${item.line} ${item.construct}: ${item.done}`)).toEqual([
      '5 --upload missing.png: not uploaded: no such file',
      '6 --upload notes.png: not uploaded: not an image the API takes (image/jpeg, image/png, image/gif, image/webp)',
    ]);
  });

  it('gives an image of no width the width its file has, where the source draws it at its own size; one 100% wide keeps none', async () => {
    const { env } = await sandbox();
    // A PNG's signature and header: 160 pixels wide, 40 high.
    const header = Buffer.alloc(25);
    header.write('\x00\x00\x00\x0dIHDR', 8, 'latin1');
    header.writeUInt32BE(160, 16);
    header.writeUInt32BE(40, 20);
    const logo = Buffer.concat([PNG.subarray(0, 8), header.subarray(8), Buffer.alloc(64, 7)]);
    const source = sources({
      'welcome.html': [
        '<html><body>',
        '<img src="logo.png" alt="Acme" style="display:block">',
        '<p>Welcome to Acme.</p>',
        '<img src="logo.png" alt="Acme, again" style="display:block;width:100%">',
        '</body></html>',
      ].join('\n'),
      'logo.png': logo,
    });
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', join(source, 'welcome.html'), '--out', out, '--upload', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const lmx = readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8');
    expect(lmx.match(/<Image [^>]*\/>/g)?.map((image) => image.replace(/ src="[^"]*"/, ''))).toEqual([
      '<Image alt="Acme" align="left" width="160" />',
      '<Image alt="Acme, again" align="left" />',
    ]);
    const record = JSON.parse(result.stdout).records[0];
    expect(record.fidelity.positions).toEqual({ source: 3, kept: 3 });
  });

  /** A loopback image host: an image, a page posing as one (by its type, and by its name only), a 404, a redirect to a file: address, one to the image, and an answer too large. */
  async function imageHost() {
    const seen: { path: string; headers: Record<string, unknown> }[] = [];
    const server = createServer((request, response) => {
      seen.push({ path: request.url ?? '', headers: request.headers });
      const page = '<!doctype html><html><body>Not an image</body></html>';
      switch (request.url) {
        case '/hero.png':
          return response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        case '/moved.png':
          return response.writeHead(302, { location: '/hero.png' }).end();
        case '/page.png':
          return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        case '/posing.png':
          return response.writeHead(200, { 'content-type': 'image/png' }).end(page);
        case '/elsewhere.png':
          return response.writeHead(301, { location: 'file:///etc/passwd' }).end();
        case '/huge.png':
          // Said by its length, and sent: the download stops at the header.
          response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(4_000_001) });
          return response.end(Buffer.concat([PNG, Buffer.alloc(4_000_001 - PNG.length)]));
        default:
          return response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { seen, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('downloads http(s) images, uploads those that are images, and lists the others with their addresses', async () => {
    const { seen, env } = await sandbox();
    const host = await imageHost();
    const names = ['hero', 'moved', 'page', 'posing', 'missing', 'elsewhere', 'huge'];
    const source = sources({
      'welcome.html': [
        '<html><body>',
        ...names.map((name) => `<img src="${host.origin}/${name}.png" alt="${name}">`),
        '<img src="ftp://files.example.com/logo.png" alt="ftp">',
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline">',
        '</body></html>',
      ].join('\n'),
    });
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    // The image host is on loopback: fetched only as the person allows.
    const result = await run(['content', 'convert', join(source, 'welcome.html'), '--out', out, '--upload', '--allow-private-links', '--json'], { env });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('');
    // The image host got no key, nor any header of the API's: only what a browser would send.
    expect(host.seen.map((request) => request.path)).toEqual([
      '/hero.png',
      '/moved.png',
      '/hero.png',
      '/page.png',
      '/posing.png',
      '/missing.png',
      '/elsewhere.png',
      '/huge.png',
    ]);
    for (const request of host.seen) {
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(env.LOOPS_API_KEY);
    }
    // Each address is downloaded and uploaded once: hero.png, and moved.png, which the redirect led to the same image.
    expect(seen.map((request) => `${request.method} ${request.path.replace(/c[0-9a-z]{24}/, ':id')}`)).toEqual([
      'POST /v1/uploads',
      'PUT /sandbox-uploads/:id',
      'POST /v1/uploads/:id/complete',
      'POST /v1/uploads',
      'PUT /sandbox-uploads/:id',
      'POST /v1/uploads/:id/complete',
    ]);
    expect(seen[1]!.rawBody?.equals(PNG)).toBe(true);
    const ids = [seen[2]!, seen[5]!].map((request) => request.path.split('/')[3]!);
    const lmx = readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8');
    expect(lmx.match(/<Image src="[^"]*"/g)).toEqual([
      `<Image src="https://assets.sandbox.invalid/${ids[0]}.png"`,
      `<Image src="https://assets.sandbox.invalid/${ids[1]}.png"`,
      ...['page', 'posing', 'missing', 'elsewhere', 'huge'].map((name) => `<Image src="${host.origin}/${name}.png"`),
      '<Image src="ftp://files.example.com/logo.png"',
      '<Image src="data:image/png;base64,iVBORw0KGgo="',
    ]);
    const listed = JSON.parse(result.stdout).records[0].remediation.filter((item: { construct: string }) => item.construct.startsWith('--upload'));
    expect(listed.map((item: { construct: string; done: string }) => `${item.construct}: ${item.done}`)).toEqual([
      `--upload ${host.origin}/page.png: not uploaded: the answer is text/html, not an image`,
      `--upload ${host.origin}/posing.png: not uploaded: the answer says image/png, but its first bytes are not those of any of image/jpeg, image/png, image/gif, image/webp`,
      `--upload ${host.origin}/missing.png: not uploaded: GET ${host.origin}/missing.png: the image’s host refused it (HTTP 404, content-type text/plain, body starts "not found")`,
      `--upload ${host.origin}/elsewhere.png: not uploaded: GET ${host.origin}/elsewhere.png: redirected to file:…: a file: address (only http and https are followed); not followed`,
      `--upload ${host.origin}/huge.png: not uploaded: the answer is larger than the 4000000 bytes the API takes`,
      '--upload ftp://files.example.com/logo.png: not uploaded: a ftp: address; convert downloads images over http(s) only',
      '--upload data:image/png;base64,iVBORw0KGgo=: not uploaded: a data: address; convert downloads images over http(s) only',
    ]);
  });

  it('lists an image whose upload the API refuses, writes the records, and exits 1, --strict or not', async () => {
    // An API that refuses every upload, as one refuses an image its plan does not take.
    const asked: string[] = [];
    const api = createServer((request, response) => {
      asked.push(`${request.method} ${request.url}`);
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, message: 'This image cannot be stored' }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => api.close(() => resolve())));
    const env = { LOOPS_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`, LOOPS_API_KEY: 'fake-key-for-a-refusing-api' };
    const source = email();
    for (const strict of [false, true]) {
      const out = join(tempDir('loopsctl-convert-out-'), 'loops');
      const result = await run(['content', 'convert', join(source, 'welcome.html'), '--out', out, '--upload', '--json', ...(strict ? ['--strict'] : [])], {
        env,
      });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toBe('');
      expect(readFileSync(join(out, 'transactional/welcome/draft.lmx'), 'utf8')).toContain('<Image src="images/logo.png"');
      const listed = JSON.parse(result.stdout).records[0].remediation.filter((item: { construct: string }) => item.construct === '--upload images/logo.png');
      expect(listed.map((item: { file: string; line: number; done: string }) => `${item.file}:${item.line} ${item.done}`)).toEqual([
        `${join(source, 'welcome.html')}:2 not uploaded: the API refused it: This image cannot be stored`,
        `${join(source, 'welcome.html')}:4 not uploaded: the API refused it: This image cannot be stored`,
      ]);
    }
    // Without --json, the run says why it failed.
    const text = await run(['content', 'convert', join(source, 'welcome.html'), '--out', join(tempDir('loopsctl-convert-out-'), 'loops'), '--upload'], { env });
    expect(text.code, text.stderr).toBe(1);
    expect(text.stderr).toContain('--upload: 4 images could not be uploaded; each is listed with why.');
    // Nothing but the uploads' first call: no file was sent to storage.
    expect(asked.every((request) => request === 'POST /v1/uploads')).toBe(true);
  });

  it('uploads nothing when a record is in the way, or an email of the directory is refused, and nothing without --upload', async () => {
    const { seen, env } = await sandbox();
    const source = email();
    const first = await convert(join(source, 'welcome.html'));
    expect(first.result.code, first.result.stderr).toBe(0);
    const again = await run(['content', 'convert', join(source, 'welcome.html'), '--out', first.out, '--upload'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists: nothing was written');
    // welcome.html's images come before zz-broken.mjml, which MJML would refuse.
    writeFileSync(join(source, 'zz-broken.mjml'), '<mjml><mj-body><mj-section></mj-body></mjml>');
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const refused = await run(['content', 'convert', source, '--out', out, '--upload'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${join(source, 'zz-broken.mjml')}:1:16: <mj-section> is never closed`);
    expect(existsSync(out)).toBe(false);
    expect(seen).toEqual([]);
  });
});

describe('the MCP tool content_convert', () => {
  const running: McpRun[] = [];
  afterEach(async () => {
    for (const mcp of running.splice(0)) await mcp.close();
  });

  it('reads and writes only under the root the server was given', async () => {
    const root = sources({ 'emails/welcome.html': '<html><body><p>Hello</p></body></html>' });
    const outside = sources({ 'welcome.html': '<html><body><p>Secret</p></body></html>' });
    const mcp = await startMcp(['--sandbox', '--root', root], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
    running.push(mcp);
    type Answer = { isError?: boolean; structuredContent?: { error?: { exitCode: number; message: string } } };
    const refused = (await mcp.client.callTool({ name: 'content_convert', arguments: { source: join(outside, 'welcome.html') } })) as Answer;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent?.error).toMatchObject({ exitCode: 2, message: expect.stringContaining('is outside the directory this server may use') });
    const escaping = (await mcp.client.callTool({ name: 'content_convert', arguments: { source: 'emails/welcome.html', out: '../loops' } })) as Answer;
    expect(escaping.structuredContent?.error).toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('"../loops" is outside the directory this server may use'),
    });
    const converted = (await mcp.client.callTool({ name: 'content_convert', arguments: { source: 'emails/welcome.html', out: 'loops' } })) as Answer;
    expect(converted.isError, JSON.stringify(converted)).toBeFalsy();
    expect(readFileSync(join(root, 'loops/transactional/welcome/draft.lmx'), 'utf8')).toMatch(/<Paragraph>Hello<\/Paragraph>\n$/);
  });
});

describe('content convert on a terminal', () => {
  it('wraps what it prints to the terminal, and a pipe gets each line whole', async () => {
    const root = sources({ 'order-shipped-and-delivered.mjml': MJML(TEXT('<p>Hi {{ customer.first_name }}, order {{ order_id }} shipped.</p>')) });
    const source = join(root, 'order-shipped-and-delivered.mjml');
    const out = join(tempDir('loopsctl-convert-out-'), 'a-directory-with-a-rather-long-name');
    const onTerminal = await run(['content', 'convert', source, '--out', out], { tty: { columns: 60 } });
    expect(onTerminal.code, onTerminal.stderr).toBe(0);
    const lines = onTerminal.stdout
      .replace(/\u001b\[[\d;]*m/g, '')
      .trimEnd()
      .split('\n');
    // Only a word longer than the terminal (a temporary directory's path) stands past it, alone on its line.
    expect(lines.filter((line) => [...line].length > 60 && /\S\s+\S/.test(line.trim()))).toEqual([]);
    expect(lines.length).toBeGreaterThan(3);
    const piped = await run(['content', 'convert', source, '--out', join(tempDir('loopsctl-convert-out-'), 'loops')]);
    expect(piped.stdout.split('\n')[0]).toMatch(/order-shipped-and-delivered\.mjml -> .*\(transactional\.json, draft\.json, draft\.lmx\)$/);
  });
});
