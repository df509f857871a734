/**
 * The language an email says it is in against the one its text is written in. The message's
 * `languageCode` (an ISO 639-1 code the API takes: `en`, `fr`) tells clients and screen readers
 * which voice and rules to read it with; one missing, or naming another language than the text's,
 * reads the email wrongly. The text's language comes from tinyld's light model, made for the job
 * (trigram statistics of 24 widely used languages, no dependencies, ISO 639-1 codes as the API writes them).
 */
import { detect, supportedLanguages, toISO2 } from 'tinyld/light';
import type { LmxPosition } from '../problems.js';
import { finding, type QaFinding } from './finding.js';

/** Under this many letters, a text's language is not told reliably: a greeting alone is not judged. */
const LETTERS_TO_JUDGE = 40;

/** What the email says it is written in: the message's `languageCode`, an HTML document's `lang`, or a saved message's header. */
export type LanguageSource = 'languageCode' | 'lang' | 'Content-Language';

/**
 * The language of a text as an ISO 639-1 code, or undefined when it is too short or unclear to tell.
 * Variables (`{contact.firstName}`) and addresses are no words of a language: they are left out,
 * before the letters are counted too.
 */
export function languageOf(text: string): string | undefined {
  const words = text.replace(/\{[^{}]*\}/g, ' ').replace(/\b(?:https?:\/\/|www\.)\S+|\S+@\S+/gi, ' ');
  if ((words.match(/\p{L}/gu) ?? []).length < LETTERS_TO_JUDGE) return undefined;
  const found = detect(words);
  return found === '' ? undefined : found;
}

/** The languages the model tells apart: a code naming another cannot be judged against the text. */
const TOLD = new Set(supportedLanguages.map((language) => toISO2(language)));

/** `en-GB`, `EN_us` and `en` all name English. */
const primary = (code: string) => code.trim().toLowerCase().split(/[-_]/)[0]!;

/**
 * A missing `languageCode` (an HTML document's missing `lang` is `lang-missing`'s), and one that
 * names another language than the text is written in.
 */
export function languageFindings(code: string | undefined, text: string, source: LanguageSource, position?: LmxPosition): QaFinding[] {
  if (code === undefined || code.trim() === '')
    return source !== 'languageCode'
      ? []
      : [
          finding(
            'language-code-missing',
            'the message has no languageCode: clients and screen readers guess the language it is written in',
            `set it in the message's fields (languageCode: "${languageOf(text) ?? 'en'}")`,
          ),
        ];
  if (!TOLD.has(primary(code))) return [];
  const written = languageOf(text);
  if (written === undefined || written === primary(code)) return [];
  return [
    finding(
      'language-mismatch',
      `${source} is "${code}", and the text is written in "${written}": screen readers read it in the wrong voice`,
      `set ${source} to "${written}", or write the text in the language it names`,
      position,
    ),
  ];
}
