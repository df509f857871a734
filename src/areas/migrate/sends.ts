/**
 * Other providers' sends in an app's JavaScript and TypeScript, read with the parser `check --code`
 * uses (Babel's, never running anything): the call, the email it sends (a template kept at the
 * provider, a template file of the app, or HTML made in place), the variables it hands the
 * template, and the events it tracks. The call shapes are those of each SDK's public docs:
 *
 * - SendGrid, `@sendgrid/mail`: `sgMail.send({ to, from, templateId, dynamicTemplateData })`
 *   (https://docs.sendgrid.com/ui/sending-email/how-to-send-an-email-with-dynamic-templates).
 * - Postmark, `postmark`: `client.sendEmailWithTemplate({ From, To, TemplateAlias | TemplateId,
 *   TemplateModel })` and `client.sendEmail({ From, To, Subject, HtmlBody })`
 *   (https://postmarkapp.com/developer/api/templates-api, the ServerClient of the npm package).
 * - Mailgun, `mailgun.js`: `mg.messages.create(domain, { from, to, template, 't:variables':
 *   JSON.stringify({…}) })`, older code `'h:X-Mailgun-Variables'`
 *   (https://documentation.mailgun.com/docs/mailgun/user-manual/sending-messages/send-templates).
 * - Resend, `resend`: `resend.emails.send({ from, to, subject, react: <Email … /> | html })`, and
 *   `template: { id, variables }` (https://github.com/resend/resend-node,
 *   https://resend.com/docs/dashboard/emails/email-templates).
 * - Customer.io, `customerio-node`: `api.sendEmail(new SendEmailRequest({ transactional_message_id,
 *   message_data, identifiers, to }))`, and events `cio.track(id, { name, data })`
 *   (https://www.npmjs.com/package/customerio-node).
 * - Mailchimp Transactional, `@mailchimp/mailchimp_transactional`: `messages.sendTemplate({
 *   template_name, message: { global_merge_vars: [{ name, content }] } })`.
 * - Nodemailer: `transporter.sendMail({ from, to, subject, html })`, with a template engine's
 *   `template: 'welcome', context: {…}` (nodemailer-express-handlebars).
 * - Segment, `@segment/analytics-node`: `analytics.track({ userId, event, properties })`.
 */
import { dirname, join, normalize } from 'node:path';
import { literalKeys, type Node, type Parse, pluginsFor, propertiesOf, stringOf, walk } from '../../app-code/javascript.js';

/** What names the email a send sends. */
export type SendTemplate =
  /** A template kept at the provider, by its id or alias: exported from there before it converts. */
  | { kind: 'provider'; id: string }
  /** A template of the app: a React component (resolved to its file when imported from one) or a template engine's name. */
  | { kind: 'file'; name: string; file?: string }
  /** HTML or text made in place, or a value the scan cannot follow. */
  | { kind: 'inline' };

export interface ProviderSend {
  provider: string;
  /** The call as written: `sgMail.send`. */
  call: string;
  file: string;
  line: number;
  column: number;
  /** An email sent, or an event tracked. */
  kind: 'email' | 'event';
  template?: SendTemplate;
  /** The variables handed to the template (or the event's properties); undefined when not written as an object literal. */
  variables?: string[];
  event?: string;
  /** The `from` address, when it is written out. */
  from?: string;
  /** The subject an email is sent with, when it is written out: a template literal's values as the template's variables (`{{orderId}}`). */
  subject?: string;
  /** How the call writes each variable's value, where it is a name or a path (`order.id`): the Loops call names the same. */
  values?: Record<string, string>;
}

/** A callee's dotted name: `resend.emails.send`, `this.mailer.sendMail`. */
function dotted(node: Node): string {
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'ThisExpression') return 'this';
  if (node.type === 'MemberExpression' && !node.computed) return `${dotted(node.object as Node)}.${(node.property as Node).name as string}`;
  return '…';
}

/** What each local name was imported from (`import X from`, `import { X } from`, `const X = require()`). */
function importsOf(tree: Node): Map<string, string> {
  const imports = new Map<string, string>();
  walk(tree, (node) => {
    if (node.type === 'ImportDeclaration') {
      for (const specifier of node.specifiers as Node[]) imports.set((specifier.local as Node).name as string, (node.source as Node).value as string);
    }
    if (node.type === 'VariableDeclarator' && (node.init as Node | null)?.type === 'CallExpression') {
      const init = node.init as Node;
      const module = stringOf((init.arguments as Node[])[0]);
      if ((init.callee as Node).name !== 'require' || module === undefined) return;
      const id = node.id as Node;
      if (id.type === 'Identifier') imports.set(id.name as string, module);
      if (id.type === 'ObjectPattern') for (const property of id.properties as Node[]) imports.set(((property.value as Node).name as string) ?? '', module);
    }
  });
  return imports;
}

