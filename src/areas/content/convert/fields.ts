/**
 * The record's name and the message's fields of a converted email: its subject, preview text,
 * sender and language, from its source and from what its send gives it.
 */
import type { SourceDocument } from '../../../convert/document.js';
import { type ConvertKind, type Findings, textContent } from '../../../convert/model.js';
import type { SourceFile } from '../../../convert/sources/files.js';
import { holdsTemplateTag, TEMPLATE_TAG, templatePieces } from '../../../convert/variables.js';
import { FALLBACK_FIELDS, type FallbackKind } from '../../../platform/email-messages/schemas.js';

/** The message fields an email is given from outside its source: --subject, or the send of an app that `migrate report` read. */
export interface GivenFields {
  subject?: string;
  fromName?: string;
  fromEmail?: string;
}

/**
 * A subject or preview text with its template variables made LMX's; none where nothing is left
 * (Mailchimp's `*|MC:SUBJECT|*` alone, which Mailchimp fills from the campaign), so that the record
 * is listed as having none rather than written with an empty one.
 */
function fieldText(value: string | undefined, source: SourceFile, kind: ConvertKind, findings: Findings): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const at = { file: source.file, line: 1, column: 1 };
  const text = templatePieces(value.trim(), at, kind, findings)
    .map((piece) => ('text' in piece ? piece.text : `{${piece.variable}}`))
    .join('')
    .trim();
  return text === '' ? undefined : text;
}

/**
 * A record's name: the title its source or its send gives, as a name is read in a list (`transactional
 * list`), with a template's syntax taken out of it (listed): a name holds no variables. The file's
 * path where there is no title.
 */
export function recordName(title: string | undefined, source: SourceFile, findings: Findings): string {
  const plain = source.path.replace(/\.[^.]+$/, '');
  if (title === undefined || title.trim() === '') return plain;
  if (!holdsTemplateTag(title)) return title.trim();
  const name = title
    .replace(TEMPLATE_TAG, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s+([,.!?;:])/g, '$1')
    .replace(/[,;:]+(?=[.!?]|$)/g, '');
  findings.add(
    { file: source.file, line: 1, column: 1 },
    `the record's name from "${title.trim()}"`,
    'approximated',
    `named "${name || plain}": a name holds no variables, so the template's syntax was taken out`,
    'rename the record in its .json file if another name reads better',
  );
  return name || plain;
}

/** The language of a text as an ISO 639-1 code, where it can be told (src/lmx/qa/language.ts, which `content check` judges with). */
type LanguageOf = (text: string) => string | undefined;

/**
 * The message's languageCode: the language the source says it is in (`<html lang="en">`), as its
 * ISO 639-1 code, where its text is written in it or too short to tell; one the text belies (a
 * template's `lang="pt_br"` over English words) is listed and not carried.
 */
function languageCode(document: SourceDocument, source: SourceFile, languageOf: LanguageOf, findings: Findings): string | undefined {
  const declared = document.lang;
  if (declared === undefined) return undefined;
  const code = declared.toLowerCase().split(/[-_]/)[0]!;
  if (!/^[a-z]{2}$/.test(code)) return undefined;
  const written = languageOf(textContent(document.body));
  if (written === undefined || written === code) return code;
  findings.add(
    { file: source.file, line: 1, column: 1 },
    `the language lang="${declared}"`,
    'not carried',
    `its text is written in "${written}": the message is given no languageCode`,
    `set languageCode in the message's fields to the language the email is written in ("${written}")`,
  );
  return undefined;
}

/** The message's fields: subject, preview text, sender, language, and the fallbacks a template's defaults gave. */
export function messageFields(
  document: SourceDocument,
  given: GivenFields,
  source: SourceFile,
  kind: ConvertKind,
  findings: Findings,
  languageOf: LanguageOf,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  // What the app sends the email with wins over the title its source gives it, which no client shows as the subject.
  const subject = fieldText(given.subject ?? document.subject, source, kind, findings);
  if (subject !== undefined) fields.subject = subject;
  const previewText = fieldText(document.previewText, source, kind, findings);
  if (previewText !== undefined) fields.previewText = previewText;
  if (given.fromName !== undefined) fields.fromName = given.fromName;
  if (given.fromEmail !== undefined) fields.fromEmail = given.fromEmail;
  const language = languageCode(document, source, languageOf, findings);
  if (language !== undefined) fields.languageCode = language;
  for (const [namespace, values] of Object.entries(findings.fallbacks))
    if (Object.keys(values).length > 0) fields[FALLBACK_FIELDS[namespace as FallbackKind]] = values;
  return fields;
}
