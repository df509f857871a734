/**
 * The corpus of public templates that convert is held to, laid out in one directory for the tests
 * that convert it, check it and measure it in Chromium: the templates committed under
 * test/corpus/convert (each beside its licence; sources in its README); the templates npm packages
 * ship as they were published, under the names the tests use (React Email's starter templates from
 * `create-email`, MJML's social example from `mjml-social`'s README); and Foundation for Emails'
 * eleven templates, read from its npm package (`foundation-emails`, MIT, a development dependency),
 * each with the package's stylesheet inlined into it by juice, as an email's build inlines it
 * before sending (the package's templates link the stylesheet, which no mail client loads); and
 * six of them again in Campaign Monitor's form, its tags written where Foundation's placeholders
 * stand (an unsubscribe link, a preferences link, a greeting's name), as MIT allows. Nothing of
 * the package is copied into the repository.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import juice from 'juice';
import { tempDir } from './temp.js';

const COMMITTED = join(import.meta.dirname, '../corpus/convert');

const packageDirectory = (name: string) => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));

/** React Email's demo templates of February 2024 as `create-email` (pinned to that release) ships them for a new project. */
const REACT_EMAIL_STARTER = join(packageDirectory('create-email'), 'template/emails');
const REACT_EMAIL_STARTER_FILES = ['notion-magic-link.tsx', 'plaid-verify-identity.tsx', 'stripe-welcome.tsx', 'vercel-invite-user.tsx'];

/** The first MJML example of mjml-social's README: social icons with labels. */
function socialReadmeExample(): string {
  const readme = readFileSync(join(packageDirectory('mjml-social'), 'README.md'), 'utf8');
  const example = /```xml\n(<mjml>[\s\S]*?<\/mjml>\n)```/.exec(readme);
  if (example === null) throw new Error('mjml-social/README.md no longer holds an MJML example');
  return example[1] as string;
}

/** Lee Munroe's simple transactional email, its CSS inlined, as `responsive-html-email-template` ships it. */
const LEE_MUNROE = join(packageDirectory('responsive-html-email-template'), 'email-inlined.html');

/** The templates packages ship, written into the corpus under the names the tests use. */
function layOutPackaged(directory: string): void {
  for (const file of REACT_EMAIL_STARTER_FILES) cpSync(join(REACT_EMAIL_STARTER, file), join(directory, 'react-email', file));
  mkdirSync(join(directory, 'html-leemunroe'));
  cpSync(LEE_MUNROE, join(directory, 'html-leemunroe/email.html'));
  writeFileSync(join(directory, 'mjml/social-readme.mjml'), socialReadmeExample());
}

const PACKAGE = packageDirectory('foundation-emails');
/** Foundation for Emails' templates as its package ships them, compiled from Inky, and the stylesheet they link. */
const FOUNDATION = join(PACKAGE, '.download/templates');
const STYLESHEET = join(PACKAGE, 'dist/foundation-emails.css');
const LINK = /<link rel="stylesheet" href="[^"]*foundation-emails\.css">\s*/;

/** A template as sent: its link to the stylesheet replaced by the stylesheet's rules on each element (media queries kept in a <style>). */
function inlined(file: string, source: string, css: string): string {
  if (!LINK.test(source)) throw new Error(`foundation-emails/${file} no longer links foundation-emails.css`);
  return juice.inlineContent(source.replace(LINK, ''), css, { preserveMediaQueries: true, applyWidthAttributes: false, applyHeightAttributes: false });
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

let laid: string | undefined;

/**
 * The directory of the whole corpus (the committed templates, those of packages beside them,
 * `foundation-emails/` and `foundation-emails-cm/`), made once per test file, in its own temporary directory (a worker
 * that runs several files keeps this module, not the directories of the files before).
 */
export function corpusDirectory(): string {
  if (laid?.startsWith(tmpdir()) && existsSync(laid)) return laid;
  const directory = tempDir('loopsctl-corpus-');
  cpSync(COMMITTED, directory, { recursive: true });
  layOutPackaged(directory);
  mkdirSync(join(directory, 'foundation-emails'));
  mkdirSync(join(directory, 'foundation-emails-cm'));
  const css = readFileSync(STYLESHEET, 'utf8');
  for (const file of readdirSync(FOUNDATION).filter((name) => name.endsWith('.html'))) {
    const source = readFileSync(join(FOUNDATION, file), 'utf8');
    writeFileSync(join(directory, 'foundation-emails', file), inlined(file, source, css));
    const tags = CAMPAIGN_MONITOR[file];
    if (tags === undefined) continue;
    let tagged = source;
    for (const [placeholder, tag] of tags) {
      if (!tagged.includes(placeholder)) throw new Error(`foundation-emails/${file} no longer holds ${placeholder}`);
      tagged = tagged.replaceAll(placeholder, tag);
    }
    writeFileSync(join(directory, 'foundation-emails-cm', file), inlined(file, tagged, css));
  }
  laid = directory;
  return directory;
}