/** A relative import as a path under the repository (its extension guessed later against the files there). */
function importedFile(file: string, module: string | undefined): string | undefined {
  if (module === undefined || !module.startsWith('.')) return undefined;
  return normalize(join(dirname(file), module))
    .split('\\')
    .join('/');
}

/** The template a value names: a React element or a call of a component (`<Welcome />`, `render(<Welcome />)`, `Welcome({…})`), or inline content. */
function templateOf(value: Node | undefined, file: string, imports: Map<string, string>): { template: SendTemplate; variables?: string[] } {
  if (value === undefined) return { template: { kind: 'inline' } };
  const inner = value.type === 'AwaitExpression' ? (value.argument as Node) : value;
  const component = (name: string, variables: string[] | undefined) => ({
    template: { kind: 'file' as const, name, file: importedFile(file, imports.get(name)) },
    variables,
  });
  if (inner.type === 'JSXElement') {
    const opening = inner.openingElement as Node;
    const name = (opening.name as Node).name as string | undefined;
    const attributes = opening.attributes as Node[];
    const variables = attributes.every((attribute) => attribute.type === 'JSXAttribute')
      ? attributes.map((attribute) => (attribute.name as Node).name as string)
      : undefined;
    if (name !== undefined) return component(name, variables);
  }
  if (inner.type === 'CallExpression') {
    const [first] = inner.arguments as Node[];
    if (first?.type === 'JSXElement') return templateOf(first, file, imports);
    const callee = inner.callee as Node;
    if (callee.type === 'Identifier' && /^[A-Z]/.test(callee.name as string))
      return component(
        callee.name as string,
        literalKeys(first)?.map(({ key }) => key),
      );
  }
  return { template: { kind: 'inline' } };
}

/** The keys of the object a `JSON.stringify({…})` makes (Mailgun's template variables). */
function stringifiedKeys(value: Node | undefined): string[] | undefined {
  if (value?.type !== 'CallExpression') return literalKeys(value)?.map(({ key }) => key);
  return literalKeys((value.arguments as Node[])[0])?.map(({ key }) => key);
}

