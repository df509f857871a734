/**
 * The corpus of public templates that convert is held to, laid out in one directory for the tests
 * that convert it, check it and measure it in Chromium: the templates npm packages publish,
 * development dependencies read from node_modules, never copied into the repository (each one's
 * source and licence in test/corpus/convert/README.md, which the directory holds besides). They
 * are React Email's starter templates, as two releases ship them (`create-email` 0.0.24, and 1.2.5
 * installed as `create-email-1.2`); ProofKit's React Email templates
 * (`@proofkit/cli`); the MJML examples of MJML's components' READMEs (`mjml-social`, and the
 * others `mjml` installs); Lee Munroe's transactional email (`responsive-html-email-template`);
 * Mailgun's three transactional emails, built from the package's Jade sources with its README's
 * data (`transactional-email-templates`); Mailgen's themes (Postmark's, Cerberus, Salted,
 * Neopolitan) built with its examples' data (`mailgen`); Vendure's MJML emails with their
 * Handlebars partials put in (`@vendure/email-plugin`); Teradata's Covalent MJML templates
 * (`@covalent/email-templates`); E-Com Plus's transactional emails for its shops, rendered by the
 * package with a shop's data (`@ecomplus/transactional-mails`); Auth.js's sign-in email
 * (`@auth/core`); and Foundation for Emails' eleven templates (`foundation-emails`),
 * each with the package's stylesheet inlined into it by juice and its media queries in a <style>,
 * as Foundation's build sends it (the package's templates link the stylesheet, which no mail client
 * loads), and some of them again in Campaign Monitor's and Mailchimp's forms, their tags written
 * where Foundation's placeholders stand (an unsubscribe link, a preferences link, a greeting's
 * name), as MIT allows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse as parseJs } from '@babel/parser';
import juice from 'juice';
import { parse as parseCss } from 'postcss';
import { sharedByRun } from './temp.js';

const COMMITTED = join(import.meta.dirname, '../corpus/convert');

/** An installed package's directory, found where Node looks for it (a package whose `exports` name no `package.json` is found too). */
function packageDirectory(name: string): string {
  const found = createRequire(import.meta.url)
    .resolve.paths(name)
    ?.map((directory) => join(directory, name))
    .find((directory) => existsSync(join(directory, 'package.json')));
  if (found === undefined) throw new Error(`${name} is not installed`);
  return found;
}

/**
 * React Email's four starter templates as `create-email` ships them for a new project, by the corpus
 * directory each release is laid out in: 0.0.24's, the demo templates of February 2024 (imports from
 * `@react-email/components` and `@react-email/tailwind`), and 1.2.5's, installed as `create-email-1.2`
 * (the same emails importing every component from `react-email`, the preview inside the body, the
 * invitation's Tailwind classes in the order Tailwind's sorter writes them).
 */
const REACT_EMAIL_STARTERS: Record<string, string> = { 'react-email': 'create-email', 'react-email-1.2': 'create-email-1.2' };
const REACT_EMAIL_STARTER_FILES = ['notion-magic-link.tsx', 'plaid-verify-identity.tsx', 'stripe-welcome.tsx', 'vercel-invite-user.tsx'];

/** ProofKit's two React Email templates (a sign-in code, a generic notice: a centred logo on a padded card, a centred button, a footer), as `@proofkit/cli` ships them for a new project. */
const PROOFKIT = join(packageDirectory('@proofkit/cli'), 'template/extras/emailTemplates');
const PROOFKIT_FILES = ['auth-code.tsx', 'generic.tsx'];

/**
 * The MJML components whose README's first example is laid out as `mjml/<component>-readme.mjml`:
 * social icons with labels, a centred hero over a background image, a bordered card on a coloured
 * page, columns kept side by side, a table of rows, a menu, an accordion, a carousel, and the head's
 * title, preview, fonts, styles and attributes.
 */
const MJML_READMES = [
  'accordion',
  'body',
  'button',
  'carousel',
  'column',
  'divider',
  'group',
  'head-attributes',
  'head-breakpoint',
  'head-font',
  'head-html-attributes',
  'head-preview',
  'head-style',
  'head-title',
  'hero',
  'image',
  'navbar',
  'raw',
  'section',
  'social',
  'spacer',
  'table',
  'text',
  'wrapper',
];

