/**
 * LMX written from the published specification, rule by rule: for each rule, documents that keep
 * it and documents that break it, with the problems they must raise (rules in source order). The
 * validator's unit tests check the expectations; the end-to-end tests check that the sandbox and
 * `content check` agree on every case. A file that is not UTF-8 is a matter of bytes, not of a
 * string: `content check`'s tests cover it.
 */
import { seedId } from '../../src/emulator/module.js';
import { LMX_TAGS, type LmxKind, type LmxRule } from '../../src/lmx/index.js';

/** Every attribute <Style /> takes but its theme. */
const STYLE_NAMES = Object.keys(LMX_TAGS.get('Style')!.attributes).filter((name) => name !== 'themeId');

/** A component the seed has: <Component> cases name it, and a tree of the seed's components holds it. */
export const KNOWN_COMPONENT = seedId('component/Footer');

export interface CorpusCase {
  lmx: string;
  /** campaign unless said. */
  kind?: LmxKind;
  errors?: LmxRule[];
  warnings?: LmxRule[];
}

export interface RuleCases {
  rule: LmxRule;
  valid: CorpusCase[];
  invalid: CorpusCase[];
}

const paragraph = (inner: string) => `<Paragraph>${inner}</Paragraph>`;
const items = (count: number, item: string) => Array.from({ length: count }, () => item).join('\n');
const columns = (count: number) => `<Columns>\n${items(count, '<ColumnItem><Paragraph>x</Paragraph></ColumnItem>')}\n</Columns>`;
const icons = (count: number) => `<Icons>\n${items(count, '<Icon name="github" href="https://github.com/acme" />')}\n</Icons>`;
const nested = (depth: number) => `<Paragraph>${'<Strong>'.repeat(depth)}deep${'</Strong>'.repeat(depth)}</Paragraph>`;

/** The <Style /> the platform's export of a default-theme email carries, as public projects send it. */
export const EXPORTED_STYLE =
  '<Style backgroundColor="" backgroundXPadding="0" backgroundYPadding="0" bodyColor="" bodyXPadding="0" bodyYPadding="0" bodyFontFamily="Default" bodyFontCategory="sans-serif" borderColor="" borderWidth="0" borderRadius="4" buttonBodyColor="" buttonBodyXPadding="16" buttonBodyYPadding="12" buttonBorderColor="" buttonBorderWidth="0" buttonBorderRadius="4" buttonTextColor="" buttonTextFormat="0" buttonTextFontSize="16" dividerColor="" dividerBorderWidth="1" textBaseColor="" textBaseFontSize="14" textBaseLineHeight="150" textBaseLetterSpacing="0" textLinkColor="" heading1Color="" heading1FontSize="28" heading1LineHeight="125" heading1LetterSpacing="0" heading2Color="" heading2FontSize="24" heading2LineHeight="125" heading2LetterSpacing="0" heading3Color="" heading3FontSize="20" heading3LineHeight="125" heading3LetterSpacing="0" />';

/** A whole email of each kind, using most of the tags. */
const CAMPAIGN = `<Style themeId="st_acme" bodyColor="#ffffff" backgroundColor="#f3f4f6" bodyYPadding="24" />
<H1 align="center">Hello, {contact.firstName}</H1>
<Paragraph fontSize="16" lineHeight="150">What is new at Acme: <Strong>exports</Strong>, <Em>sharing</Em> and <Link href="https://acme.example/changelog">more</Link>.<Br />Thanks for reading.</Paragraph>
<Quote>Fast, and <Underline>simple</Underline>.</Quote>
<OrderedList start="2">
  <ListItem>Faster <Code>csv</Code> exports</ListItem>
  <ListItem><Strike>Slow</Strike> <Text textColor="#f00">Quick</Text> dashboards</ListItem>
</OrderedList>
<UnorderedList align="left"><ListItem>Shared workspaces</ListItem></UnorderedList>
<CodeBlock>curl https://api.acme.example/v1/export?user={contact.userId} &amp;&amp; echo done</CodeBlock>
<Button href="https://acme.example/account/{contact.userId}" align="center" bgColor="#000000" textColor="#ffffff" borderRadius="12">Open your account</Button>
<Divider width="80" color="#d1d5db" />
<Columns gap="24" widths="40,60" verticalAlignment="middle" stackOnMobile="true">
  <ColumnItem><H3>Docs</H3><Paragraph>Start with the guide.</Paragraph></ColumnItem>
  <ColumnItem><Image src="https://cdn.acme.example/logo.png" dynamicSrc="{contact.avatarUrl}" alt="{contact.firstName}" width="180" /></ColumnItem>
</Columns>
<Section href="https://acme.example/{contact.userId}" blockColor="#f8fafc" blockBorderRadius="12" paddingTop="16" paddingBottom="16">
  <H2>Your plan</H2>
  <Paragraph>Manage it from your settings.</Paragraph>
</Section>
<Component componentId="${KNOWN_COMPONENT}" />
<Icons align="center" gap="20" size="24" color="#000000">
  <Icon name="twitter" href="https://x.com/acme" />
  <Icon name="linkedin" href="https://www.linkedin.com/company/acme" notrack="true" />
</Icons>
`;