/** An expression without TypeScript's wrappers (`{…} as never`, `x!`, `{…} satisfies T`). */
function unwrapped(node: Node): Node {
  const wrappers = ['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'ParenthesizedExpression'];
  return wrappers.includes(node?.type) ? unwrapped(node.expression as Node) : node;
}

const keysOf = (value: Node | undefined) => literalKeys(value)?.map(({ key }) => key);

/** A template kept at the provider, by the first of these keys the send gives as a literal. */
function providerTemplate(properties: Map<string, Node>, ...keys: string[]): SendTemplate | undefined {
  for (const key of keys) {
    const id = stringOf(properties.get(key)) ?? (properties.get(key)?.type === 'NumericLiteral' ? String(properties.get(key)!.value) : undefined);
    if (id !== undefined) return { kind: 'provider', id };
  }
  return undefined;
}

type Found = Omit<ProviderSend, 'file' | 'line' | 'column' | 'call'>;

/** Each variable's value as the call writes it, where it is a name or a path: an object literal's, or a React element's props. */
function valuesOf(node: Node | undefined): Record<string, string> | undefined {
  const values: Record<string, string> = {};
  const inner = node === undefined ? undefined : unwrapped(node.type === 'AwaitExpression' ? (node.argument as Node) : node);
  if (inner?.type === 'ObjectExpression')
    for (const property of inner.properties as Node[]) {
      const key = property.type === 'ObjectProperty' && !property.computed ? ((property.key as Node).name ?? (property.key as Node).value) : undefined;
      const value = key === undefined ? '…' : dotted(unwrapped(property.value as Node));
      if (key !== undefined && value !== '…') values[key as string] = value;
    }
  const element = inner?.type === 'CallExpression' ? (inner.arguments as Node[])[0] : inner;
  if (element?.type === 'JSXElement')
    for (const attribute of (element.openingElement as Node).attributes as Node[]) {
      const expression = attribute.type === 'JSXAttribute' ? (attribute.value as Node | null)?.expression : undefined;
      const value = expression === undefined ? '…' : dotted(unwrapped(expression as Node));
      if (value !== '…') values[(attribute.name as Node).name as string] = value;
    }
  return Object.keys(values).length === 0 ? undefined : values;
}

/** The object that holds a send's variables, as each provider's call writes it. */
function variablesNode(written: Node[]): Node | undefined {
  const [first, second] = written.map(unwrapped);
  const object = first?.type === 'NewExpression' ? (first.arguments as Node[])[0] : first;
  const properties = object?.type === 'ObjectExpression' ? propertiesOf(object) : undefined;
  const mailgun = second?.type === 'ObjectExpression' ? propertiesOf(second) : undefined;
  const stringified = mailgun?.get('t:variables') ?? mailgun?.get('h:xmailgunvariables');
  return (
    properties?.get('dynamictemplatedata') ??
    properties?.get('templatemodel') ??
    properties?.get('messagedata') ??
    properties?.get('context') ??
    properties?.get('react') ??
    (properties?.get('template')?.type === 'ObjectExpression' ? propertiesOf(properties.get('template')!).get('variables') : undefined) ??
    (stringified?.type === 'CallExpression' ? (stringified.arguments as Node[])[0] : stringified)
  );
}

/**
 * The subject a send writes out: a string, or a template literal whose values are the template's
 * variables, each named as the send hands it to the template (`${order.id}` is `{{orderId}}` where
 * the call gives `orderId: order.id`), else by the value's own name.
 */
function subjectOf(node: Node | undefined, values: Record<string, string> | undefined): string | undefined {
  const written = stringOf(node);
  if (written !== undefined || node === undefined) return written;
  const literal = unwrapped(node);
  if (literal.type !== 'TemplateLiteral') return undefined;
  const byValue = new Map(Object.entries(values ?? {}).map(([key, value]) => [value, key]));
  let subject = '';
  for (const [index, quasi] of (literal.quasis as Node[]).entries()) {
    subject += ((quasi.value as { cooked: string | null }).cooked ?? '') as string;
    const expression = (literal.expressions as Node[])[index];
    if (expression === undefined) continue;
    const value = dotted(unwrapped(expression));
    if (value === '…') return undefined;
    subject += `{{${byValue.get(value) ?? value}}}`;
  }
  return subject;
}

/** A send as its provider's shape reads it, with the subject the call writes out. */
function sendOf(name: string, callee: string, written: Node[], file: string, imports: Map<string, string>): Found | undefined {
  const found = shapeOf(name, callee, written, file, imports);
  if (found?.kind !== 'email') return found;
  const first = written.length > 0 ? unwrapped(written[0]!) : undefined;
  const values = valuesOf(variablesNode(written));
  const subject = first?.type === 'ObjectExpression' ? subjectOf(propertiesOf(first).get('subject'), values) : undefined;
  return { ...found, ...(subject === undefined ? {} : { subject }), ...(values === undefined ? {} : { values }) };
}

/** Each provider's shapes, tried in turn on a call (the list in the module's comment). */
function shapeOf(name: string, callee: string, written: Node[], file: string, imports: Map<string, string>): Found | undefined {
  const [first, second] = written.map(unwrapped);
  const object = first?.type === 'NewExpression' ? (first.arguments as Node[])[0] : first;
  const properties = object?.type === 'ObjectExpression' ? propertiesOf(object) : undefined;
  const from = properties === undefined ? undefined : stringOf(properties.get('from'));
  // A send of a template kept at the provider: its id (the first of the keys given) and its variables' keys.
  const atProvider = (provider: string, fields: Map<string, Node>, ids: string[], variables: string): Found => ({
    provider,
    kind: 'email',
    template: providerTemplate(fields, ...ids) ?? { kind: 'inline' },
    variables: keysOf(fields.get(variables)),
    from,
  });
  if (name === 'sendEmailWithTemplate' && properties !== undefined) return atProvider('Postmark', properties, ['templatealias', 'templateid'], 'templatemodel');
  if (name === 'sendEmail' && properties !== undefined) {
    if (properties.has('transactionalmessageid')) return atProvider('Customer.io', properties, ['transactionalmessageid'], 'messagedata');
    if (properties.has('htmlbody') || properties.has('textbody')) return { provider: 'Postmark', kind: 'email', template: { kind: 'inline' }, from };
  }
  if ((name === 'send' || name === 'sendMultiple') && properties !== undefined) {
    if (callee.endsWith('.emails.send')) {
      const template = properties.get('template');
      if (template?.type === 'ObjectExpression') return atProvider('Resend', propertiesOf(template), ['id'], 'variables');
      return { provider: 'Resend', kind: 'email', ...templateOf(properties.get('react') ?? properties.get('html'), file, imports), from };
    }
    const sendgrid = [...imports.values()].includes('@sendgrid/mail') || properties.has('templateid') || properties.has('dynamictemplatedata');
    if (sendgrid && properties.has('to')) {
      if (properties.has('templateid')) return atProvider('SendGrid', properties, ['templateid'], 'dynamictemplatedata');
      return { provider: 'SendGrid', kind: 'email', ...templateOf(properties.get('html'), file, imports), from };
    }
  }
  if (name === 'create' && callee.endsWith('.messages.create') && second?.type === 'ObjectExpression') {
    const options = propertiesOf(second);
    const variables = stringifiedKeys(options.get('t:variables') ?? options.get('h:xmailgunvariables'));
    const template = providerTemplate(options, 'template');
    const mailFrom = stringOf(options.get('from'));
    if (template !== undefined) return { provider: 'Mailgun', kind: 'email', template, variables, from: mailFrom };
    return { provider: 'Mailgun', kind: 'email', ...templateOf(options.get('html'), file, imports), from: mailFrom };
  }
  if (name === 'sendTemplate' && callee.endsWith('.messages.sendTemplate') && properties !== undefined) {
    const message = properties.get('message');
    const merge = message?.type === 'ObjectExpression' ? propertiesOf(message).get('globalmergevars') : undefined;
    const variables =
      merge?.type === 'ArrayExpression'
        ? (merge.elements as Node[]).flatMap((element) => (element?.type === 'ObjectExpression' ? [stringOf(propertiesOf(element).get('name')) ?? '?'] : []))
        : undefined;
    const template = providerTemplate(properties, 'templatename') ?? { kind: 'inline' as const };
    return { provider: 'Mailchimp Transactional', kind: 'email', template, variables, from };
  }
  if (name === 'sendMail' && properties !== undefined) {
    const engine = stringOf(properties.get('template'));
    if (engine !== undefined)
      return { provider: 'Nodemailer', kind: 'email', template: { kind: 'file', name: engine }, variables: keysOf(properties.get('context')), from };
    return { provider: 'Nodemailer', kind: 'email', ...templateOf(properties.get('html'), file, imports), from };
  }
  if (name === 'track') {
    // Customer.io: track(customerId, { name, data }); Segment: track({ userId, event, properties }).
    const customerio = second?.type === 'ObjectExpression' ? propertiesOf(second) : undefined;
    const event = customerio === undefined ? undefined : stringOf(customerio.get('name'));
    if (event !== undefined) return { provider: 'Customer.io', kind: 'event', event, variables: keysOf(customerio!.get('data')) };
    const segment = properties === undefined ? undefined : stringOf(properties.get('event'));
    if (segment !== undefined) return { provider: 'Segment', kind: 'event', event: segment, variables: keysOf(properties!.get('properties')) };
  }
  return undefined;
}

/** Every send and event of one file; a file Babel cannot read gives none, and says why. */
export function providerSends(parse: Parse, file: string, text: string): { sends: ProviderSend[]; unread?: string } {
  let tree: Node;
  try {
    tree = parse(text, { sourceType: 'unambiguous', errorRecovery: true, attachComment: false, plugins: pluginsFor(file) });
  } catch {
    return { sends: [], unread: 'not JavaScript or TypeScript that Babel can read' };
  }
  const imports = importsOf(tree);
  const sends: ProviderSend[] = [];
  walk(tree, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee as Node;
    const name = callee.type === 'MemberExpression' ? ((callee.property as Node).name as string | undefined) : (callee.name as string | undefined);
    if (name === undefined) return;
    const call = dotted(callee);
    const found = sendOf(name, call, node.arguments as Node[], file, imports);
    if (found !== undefined) sends.push({ ...found, call, file, line: node.loc!.start.line, column: node.loc!.start.column + 1 });
  });
  return { sends: sends.sort((a, b) => a.line - b.line || a.column - b.column) };
}

/** Whether a file can hold a send: it names one of the calls above (the check before parsing, as `check --code` makes). */
export function mayHoldSends(text: string): boolean {
  return /sendEmailWithTemplate|sendEmail|\.send\(|sendMultiple|messages\.create|sendTemplate|sendMail|\.track\(/.test(text);
}

/** The extensions a relative import may leave out, in the order bundlers try them. */
export const IMPORT_EXTENSIONS = ['', '.tsx', '.jsx', '.ts', '.js', '/index.tsx', '/index.jsx'];