/**
 * The components whose README's other MJML examples are laid out too, as `mjml/<component>-readme-<n>.mjml`:
 * `mj-raw`'s hold a template language's statements between sections and text written before the doctype.
 */
const MJML_EVERY_EXAMPLE = new Set(['raw']);

/** The MJML examples of an MJML component's README, as written: the first, or all of them. */
function readmeExamples(component: string): string[] {
  const readme = readFileSync(join(packageDirectory(`mjml-${component}`), 'README.md'), 'utf8');
  const examples = [...readme.matchAll(/```xml\n(<mjml>[\s\S]*?<\/mjml>\n)```/g)].map((example) => example[1] as string);
  if (examples.length === 0) throw new Error(`mjml-${component}/README.md no longer holds an MJML example`);
  return MJML_EVERY_EXAMPLE.has(component) ? examples : examples.slice(0, 1);
}

/** Lee Munroe's simple transactional email as `responsive-html-email-template` ships it: as written, its CSS in a <style>, and with its CSS inlined. */
const LEE_MUNROE = packageDirectory('responsive-html-email-template');

const requireHere = createRequire(import.meta.url);

/**
 * Mailgun's three transactional emails (action, alert, billing) as `transactional-email-templates`
 * builds them from its Jade sources, with the data of its README's usage examples, which the README
 * says yield Mailgun's published pages. The first example lacks a comma between two strings of a
 * list, put back here so that it runs.
 */
function mailgunTemplates(): Record<string, string> {
  const readme = readFileSync(join(packageDirectory('transactional-email-templates'), 'README.md'), 'utf8');
  const usage = /## Usage\s+~~~js\n([\s\S]*?)~~~/.exec(readme)?.[1];
  const missingComma = "remaining.'\n";
  if (usage === undefined || !usage.includes(missingComma))
    throw new Error('transactional-email-templates/README.md no longer holds its usage examples as read here');
  const code = `${usage.replace(missingComma, "remaining.',\n")}\n({ 'action.html': actionEmailHTML, 'alert.html': alertEmailHTML, 'billing.html': billingEmailHTML })`;
  return runInNewContext(code, { require: requireHere }) as Record<string, string>;
}

/** Mailgen's themes: Postmark's transactional templates, Ted Goas' Cerberus, Jason Rodriguez's Salted and Send With Us' Neopolitan. */
const MAILGEN_THEMES = ['default', 'cerberus', 'salted', 'neopolitan'];

/** A literal of an example's source, as written: the object `email` holds, or the options given to `new Mailgen(…)`. */
function exampleLiteral(source: string, file: string, pick: (node: any) => any): object {
  let found: any;
  const walk = (node: any): void => {
    if (found !== undefined || node === null || typeof node !== 'object') return;
    const picked = pick(node);
    if (picked?.type === 'ObjectExpression') found = picked;
    else for (const [key, value] of Object.entries(node)) if (key !== 'loc') walk(value);
  };
  walk(parseJs(source, { sourceType: 'script' }).program);
  if (found === undefined) throw new Error(`mailgen's ${file} no longer holds the literal read here`);
  return runInNewContext(`(${source.slice(found.start, found.end)})`) as object;
}

/** The README's sections whose last example is laid out as `<theme>-readme-<section>.html`: several buttons, several tables of line items. */
const MAILGEN_README_SECTIONS = ['Action', 'Table'];

/** Mailgen's options and an email's data, as far as the forms below read them. */
interface MailgenOptions {
  product: { name: string; link: string };
}
interface MailgenInstance {
  generate(email: object): string;
  parseParams(email: object): object;
  cachedTheme: string;
  themePath: string;
}
interface MailgenEmail {
  body: { name?: string; action?: { button: { link: string } } | unknown[] };
}

/**
 * Mailgen's three examples (welcome, reset, receipt: a greeting, a centred button, a table of line
 * items, a footer on the page's colour), as `mailgen/examples/` builds them, and the last example of
 * some sections of its README, each built with every theme: `<theme>-<example>.html`; and the three
 * examples again in Postmark's form, its template's variables (`{{name}}`, `{{action_url}}`,
 * `{{product_name}}`, `{{product_url}}`) where the examples give values, built with Mailgen's theme
 * from Postmark's templates: `postmark-<example>.html`. Mailgen inlines each theme's stylesheet
 * with juice as its last step; the receipt is also laid out as each theme writes it, its styles in a
 * <style> of classes, as Mailgen builds it up to that step: `<theme>-receipt-styled.html`.
 */
