/**
 * `content check --html`: an email's HTML as captured from a real send judged by the accessibility
 * rules, so a team can audit what the platform (or any sender) emits: the sandbox inbox's HTML or a
 * saved `.html`, or a saved `.eml` whose HTML part is read as its recipient's client reads it.
 * A `.eml` is parsed by postal-mime (multipart/alternative and nested parts, quoted-printable and
 * base64, each part's charset): MIME's corners are a standard to follow, not code to write again.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import PostalMime from 'postal-mime';
import { LocalFileError } from '../../base/errors.js';
import { readTreeFileAsync } from '../../base/tree-files.js';
import { finding } from '../../lmx/qa/index.js';
import { languageFindings } from '../../lmx/qa/language.js';
import { checkHtml } from './html-check.js';
import type { CheckProblem, FileCheck } from './shared/check.js';
import { type QaRules, ruledProblems } from './shared/check-qa.js';

/** What a capture may be: an email's HTML, or a whole message as saved from a client (`.eml`). */
const HTML_EXTENSIONS = new Set(['.html', '.htm']);
const MESSAGE_EXTENSIONS = new Set(['.eml']);
/** Past this, a file is no email's: a message with its attachments may be large, its HTML not. */
const MAX_HTML_BYTES = 5 * 1024 * 1024;
const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;

const checkable = (name: string) => HTML_EXTENSIONS.has(extname(name).toLowerCase()) || MESSAGE_EXTENSIONS.has(extname(name).toLowerCase());

/** The captures a path names: the file itself, or every .html, .htm and .eml under the directory (links not followed), in order. */
function capturesOf(path: string): { root: string; path: string }[] {
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true, recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') {
      if (!checkable(path)) throw new LocalFileError(`${path}: not an email's HTML`, { hint: 'name an .html, .htm or .eml file, or a directory of them' });
      return [{ root: dirname(path), path: basename(path) }];
    }
    if (code === 'ENOENT') throw new LocalFileError(`${path} does not exist`, { hint: 'name an .html, .htm or .eml file, or a directory of them' });
    throw new LocalFileError(`${path}: ${(error as Error).message}`, { cause: error });
  }
  const found = entries
    .filter((entry) => entry.isFile() && checkable(entry.name))
    .map((entry) => relative(path, join(entry.parentPath, entry.name)))
    .sort();
  if (found.length === 0) throw new LocalFileError(`${path} holds no .html, .htm or .eml file`, { hint: 'save an email as HTML or as .eml there' });
  return found.map((each) => ({ root: path, path: each }));
}

/** The HTML a capture holds and the language its message says it is in (an .eml's Content-Language). */
async function htmlOf(root: string, path: string): Promise<{ html: string; language?: string } | undefined> {
  const message = MESSAGE_EXTENSIONS.has(extname(path).toLowerCase());
  const bytes = await readTreeFileAsync(root, path, message ? MAX_MESSAGE_BYTES : MAX_HTML_BYTES);
  if (bytes === undefined) throw new LocalFileError(`${join(root, path)} does not exist`);
  if (!message) return { html: bytes.toString('utf8') };
  const email = await PostalMime.parse(bytes);
  if (email.html === undefined || email.html.trim() === '') return undefined;
  const language = email.headers.find((header) => header.key === 'content-language')?.value.trim();
  return { html: email.html, ...(language === undefined || language === '' ? {} : { language }) };
}

/**
 * Each capture under a path checked: its findings ruled by the rules file as a loose file's are
 * (no record's; without one, warnings, which the command raises at its --severity), its source the
 * HTML (an .eml's HTML part), whose lines the findings name.
 */
export async function checkHtmlCaptures(path: string, expected?: QaRules): Promise<FileCheck[]> {
  const ruling = expected === undefined ? undefined : { expected };
  const checks: FileCheck[] = [];
  for (const capture of capturesOf(path)) {
    const file = join(capture.root, capture.path);
    const read = await htmlOf(capture.root, capture.path);
    if (read === undefined) {
      const problems = ruledProblems([finding('no-html-part', 'the message has no HTML part: nothing to judge', 'save a message sent as HTML')], ruling);
      checks.push(fileCheck(file, undefined, problems));
      continue;
    }
    const audit = checkHtml(read.html, file);
    const language = languageFindings(
      audit.lang ?? read.language,
      audit.text,
      audit.lang === undefined && read.language !== undefined ? 'Content-Language' : 'lang',
      audit.position,
    );
    const problems = ruledProblems([...audit.findings, ...language], ruling).sort((a, b) => a.offset - b.offset);
    checks.push(fileCheck(file, read.html, problems));
  }
  return checks;
}

function fileCheck(file: string, source: string | undefined, problems: readonly CheckProblem[]): FileCheck {
  return {
    file,
    ...(source === undefined ? {} : { source }),
    errors: problems.filter((problem) => problem.severity === 'error'),
    warnings: problems.filter((problem) => problem.severity === 'warning'),
  };
}
