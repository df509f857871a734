/**
 * Spam risk, offline: a documented rule set in the manner of SpamAssassin's, each rule adding points
 * to the email's score (docs/check.md gives each rule's reason and source). It reads what a filter
 * reads: the subject, the text, the links and the images, and the size of the HTML against its text.
 */
import type { LmxDocument, LmxElement } from '../parse.js';
import { textOf } from '../tree.js';
import { finding, QA_RULES, type QaFinding } from './finding.js';

/** SpamAssassin's own default `required_score`: a total at or over it is spam to a default install. */
export const DEFAULT_SPAM_THRESHOLD = 5;

/** Hosts whose links only redirect: filters cannot see where they lead, and spam uses them for that. */
export const URL_SHORTENERS: ReadonlySet<string> = new Set([
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  'goo.gl',
  't.co',
  'ow.ly',
  'is.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'bit.do',
  'rb.gy',
  't.ly',
  'lnkd.in',
  'v.gd',
  'shorte.st',
  'adf.ly',
]);

/** Phrases filters' body rules score, lowercase; each found adds the rule's points, at most three times. */
export const TRIGGER_PHRASES: readonly string[] = [
  'act now',
  '100% free',
  'risk-free',
  'risk free',
  'no credit check',
  'you have been selected',
  "you're a winner",
  'you are a winner',
  'cash bonus',
  'make money fast',
  'earn extra cash',
  'double your money',
  'this is not spam',
  'not junk',
  'once in a lifetime',
  'order now',
  'buy now',
  'limited time offer',
  'urgent response',
  'lowest price',
  'miracle',
  'no obligation',
  'guaranteed income',
  'free gift',
  'winner',
];
const MAX_PHRASES_SCORED = 3;
/** Each phrase as a pattern that finds it between non-letters, made once: made anew, the 25 Unicode patterns cost each email's check about 0.1 ms. */
const PHRASE_PATTERNS: readonly (readonly [string, RegExp])[] = TRIGGER_PHRASES.map((phrase) => [
  phrase,
  new RegExp(`(^|[^\\p{L}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u'),
]);

/** Text in an email of images alone: under this many characters is nothing to read. */
export const IMAGE_ONLY_TEXT = 50;
/** Characters of text per image under which an email is mostly images. */
export const TEXT_PER_IMAGE = 100;
/** A text part under this share of the HTML's size is much shorter than it, once the HTML is larger than a bare layout. */
export const TEXT_PART_SHARE = 0.01;
export const TEXT_PART_MIN_HTML = 10 * 1024;

export interface SpamInput {
  subject: string;
  document: LmxDocument;
  elements: readonly LmxElement[];
  /** The rendered HTML's size in bytes. */
  htmlBytes: number;
}

/** The text a reader (and the text part) gets: every block's text, spaces collapsed. */
export function textOfDocument(document: LmxDocument): string {
  return document.children
    .map((node) => (node.kind === 'element' ? textOf(node) : node.kind === 'text' ? node.value.trim() : node.source))
    .filter((text) => text !== '')
    .join(' ');
}

function hostOf(address: string): string | undefined {
  try {
    return new URL(address).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

function subjectFindings(subject: string): QaFinding[] {
  const found: QaFinding[] = [];
  const letters = [...subject].filter((character) => character.toLowerCase() !== character.toUpperCase());
  const capitals = letters.filter((character) => character === character.toUpperCase()).length;
  if (letters.length >= 8 && capitals / letters.length >= 0.5)
    found.push(
      finding(
        'spam-subject-capitals',
        `${Math.round((100 * capitals) / letters.length)}% of the subject's letters are capitals`,
        'write the subject in sentence case',
      ),
    );
  const run = /([!$?])\1{2,}/.exec(subject)?.[0];
  if (run !== undefined)
    found.push(finding('spam-punctuation', `the subject has ${JSON.stringify(run)}`, 'one exclamation mark at most, and prices written once'));
  return found;
}

function bodyFindings(input: SpamInput, text: string): QaFinding[] {
  const found: QaFinding[] = [];
  const blocks = input.elements.filter((element) => element.children.some((child) => child.kind === 'text'));
  const punctuated = blocks.find((element) => element.children.some((child) => child.kind === 'text' && /([!$])\1{2,}/.test(child.value)));
  if (punctuated !== undefined) {
    const run = /([!$])\1{2,}/.exec(textOf(punctuated))?.[0] ?? '!!!';
    found.push(
      finding('spam-punctuation', `the text has ${JSON.stringify(run)}`, 'one exclamation mark at most, and prices written once', punctuated.position),
    );
  }
  const shortened = input.elements.flatMap((element) =>
    element.attributes
      .filter((attribute) => attribute.name === 'href' && URL_SHORTENERS.has(hostOf(attribute.value) ?? ''))
      .map((attribute) => ({ element, attribute })),
  );
  const first = shortened[0];
  if (first !== undefined)
    found.push(
      finding(
        'spam-url-shortener',
        `${shortened.length === 1 ? 'a link goes' : `${shortened.length} links go`} through a URL shortener (${hostOf(first.attribute.value)})`,
        'link to the page itself, on your own domain',
        first.attribute.position,
      ),
    );
  const lower = text.toLowerCase();
  const phrases = PHRASE_PATTERNS.filter(([, pattern]) => pattern.test(lower)).map(([phrase]) => phrase);
  if (phrases.length > 0)
    found.push(
      finding(
        'spam-trigger-phrase',
        `the text has phrases spam filters score: ${phrases.map((phrase) => JSON.stringify(phrase)).join(', ')}`,
        'say what the email offers in plain words',
        undefined,
        QA_RULES['spam-trigger-phrase'].score * Math.min(phrases.length, MAX_PHRASES_SCORED),
      ),
    );
  return found;
}

function imageFindings(input: SpamInput, text: string): QaFinding[] {
  const images = input.elements.filter((element) => element.name === 'Image');
  const first = images[0];
  if (first === undefined) return [];
  const characters = [...text].length;
  if (characters < IMAGE_ONLY_TEXT)
    return [
      finding(
        'spam-image-only',
        `the email is ${images.length === 1 ? 'one image' : `${images.length} images`} and ${characters} characters of text`,
        'put the message in text, with the images beside it',
        first.position,
      ),
    ];
  if (images.length >= 2 && characters / images.length < TEXT_PER_IMAGE)
    return [
      finding(
        'spam-mostly-images',
        `the email is mostly images: ${images.length} images and ${characters} characters of text`,
        `write at least ${TEXT_PER_IMAGE} characters of text per image, or use fewer images`,
        first.position,
      ),
    ];
  return [];
}

/** Each spam rule's findings for an email, and their total. */
export function spamFindings(input: SpamInput): { findings: QaFinding[]; total: number } {
  const text = textOfDocument(input.document);
  const findings = [...subjectFindings(input.subject), ...bodyFindings(input, text), ...imageFindings(input, text)];
  const textBytes = Buffer.byteLength(text);
  if (input.htmlBytes >= TEXT_PART_MIN_HTML && textBytes / input.htmlBytes < TEXT_PART_SHARE)
    findings.push(
      finding(
        'spam-text-part-short',
        `the text part (${textBytes} bytes) is ${((100 * textBytes) / input.htmlBytes).toFixed(1)}% of the HTML's ${input.htmlBytes} bytes`,
        'write more of the message as text',
      ),
    );
  const total = findings.reduce((sum, found) => sum + (found.score ?? 0), 0);
  return { findings, total };
}