function mailgenTemplates(): Record<string, string> {
  const directory = packageDirectory('mailgen');
  const Mailgen = requireHere('mailgen') as new (options: object) => MailgenInstance;
  const ejs = createRequire(join(directory, 'index.js'))('ejs') as { render(template: string, data: object, options: object): string };
  const emailOf = (source: string, where: string) =>
    exampleLiteral(source, where, (node) => (node.type === 'VariableDeclarator' && node.id.name === 'email' ? node.init : undefined)) as MailgenEmail;
  const emails: Record<string, MailgenEmail> = {};
  let options: MailgenOptions | undefined;
  for (const file of readdirSync(join(directory, 'examples')).filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(join(directory, 'examples', file), 'utf8');
    options = exampleLiteral(source, file, (node) =>
      node.type === 'NewExpression' && node.callee.name === 'Mailgen' ? node.arguments[0] : undefined,
    ) as MailgenOptions;
    emails[file.replace(/\.js$/, '')] = emailOf(source, file);
  }
  const examples = Object.keys(emails);
  const readme = readFileSync(join(directory, 'README.md'), 'utf8');
  for (const section of MAILGEN_README_SECTIONS) {
    const text = readme.split(/^#+ /m).find((part) => part.startsWith(`${section}\n`)) ?? '';
    const example = [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] as string).findLast((code) => code.includes('var email = {'));
    if (example === undefined) throw new Error(`mailgen/README.md no longer holds an example under "${section}"`);
    emails[`readme-${section.toLowerCase()}`] = emailOf(example, `README.md (${section})`);
  }
  // Mailgen rewrites the data it is given (a button's colour, one action made a list): each build gets a copy.
  const built: Record<string, string> = {};
  for (const [name, email] of Object.entries(emails))
    for (const theme of MAILGEN_THEMES) built[`${theme}-${name}.html`] = new Mailgen({ ...options, theme }).generate(structuredClone(email));
  for (const theme of MAILGEN_THEMES) {
    // Mailgen's generate(), but its last step: `ejs.render(this.cachedTheme, this.parseParams(params), { filename: this.themePath })`, then juice.
    const mailgen = new Mailgen({ ...options, theme });
    const styled = ejs.render(mailgen.cachedTheme, mailgen.parseParams(structuredClone(emails.receipt!)), { filename: mailgen.themePath });
    if (!/<style[^>]*>[^<]*\.[a-z][\w-]*\s*\{/i.test(styled)) throw new Error(`mailgen's ${theme} theme no longer styles its classes in a <style>`);
    built[`${theme}-receipt-styled.html`] = styled;
  }
  for (const name of examples) {
    const { body } = emails[name]!;
    if (body.name === undefined || body.action === undefined || Array.isArray(body.action))
      throw new Error(`mailgen/examples/${name}.js no longer greets by name with one button`);
    const product = { ...options!.product, name: '{{product_name}}', link: '{{product_url}}' };
    const action = { ...body.action, button: { ...body.action.button, link: '{{action_url}}' } };
    built[`postmark-${name}.html`] = new Mailgen({ ...options, product, theme: 'default' }).generate({ body: { ...body, name: '{{name}}', action } });
  }
  return built;
}

/** Vendure's email templates as `@vendure/email-plugin` ships them (pinned to its last MIT release): MJML with Handlebars' variables, a body per email and the header and footer partials it names. */
const VENDURE = join(packageDirectory('@vendure/email-plugin'), 'templates');
const VENDURE_HEADER = /\{\{> header title="([^"]*)" \}\}/;
const VENDURE_FOOTER = '{{> footer }}';

/**
 * Vendure's four emails (order confirmation: a row of three coloured columns and a table of lines;
 * password reset, email verification, address change: a centred button) each as the MJML that MJML
 * compiles once Handlebars has put in its partials: the body between the header (a grey band; the
 * page's title, given by the body) and the footer (centred text on a coloured band); the variables
 * (`{{ order.code }}`), conditions and loops kept as the template writes them.
 */
function vendureTemplates(): Record<string, string> {
  const partial = (name: string) => readFileSync(join(VENDURE, 'partials', `${name}.hbs`), 'utf8');
  const built: Record<string, string> = {};
  for (const email of readdirSync(VENDURE).filter((name) => name !== 'partials')) {
    const body = readFileSync(join(VENDURE, email, 'body.hbs'), 'utf8');
    if (!VENDURE_HEADER.test(body) || !body.includes(VENDURE_FOOTER) || !partial('header').includes('{{ title }}'))
      throw new Error(`@vendure/email-plugin/templates/${email} no longer names its partials as read here`);
    built[`${email}.mjml`] = body
      .replace(VENDURE_HEADER, (_tag, title: string) => partial('header').replace('{{ title }}', title))
      .replace(VENDURE_FOOTER, partial('footer'));
  }
  return built;
}

/**
 * Teradata's Covalent email templates (a welcome letter and a workshop invitation: Prettier-formatted
 * MJML, its `mj-class`es, padded wrappers, rows of two columns, a coloured call to action, a footer)
 * as `@covalent/email-templates` gives them, its attributes and stylesheet put into each head. The
 * package's bundle holds mjml-browser, which expects a browser's `window`: it is run in a context of
 * its own that has one, and only its list of templates is read.
 */
function covalentTemplates(): Record<string, string> {
  const module = { exports: {} as { getEmailTemplates(): { name: string; content: string }[] } };
  const bundle = readFileSync(requireHere.resolve('@covalent/email-templates'), 'utf8');
  runInNewContext(bundle, { module, exports: module.exports, require: requireHere, window: {} });
  const built: Record<string, string> = {};
  for (const { name, content } of module.exports.getEmailTemplates()) built[`${name.toLowerCase().replaceAll(' ', '-')}.mjml`] = content;
  return built;
}

/**
 * A shop's customer, order, abandoned cart and product as E-Com Plus's API gives them, the fields
 * its transactional emails read (written here: the package ships no sample data).
 */
const ECOMPLUS_DATA = {
  store: {
    name: 'Lumen Goods',
    corporate_name: 'Lumen Goods Ltd',
    domain: 'shop.lumen.example',
    homepage: 'https://shop.lumen.example',
    address: '12 Harbour Road, Portsmouth',
    unsubscribe: 'https://shop.lumen.example/unsubscribe',
    logo: { url: 'https://shop.lumen.example/logo.png' },
    brand_colors: { primary: '#2a7ab0' },
  },
  customer: { _id: 'c1', main_email: 'ada@example.com', display_name: 'Ada', name: { given_name: 'Ada', family_name: 'Lovelace' } },
  order: {
    _id: 'o1',
    number: 1042,
    status_link: 'https://shop.lumen.example/app/#/order/o1',
    financial_status: { current: 'paid' },
    fulfillment_status: { current: 'shipped' },
    amount: { total: 93.5, subtotal: 84, freight: 12.5, discount: 3 },
    items: [
      {
        _id: 'i1',
        product_id: 'p1',
        sku: 'MUG-1',
        name: 'Stoneware mug',
        quantity: 2,
        price: 18,
        picture: { normal: { url: 'https://shop.lumen.example/mug.jpg' } },
      },
      { _id: 'i2', product_id: 'p2', sku: 'TEA-1', name: 'Loose-leaf tea, 250 g', quantity: 3, price: 16 },
    ],
    shipping_method_label: 'Standard post',
    shipping_lines: [
      {
        to: { name: 'Ada Lovelace', street: 'Harbour Road', number: 12, city: 'Portsmouth', province_code: 'HA', zip: 'PO1 3AX' },
        delivery_time: { days: 3, working_days: true },
        posting_deadline: { days: 1, working_days: true },
        app: { carrier: 'Royal Mail', tracking_url: 'https://track.example/RM123456789GB' },
        tracking_codes: [{ code: 'RM123456789GB', link: 'https://track.example/RM123456789GB' }],
      },
    ],
    transactions: [{ payment_method: { code: 'credit_card', name: 'Card' }, amount: 93.5 }],
  },
  cart: {
    _id: 'k1',
    permalink: 'https://shop.lumen.example/app/#/cart/k1',
    subtotal: 52,
    items: [
      { _id: 'i1', product_id: 'p1', name: 'Stoneware mug', quantity: 2, price: 18, picture: { normal: { url: 'https://shop.lumen.example/mug.jpg' } } },
      { _id: 'i2', product_id: 'p2', name: 'Loose-leaf tea, 250 g', quantity: 1, price: 16 },
    ],
  },
  product: {
    _id: 'p1',
    sku: 'MUG-1',
    name: 'Stoneware mug',
    slug: 'stoneware-mug',
    price: 14,
    base_price: 18,
    pictures: [{ normal: { url: 'https://shop.lumen.example/mug.jpg' } }],
  },
};

/** E-Com Plus's emails laid out, each a method of the package and what it is given (and the order's again in Portuguese, the package's first language). */
const ECOMPLUS_EMAILS: Record<string, [method: string, ...data: string[]]> = {
  'welcome.html': ['welcome', 'customer', 'en_us'],
  'new-order.html': ['new_order', 'customer', 'order', 'en_us'],
  'new-order-pt-br.html': ['new_order', 'customer', 'order', 'pt_br'],
  'paid.html': ['paid', 'customer', 'order', 'en_us'],
  'shipped.html': ['shipped', 'customer', 'order', 'en_us'],
  'delivered.html': ['delivered', 'customer', 'order', 'en_us'],
  'refunded.html': ['refunded', 'customer', 'order', 'en_us'],
  'abandoned-cart.html': ['abandonedCart', 'customer', 'cart', 'en_us'],
  'promo.html': ['promo', 'customer', 'product', 'en_us'],
};

/**
 * E-Com Plus's transactional emails (SendGrid's designer's modules: a logo, a centred heading and
 * text, a coloured button, a table of an order's items and totals, a footer on a grey page) as
 * `@ecomplus/transactional-mails` renders them (EJS and Sass). Rendered in a Node of its own: the
 * package puts a polyfill in place of the process's `Intl`, and Sass prints its warnings there.
 */
function ecomplusTemplates(): Record<string, string> {
  const script = `
    const mails = require(${JSON.stringify(packageDirectory('@ecomplus/transactional-mails'))});
    const { data, emails } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    (async () => {
      const built = {};
      for (const [file, [method, ...given]] of Object.entries(emails))
        built[file] = await mails[method](data.store, ...given.map((name) => data[name] ?? name));
      process.stdout.write(JSON.stringify(built));
    })();`;
  const input = JSON.stringify({ data: ECOMPLUS_DATA, emails: ECOMPLUS_EMAILS });
  const out = execFileSync(process.execPath, ['-e', script], { input, stdio: ['pipe', 'pipe', 'ignore'] });
  return JSON.parse(out.toString('utf8')) as Record<string, string>;
}

/** Auth.js's sign-in email (a magic link: a line, a coloured button, a note), as `@auth/core` writes it for its email providers, with their default theme. */
function authjsTemplates(): Record<string, string> {
  const { html } = requireHere(join(packageDirectory('@auth/core'), 'lib/utils/email.js')) as {
    html(params: { url: string; host: string; theme: object }): string;
  };
  const url = 'https://app.example.com/api/auth/callback/nodemailer?token=4f9c1e&email=ada%40example.com';
  return { 'sign-in.html': html({ url, host: 'app.example.com', theme: {} }) };
}

/** The templates packages ship, under the names the tests use (each a path in the corpus), with their text. */
function packaged(): Record<string, string> {
  const files: Record<string, string> = {};
  const under = (directory: string, emails: Record<string, string>) => {
    for (const [file, text] of Object.entries(emails)) files[`${directory}/${file}`] = text;
  };
  for (const [directory, name] of Object.entries(REACT_EMAIL_STARTERS))
    for (const file of REACT_EMAIL_STARTER_FILES) files[`${directory}/${file}`] = readFileSync(join(packageDirectory(name), 'template/emails', file), 'utf8');
  for (const file of PROOFKIT_FILES) files[`react-email-proofkit/${file}`] = readFileSync(join(PROOFKIT, file), 'utf8');
  files['html-leemunroe/email.html'] = readFileSync(join(LEE_MUNROE, 'email-inlined.html'), 'utf8');
  files['html-leemunroe/email-styled.html'] = readFileSync(join(LEE_MUNROE, 'email.html'), 'utf8');
  for (const component of MJML_READMES)
    for (const [index, example] of readmeExamples(component).entries()) files[`mjml/${component}-readme${index === 0 ? '' : `-${index + 1}`}.mjml`] = example;
  under('html-mailgun', mailgunTemplates());
  under('html-mailgen', mailgenTemplates());
  under('mjml-vendure', vendureTemplates());
  under('mjml-covalent', covalentTemplates());
  under('html-ecomplus', ecomplusTemplates());
  under('html-authjs', authjsTemplates());
  return files;
}

const PACKAGE = packageDirectory('foundation-emails');
/** Foundation for Emails' templates as its package ships them, compiled from Inky, and the stylesheet they link. */
const FOUNDATION = join(PACKAGE, '.download/templates');
const STYLESHEET = join(PACKAGE, 'dist/foundation-emails.css');
const LINK = /<link rel="stylesheet" href="[^"]*foundation-emails\.css">\s*/;