const WORKFLOW = `<H1>Welcome to {event.planName}</H1>
<Paragraph>Hi {contact.firstName}, your {event.planName} plan is ready.</Paragraph>
<Button href="https://acme.example/start?plan={event.planName}">Get started</Button>
`;

const TRANSACTIONAL = `<H1>Reset your password</H1>
<Paragraph>Hi {data.firstName}, use the button below.</Paragraph>
<Button href="{data.resetLink}" align="center">Reset password</Button>
<CodeBlock>Your code: {contact.firstName} stays literal here</CodeBlock>
`;

export const CORPUS: RuleCases[] = [
  {
    rule: 'too-large',
    valid: [{ lmx: paragraph('a'.repeat(99_000)) }],
    invalid: [{ lmx: paragraph('a'.repeat(102_400)), errors: ['too-large'] }],
  },
  {
    rule: 'too-deep',
    valid: [{ lmx: nested(99) }],
    invalid: [{ lmx: nested(100), errors: ['too-deep'] }],
  },
  {
    rule: 'malformed-tag',
    valid: [{ lmx: '<Paragraph align="left">x</Paragraph>' }],
    invalid: [
      { lmx: '<Paragraph align="left>x</Paragraph>', errors: ['malformed-tag'] },
      { lmx: '<Paragraph "x">x</Paragraph>', errors: ['malformed-tag'] },
    ],
  },
  {
    rule: 'not-lmx',
    valid: [{ lmx: '<Paragraph>x</Paragraph>' }],
    invalid: [
      { lmx: '<?xml version="1.0"?>\n<Paragraph>x</Paragraph>', errors: ['not-lmx'] },
      { lmx: '<Paragraph><![CDATA[a < b]]></Paragraph>', errors: ['not-lmx'] },
    ],
  },
  {
    rule: 'comment',
    valid: [{ lmx: '<Paragraph>no comment</Paragraph>' }],
    invalid: [{ lmx: '<!-- the header -->\n<Paragraph>x</Paragraph>', warnings: ['comment'] }],
  },
  {
    rule: 'unclosed-tag',
    valid: [{ lmx: '<Paragraph><Strong>x</Strong></Paragraph>' }],
    invalid: [
      { lmx: '<Paragraph>x', errors: ['unclosed-tag'] },
      { lmx: '<Paragraph><Strong>x</Paragraph>', errors: ['unclosed-tag'] },
    ],
  },
  {
    rule: 'stray-close',
    valid: [{ lmx: '<Paragraph>x</Paragraph>\n<H1>y</H1>' }],
    invalid: [{ lmx: '<Paragraph>x</Paragraph></Paragraph>', errors: ['stray-close'] }],
  },
  {
    rule: 'self-closing',
    valid: [{ lmx: '<Divider />\n<Divider></Divider>\n<Paragraph>a<Br />b<Br></Br>c</Paragraph>' }],
    invalid: [
      { lmx: '<Image src="https://cdn.acme.example/a.png">\n<Paragraph>x</Paragraph>', errors: ['self-closing'] },
      { lmx: '<Paragraph>a<Br>b</Paragraph>', errors: ['self-closing'] },
    ],
  },
  {
    rule: 'attribute-syntax',
    valid: [{ lmx: '<Divider width="50" />\n<Paragraph><Link href="https://acme.example" notrack="true">a</Link></Paragraph>' }],
    invalid: [
      { lmx: '<Divider width=50 />', errors: ['attribute-syntax'] },
      { lmx: paragraph('<Link notrack href="https://acme.example">a</Link>'), errors: ['attribute-syntax', 'attribute-value'] },
    ],
  },
  {
    rule: 'duplicate-attribute',
    valid: [{ lmx: '<Divider width="50" color="#000" />' }],
    invalid: [{ lmx: '<Divider width="50" width="60" />', errors: ['duplicate-attribute'] }],
  },
  {
    rule: 'unescaped-lt',
    valid: [{ lmx: paragraph('1 &lt; 2 &gt; 0') }],
    invalid: [
      { lmx: paragraph('1 < 2'), errors: ['unescaped-lt'] },
      { lmx: '<Image src="https://cdn.acme.example/a.png" alt="a < b" />', errors: ['unescaped-lt'] },
    ],
  },
  {
    rule: 'unescaped-amp',
    valid: [{ lmx: `${paragraph('Tom &amp; Jerry')}\n<Button href="https://acme.example/?a=1&amp;b=2">Go</Button>` }],
    invalid: [
      { lmx: paragraph('Tom & Jerry'), errors: ['unescaped-amp'] },
      { lmx: '<Button href="https://acme.example/?a=1&b=2">Go</Button>', errors: ['unescaped-amp'] },
    ],
  },
  {
    rule: 'unknown-entity',
    valid: [{ lmx: paragraph('non&#160;breaking &#x2014; &quot;quoted&quot; &apos;s') }],
    invalid: [{ lmx: paragraph('non&nbsp;breaking &mdash;'), errors: ['unknown-entity', 'unknown-entity'] }],
  },
  {
    rule: 'control-character',
    valid: [{ lmx: '<Paragraph>\ttabs,\r\nline ends and ©, é, 😀</Paragraph>\r\n' }],
    invalid: [
      { lmx: paragraph('Hi\u001b]0;pwned\u0007 \u001b[2J'), warnings: ['control-character', 'control-character', 'control-character'] },
      { lmx: '<Image src="https://cdn.acme.example/a.png" alt="\u009b31m" />', warnings: ['control-character'] },
      { lmx: '<CodeBlock>\u0008</CodeBlock>', warnings: ['control-character'] },
    ],
  },
  {
    rule: 'unknown-tag',
    valid: [{ lmx: paragraph('<Strong>bold</Strong> <Em>italic</Em>') }],
    invalid: [
      { lmx: paragraph('<Bold>bold</Bold> <Italic>italic</Italic>'), errors: ['unknown-tag', 'unknown-tag'] },
      { lmx: '<p>html</p>', errors: ['unknown-tag'] },
      { lmx: '<paragraph>lower case</paragraph>', errors: ['unknown-tag'] },
      { lmx: '<Spacer />', errors: ['unknown-tag'] },
      { lmx: '<mj-text>MJML</mj-text>', errors: ['unknown-tag'] },
      // HTML's empty elements are one unknown tag each, with nothing left open.
      { lmx: paragraph('one<br>two<BR>three'), errors: ['unknown-tag', 'unknown-tag'] },
      { lmx: '<img src="https://cdn.acme.example/a.png">\n<Paragraph>x</Paragraph>', errors: ['unknown-tag'] },
    ],
  },
  {
    rule: 'placement',
    valid: [
      { lmx: CAMPAIGN },
      { lmx: `<Section>\n${columns(2)}\n<Component componentId="${KNOWN_COMPONENT}"><Paragraph>Local</Paragraph></Component>\n</Section>` },
      { lmx: paragraph('<Strong><Em><Underline><Link href="https://acme.example">all</Link></Underline></Em></Strong>') },
      { lmx: '<UnorderedList><ListItem>a<Br />b</ListItem></UnorderedList>' },
    ],
    invalid: [
      { lmx: '<Strong>top</Strong>', errors: ['placement'] },
      { lmx: '<Br />', errors: ['placement'] },
      { lmx: '<ListItem>alone</ListItem>', errors: ['placement'] },
      { lmx: '<ColumnItem><Paragraph>x</Paragraph></ColumnItem>', errors: ['placement'] },
      { lmx: '<Icon name="github" />', errors: ['placement'] },
      { lmx: '<Section><Style bodyColor="#fff" /></Section>', errors: ['placement'] },
      { lmx: '<Button href="https://acme.example"><Strong>Go</Strong></Button>', errors: ['placement'] },
      { lmx: '<Button href="https://acme.example">Line<Br />two</Button>', errors: ['placement'] },
      { lmx: '<CodeBlock><Strong>code</Strong></CodeBlock>', errors: ['placement'] },
      { lmx: '<Section><Section><Paragraph>x</Paragraph></Section></Section>', errors: ['placement'] },
      {
        lmx: `<Section>\n<Columns><ColumnItem><Section><Paragraph>x</Paragraph></Section></ColumnItem><ColumnItem /></Columns>\n</Section>`,
        errors: ['placement'],
      },
      { lmx: `<Columns><ColumnItem>${columns(2)}</ColumnItem><ColumnItem /></Columns>`, errors: ['placement'] },
      { lmx: `<Component componentId="${KNOWN_COMPONENT}"><Component componentId="${KNOWN_COMPONENT}" /></Component>`, errors: ['placement'] },
      { lmx: `<Paragraph>x</Paragraph>\n<Component componentId="${KNOWN_COMPONENT}" />`, kind: 'component', errors: ['placement'] },
      { lmx: `<Section><Component componentId="${KNOWN_COMPONENT}" /></Section>`, kind: 'component', errors: ['placement'] },
      { lmx: paragraph('<Paragraph>inner</Paragraph>'), errors: ['placement'] },
      { lmx: paragraph('<Image src="https://cdn.acme.example/a.png" />'), errors: ['placement'] },
      { lmx: paragraph('<Link href="https://a.example"><Link href="https://b.example">x</Link></Link>'), errors: ['placement'] },
      { lmx: '<UnorderedList><ListItem>a</ListItem><Paragraph>b</Paragraph></UnorderedList>', errors: ['placement'] },
    ],
  },
  {
    rule: 'text-placement',
    valid: [{ lmx: '\n\n  <Paragraph>x</Paragraph>\n\t\n<Section>\n  <Paragraph>y</Paragraph>\n</Section>\n' }],
    invalid: [
      { lmx: 'Plain text at the top', errors: ['text-placement'] },
      { lmx: '<Section>loose text</Section>', errors: ['text-placement'] },
      { lmx: '<UnorderedList>loose<ListItem>a</ListItem></UnorderedList>', errors: ['text-placement'] },
    ],
  },
  {
    rule: 'child-count',
    valid: [{ lmx: `${columns(2)}\n${columns(4)}\n${icons(1)}\n${icons(100)}\n<OrderedList><ListItem>one</ListItem></OrderedList>` }],
    invalid: [
      { lmx: columns(1), errors: ['child-count'] },
      { lmx: columns(5), errors: ['child-count'] },
      { lmx: '<UnorderedList></UnorderedList>', errors: ['child-count'] },
      { lmx: '<OrderedList />', errors: ['child-count'] },
      { lmx: '<Icons></Icons>', errors: ['child-count'] },
      { lmx: icons(101), errors: ['child-count'] },
    ],
  },
  {
    rule: 'required-attribute',
    valid: [
      {
        lmx: `<Image src="https://cdn.acme.example/a.png" />\n${paragraph('<Link href="https://acme.example">a</Link>')}\n<Component componentId="${KNOWN_COMPONENT}" />\n<Icons><Icon name="github" /></Icons>`,
      },
    ],
    invalid: [
      { lmx: '<Image alt="Logo" />', errors: ['required-attribute'] },
      { lmx: '<Image src="" />', errors: ['required-attribute'] },
      { lmx: paragraph('<Link>docs</Link>'), errors: ['required-attribute'] },
      { lmx: '<Component />', errors: ['required-attribute'] },
      { lmx: '<Icons><Icon href="https://github.com/acme" /></Icons>', errors: ['required-attribute'] },
    ],
  },
  {
    rule: 'unknown-attribute',
    valid: [{ lmx: '<Button href="https://acme.example" fontSize="16" innerXPadding="20">Go</Button>' }],
    invalid: [
      { lmx: '<Button href="https://acme.example" size="large">Go</Button>', warnings: ['unknown-attribute'] },
      { lmx: '<Icons><Icon name="github" color="#f00" /></Icons>', warnings: ['unknown-attribute'] },
      { lmx: '<Paragraph class="lead" fallback="there">x</Paragraph>', warnings: ['unknown-attribute', 'unknown-attribute'] },
      { lmx: '<Button href="https://acme.example" bgcolor="#000000">Go</Button>', warnings: ['unknown-attribute'] },
    ],
  },
  {
    rule: 'attribute-value',
    valid: [
      {
        lmx: '<H1 fontSize="12" lineHeight="100" align="left">a</H1>\n<H2 fontSize="64" lineHeight="300" align="right" blockColor="#F8FAFC" blockBorderRadius="999">b</H2>',
      },
      { lmx: '<Button href="mailto:help@acme.example" borderWidth="16" innerYPadding="0" fontSize="6" notrack="false">Mail us</Button>' },
      {
        lmx: `<Divider width="10" borderWidth="1" />\n<Image src="https://cdn.acme.example/a.png" width="600" href="tel:+15550100" />\n<Icons size="48" gap="4" color="#808080"><Icon name="github" /></Icons>`,
      },
      { lmx: '<Style bodyColor="#fff" bodyYPadding="24" heading1LetterSpacing="-0.5" bodyFontFamily="Inter" />' },
      // The platform's export of a default-theme email: its colours empty, for the client to adapt.
      { lmx: `${EXPORTED_STYLE}\n<Paragraph>x</Paragraph>` },
      { lmx: `<Style ${STYLE_NAMES.map((name) => `${name}=""`).join(' ')} />` },
    ],
    invalid: [
      { lmx: '<H1 fontSize="11">a</H1>', errors: ['attribute-value'] },
      { lmx: '<Paragraph fontSize="65" lineHeight="99">a</Paragraph>', errors: ['attribute-value', 'attribute-value'] },
      { lmx: '<Paragraph align="justify">a</Paragraph>', errors: ['attribute-value'] },
      { lmx: '<Paragraph blockColor="red">a</Paragraph>', errors: ['attribute-value'] },
      { lmx: paragraph('<Strong textColor="#ff00">a</Strong>'), errors: ['attribute-value'] },
      { lmx: '<Button href="https://acme.example" notrack="yes">a</Button>', errors: ['attribute-value'] },
      { lmx: '<Divider width="5" borderWidth="17" />', errors: ['attribute-value', 'attribute-value'] },
      { lmx: '<Image src="https://cdn.acme.example/a.png" width="180px" />', errors: ['attribute-value'] },
      { lmx: '<Icons color="#334155" size="50"><Icon name="github" /></Icons>', errors: ['attribute-value', 'attribute-value'] },
      { lmx: `<Columns gap="10">${columns(2).slice('<Columns>'.length)}`, errors: ['attribute-value'] },
      { lmx: `<Columns widths="50,50,50">${columns(2).slice('<Columns>'.length)}`, errors: ['attribute-value'] },
      { lmx: `<Columns widths="a,b">${columns(2).slice('<Columns>'.length)}`, errors: ['attribute-value'] },
      { lmx: `<Columns widths="40,40">${columns(2).slice('<Columns>'.length)}`, warnings: ['attribute-value'] },
      { lmx: paragraph('<Link href="javascript:alert(1)">x</Link>'), errors: ['attribute-value'] },
      { lmx: '<Image src="data:image/png;base64,AAAA" />', errors: ['attribute-value'] },
      { lmx: '<Button href="acme.example/start">Go</Button>', warnings: ['attribute-value'] },
      // <Style />'s attributes are "string / number": a value a renderer cannot use is a warning, and inert.
      { lmx: '<Style bodyColor="white" bodyYPadding="24px" />', warnings: ['attribute-value', 'attribute-value'] },
      { lmx: '<Style bodyColor="red;background:url(https://x.example/a.png)" />', warnings: ['attribute-value'] },
    ],
  },
  {
    rule: 'one-style',
    valid: [{ lmx: '<Style bodyColor="#ffffff" />\n<Paragraph>x</Paragraph>' }],
    invalid: [{ lmx: '<Style bodyColor="#ffffff" />\n<Style backgroundColor="#f1f5f9" />\n<Paragraph>x</Paragraph>', errors: ['one-style'] }],
  },
  {
    rule: 'style-first',
    valid: [{ lmx: '\n<Style themeId="st_acme" />\n<Paragraph>x</Paragraph>' }],
    invalid: [{ lmx: '<Paragraph>x</Paragraph>\n<Style themeId="st_acme" />', warnings: ['style-first'] }],
  },
  {
    rule: 'variable-syntax',
    valid: [
      { lmx: paragraph('Hi {contact.firstName}, braces { like these }, {} and { "a": 1 } stay text') },
      { lmx: '<CodeBlock>{ contact.firstName ?? "there" } {contact.firstName</CodeBlock>' },
    ],
    invalid: [
      { lmx: paragraph('Hi {firstName}'), errors: ['variable-syntax'] },
      { lmx: paragraph('Reset: {DATA_VARIABLE:resetLink}'), kind: 'transactional', errors: ['variable-syntax'] },
      { lmx: paragraph('Hi {contact.firstName|there}'), errors: ['variable-syntax'] },
      { lmx: paragraph('Hi {contact.firstName ?? "there"}'), errors: ['variable-syntax'] },
      { lmx: paragraph('Hi { contact.firstName }, {data.first name}'), kind: 'component', warnings: ['variable-syntax', 'variable-syntax'] },
      { lmx: paragraph('Hi {contact.firstName'), warnings: ['variable-syntax'] },
      { lmx: paragraph('Hi {user.name}'), errors: ['variable-syntax'] },
      { lmx: '<Button href="https://acme.example/{userId}">Go</Button>', errors: ['variable-syntax'] },
      { lmx: paragraph('Hi {{data.firstName}}'), kind: 'transactional', warnings: ['variable-syntax'] },
      { lmx: '<Button href="https://acme.example/{{contact.userId}}">Go</Button>', warnings: ['variable-syntax'] },
    ],
  },
  {
    rule: 'variable-placement',
    valid: [
      {
        lmx: '<Image src="https://cdn.acme.example/a.png" dynamicSrc="{contact.avatarUrl}" alt="{contact.firstName}" href="https://acme.example/{contact.userId}" />',
      },
      {
        lmx: `<Section href="{contact.profileUrl}">${paragraph('<Link href="{contact.profileUrl}">me</Link>')}</Section>\n<Button href="{contact.profileUrl}">Hi {contact.firstName}</Button>`,
      },
    ],
    invalid: [
      { lmx: '{contact.firstName}', errors: ['variable-placement'] },
      { lmx: '<Section>{contact.firstName}</Section>', errors: ['variable-placement'] },
      { lmx: '<Image src="{contact.avatarUrl}" />', errors: ['variable-placement'] },
      { lmx: '<Icons><Icon name="github" href="https://github.com/{contact.userId}" /></Icons>', errors: ['variable-placement'] },
      { lmx: '<Paragraph blockColor="{contact.color}">x</Paragraph>', errors: ['variable-placement'] },
    ],
  },
  {
    rule: 'variable-namespace',
    valid: [
      { lmx: CAMPAIGN },
      { lmx: WORKFLOW, kind: 'workflow' },
      { lmx: TRANSACTIONAL, kind: 'transactional' },
      { lmx: paragraph('{contact.firstName} {event.planName} {data.code}'), kind: 'component' },
    ],
    invalid: [
      { lmx: paragraph('{data.code} {event.planName}'), errors: ['variable-namespace', 'variable-namespace'] },
      { lmx: paragraph('Hi {contact.firstName}'), kind: 'transactional', errors: ['variable-namespace'] },
      { lmx: '<Button href="{event.url}">Go</Button>', kind: 'transactional', errors: ['variable-namespace'] },
      { lmx: paragraph('Your code: {data.code}'), kind: 'workflow', errors: ['variable-namespace'] },
    ],
  },
  {
    rule: 'button-href',
    valid: [{ lmx: '<Button href="https://acme.example">Go</Button>\n<Button href="{contact.profileUrl}">Me</Button>' }],
    invalid: [
      { lmx: '<Button>Go</Button>', warnings: ['button-href'] },
      { lmx: '<Button align="center" bgColor="#000000">Go</Button>', warnings: ['button-href'] },
    ],
  },
  {
    rule: 'icon-name',
    valid: [{ lmx: '<Icons><Icon name="x-twitter" /><Icon name="envelope" /><Icon name="phone" /></Icons>' }],
    invalid: [
      { lmx: '<Icons><Icon name="Twitter" /><Icon name="fa-github" /></Icons>', errors: ['icon-name', 'icon-name'] },
      { lmx: '<Icons><Icon name="unicorn-rocket" /></Icons>', warnings: ['icon-name'] },
    ],
  },
  {
    rule: 'unknown-component',
    valid: [{ lmx: `<Component componentId="${KNOWN_COMPONENT}" />` }],
    invalid: [{ lmx: '<Component componentId="cmp_not_in_the_account" />', warnings: ['unknown-component'] }],
  },
];

/** Every case, with the rule it is about. */
export function corpusCases(): (CorpusCase & { rule: LmxRule; valid: boolean; name: string })[] {
  return CORPUS.flatMap(({ rule, valid, invalid }) => [
    ...valid.map((entry, index) => ({ ...entry, rule, valid: true, name: `${rule} valid ${index + 1}` })),
    ...invalid.map((entry, index) => ({ ...entry, rule, valid: false, name: `${rule} invalid ${index + 1}` })),
  ]);
}