/** Where Foundation's templates take the stylesheet's media queries, which no element's style can hold. */
const MEDIA_PLACE = '<!-- <style> -->';

/**
 * A template as Foundation's build sends it (its gulpfile's `inliner`): its link to the stylesheet
 * replaced by the stylesheet's rules on each element, and the stylesheet's media queries in a
 * `<style>` where the template says `<!-- <style> -->`.
 */
function inlined(file: string, source: string, css: string): string {
  if (!LINK.test(source)) throw new Error(`foundation-emails/${file} no longer links foundation-emails.css`);
  if (!source.includes(MEDIA_PLACE)) throw new Error(`foundation-emails/${file} no longer says where its media queries go`);
  const media: string[] = [];
  parseCss(css).walkAtRules('media', (rule) => {
    media.push(rule.toString());
  });
  return (
    juice
      .inlineContent(source.replace(LINK, ''), css, { preserveMediaQueries: true, applyWidthAttributes: false, applyHeightAttributes: false })
      // On one line, so that the template's own lines keep the numbers the package gives them.
      .replace(MEDIA_PLACE, `<style>${media.join(' ').replace(/\s+/g, ' ')}</style>`)
  );
}

/** Campaign Monitor's tags in place of Foundation's placeholders: each replacement must find its placeholder, or the package changed. */
const CAMPAIGN_MONITOR: Record<string, [string, string][]> = {
  'drip.html': [
    ['<a href="#">Manage Email Notifications</a>', '<preferences>Manage Email Notifications</preferences>'],
    ['<a href="#">Unsubscribe</a>', '<unsubscribe>Unsubscribe</unsubscribe>'],
  ],
  'marketing.html': [
    ['<a href="#">hello@nocopywrite.com</a>', '<webversion>View it in your browser</webversion>'],
    ['<a href="#">Manage Email Notifications</a>', '<preferences>Manage Email Notifications</preferences>'],
    ['<a href="#">Unsubscribe</a>', '<unsubscribe>Unsubscribe</unsubscribe>'],
  ],
  'hero.html': [
    ['<h1>Hi, Elijah Baily</h1>', '<h1>Hi, [firstname,fallback=there]</h1>'],
    // As public templates write it too: the tag inside the template's own link.
    ['<a href="#">Unsubscribe</a>', '<a href="#"><unsubscribe>Unsubscribe</unsubscribe></a>'],
  ],
  'sidebar-hero.html': [
    ['<h1>Hi, Elijah Baily</h1>', '<h1>Hi, [fullname,fallback=friend]</h1>'],
    ['<a href="#">Unsubscribe</a>', '<unsubscribe>Unsubscribe</unsubscribe>'],
  ],
  'newsletter.html': [['<a href="#">Click here to unsubscribe.</a>', '<unsubscribe>Click here to unsubscribe.</unsubscribe>']],
  'password.html': [['<a href="#">unsubscribe here</a>', '<unsubscribe>unsubscribe here</unsubscribe>']],
};

/** Mailchimp's merge tags in place of Foundation's placeholders: addresses Loops fills (unsubscribe, preferences, web view) and one it does not (a profile's address), a name, a conditional. */
const MAILCHIMP: Record<string, [string, string][]> = {
  'basic.html': [
    ['<h1>Hi, Susan Calvin</h1>', '<h1>Hi, *|FNAME|*</h1>'],
    ['<a href="#">Twitter</a>', '<a href="*|TWITTER:PROFILEURL|*">Twitter</a>'],
  ],
  'drip.html': [
    ['<a href="#">Manage Email Notifications</a>', '<a href="*|UPDATE_PROFILE|*">Manage Email Notifications</a>'],
    ['<a href="#">Unsubscribe</a>', '<a href="*|UNSUB|*">Unsubscribe</a>'],
  ],
  'marketing.html': [
    ['<a href="#">hello@nocopywrite.com</a>', '*|IFNOT:ARCHIVE_PAGE|*<a href="*|ARCHIVE|*">View this email in your browser</a>*|END:IF|*'],
    ['<a href="#">Manage Email Notifications</a>', '<a href="*|UPDATE_PROFILE|*">Manage Email Notifications</a>'],
    ['<a href="#">Unsubscribe</a>', '<a href="*|UNSUB|*">Unsubscribe</a>'],
  ],
  'hero.html': [
    ['<h1>Hi, Elijah Baily</h1>', '<h1>Hi, *|FNAME|*</h1>'],
    ['<a href="#">Unsubscribe</a>', '<a href="*|UNSUB|*">Unsubscribe</a>'],
  ],
  'newsletter.html': [['<a href="#">Click here to unsubscribe.</a>', '<a href="*|UNSUB|*">Click here to unsubscribe.</a>']],
  'newsletter-2.html': [['<a href="#">Click here to unsubscribe.</a>', '<a href="*|UNSUB|*">Click here to unsubscribe.</a>']],
  'password.html': [['<a href="#">unsubscribe here</a>', '<a href="*|UNSUB|*">unsubscribe here</a>']],
  'sidebar.html': [['<a href="#">Unsubscribe</a>', '<a href="*|UNSUB|*">Unsubscribe</a>']],
  'sidebar-hero.html': [
    ['<h1>Hi, Elijah Baily</h1>', '<h1>Hi, *|FNAME|* *|LNAME|*</h1>'],
    ['<a href="#">Unsubscribe</a>', '<a href="*|UNSUB|*">Unsubscribe</a>'],
  ],
  'welcome.html': [
    ['<a href="#">Facebook</a>', '<a href="*|FACEBOOK:PROFILEURL|*">Facebook</a>'],
    ['<a href="#">Twitter</a>', '<a href="*|TWITTER:PROFILEURL|*">Twitter</a>'],
  ],
};

/** Foundation's templates written again in each provider's form, under the directory named. */
const TAGGED: Record<string, Record<string, [string, string][]>> = { 'foundation-emails-cm': CAMPAIGN_MONITOR, 'foundation-emails-mc': MAILCHIMP };

/** Foundation's templates, each inlined as sent, and again in each provider's form, under the names the tests use. */
function foundation(): Record<string, string> {
  const files: Record<string, string> = {};
  const css = readFileSync(STYLESHEET, 'utf8');
  for (const file of readdirSync(FOUNDATION).filter((name) => name.endsWith('.html'))) {
    const source = readFileSync(join(FOUNDATION, file), 'utf8');
    files[`foundation-emails/${file}`] = inlined(file, source, css);
    for (const [form, forms] of Object.entries(TAGGED)) {
      const tags = forms[file];
      if (tags === undefined) continue;
      let tagged = source;
      for (const [placeholder, tag] of tags) {
        if (!tagged.includes(placeholder)) throw new Error(`foundation-emails/${file} no longer holds ${placeholder}`);
        tagged = tagged.replaceAll(placeholder, tag);
      }
      files[`${form}/${file}`] = inlined(file, tagged, css);
    }
  }
  return files;
}

/** Every file of the corpus, by its path in it, with its text. */
function corpusFiles(): Map<string, string> {
  const committed = readdirSync(COMMITTED, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const files = new Map(committed.map((file) => [relative(COMMITTED, file), readFileSync(file, 'utf8')]));
  for (const [file, text] of Object.entries({ ...packaged(), ...foundation() })) files.set(file, text);
  return files;
}

/**
 * The directory of the whole corpus (the committed files, the templates of packages beside them,
 * `foundation-emails/`, `foundation-emails-cm/` and `foundation-emails-mc/`), built and written
 * once for the whole run (about 1.6 s of CPU, in each process that needed it when each built its
 * own) and shared by the test files that read it: none writes there.
 */
export function corpusDirectory(): string {
  return sharedByRun('convert-corpus', (directory) => {
    for (const [file, text] of corpusFiles()) {
      mkdirSync(dirname(join(directory, file)), { recursive: true });
      writeFileSync(join(directory, file), text);
    }
  });
}
