/**
 * The email templates of a repository, found by their files (`.mjml`, React Email's `.tsx` and
 * `.jsx`, `.html` and Handlebars' `.hbs` where they are emails), each converted as `content convert`
 * converts it, in memory: nothing is written, uploaded, or run. What it lists is what the template
 * needs by hand.
 */
import { posix } from 'node:path';
import { LoopsctlError } from '../../base/errors.js';
import { walkTree } from '../../base/tree-files.js';
import { formatOf, readSource, type SourceFile, type SourceFormat, sharedPartials } from '../../convert/sources/files.js';
import { convertSources, type Made } from '../content/convert/command.js';
import type { GivenFields } from '../content/convert/fields.js';

/** What a dependency or a build made, not what the team wrote. */
const LEFT_OUT = new Set(['node_modules', 'vendor', 'dist', 'build', 'out', 'coverage', '__pycache__', 'venv']);

/** An HTML file is taken for an email where its path says so, or where it holds a template language's placeholders. */
const EMAIL_PATH = /(^|\/)(e-?mails?|mail|mailers?|templates?|notifications?|transactional)(\/|$)/i;
const PLACEHOLDERS = /\{\{|\*\|[A-Z_]+\|\*/;

export interface TemplateReport {
  /** Under the repository, with `/`. */
  path: string;
  format: SourceFormat;
  /** Things `content convert` lists for it: none means it converts as it is. */
  remediation: number;
  /** The constructs listed, each with how often. */
  constructs: { construct: string; count: number }[];
  /** The variables it uses, as LMX writes them for a transactional email. */
  variables: string[];
  /** The subject its record has: its send's, or its source's. */
  subject?: string;
  /** Where its record is, under the directory `--out` names, when one is written. */
  record?: string;
  /** Why convert refuses it, when it does. */
  refused?: string;
}

/** Whether a file of a template format is an email: React Email's import, or an HTML file in an email's place or with placeholders. */
function isEmail(file: SourceFile): boolean {
  // A file that imports only React Email's render() sends an email; a template imports its components.
  if (file.format === 'react') return /from\s*['"]@react-email\/(?!render['"])/.test(file.text);
  if (file.format === 'html') return EMAIL_PATH.test(posix.dirname(file.path)) || PLACEHOLDERS.test(file.text);
  return true;
}

/** The template files under the root (links, hidden entries and dependencies left out), and those that could not be read, with why. */
export function templateFiles(root: string, shown: string): { files: SourceFile[]; skipped: { path: string; reason: string }[] } {
  const files: SourceFile[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const leftOut = (name: string) => name.startsWith('.') || LEFT_OUT.has(name);
  for (const entry of walkTree(root, ({ name }) => !leftOut(name))) {
    const { path } = entry;
    if (leftOut(entry.name)) continue;
    if (entry.kind === 'link') skipped.push({ path, reason: 'a symbolic link, not followed' });
    const format = formatOf(entry.name);
    if (entry.kind !== 'file' || format === undefined) continue;
    try {
      const file = { path, file: posix.join(shown, path), format, text: readSource(root, path) };
      if (isEmail(file)) files.push(file);
    } catch (error) {
      if (!(error instanceof LoopsctlError)) throw error;
      skipped.push({ path, reason: error.message });
    }
  }
  return { files: files.sort((a, b) => a.path.localeCompare(b.path)), skipped };
}

/**
 * Each template converted alone, as a transactional email, in memory, with the subject and sender
 * its send gives it: the records of a tree under `tree` (written only when `--out` asks), and what
 * each needs. MJML partials are read with the email that includes them.
 */
export async function convertTemplates(
  root: string,
  shown: string,
  files: SourceFile[],
  target: { tree: string; given: ReadonlyMap<string, GivenFields> },
): Promise<{ reports: TemplateReport[]; records: Made[] }> {
  const { partials } = sharedPartials({ root, shown, files });
  const reports: TemplateReport[] = [];
  const made: Made[] = [];
  for (const file of files.filter((candidate) => !partials.has(candidate.path))) {
    const base = { path: file.path, format: file.format };
    try {
      const records = await convertSources({ root, shown, files: [file] }, { kind: 'transactional', root: target.tree, force: true, given: target.given });
      made.push(...records);
      const subject = records.find((record) => record.converted.subject !== undefined)?.converted.subject;
      const remediation = records.flatMap((record) => record.converted.remediation);
      const counts = new Map<string, number>();
      for (const item of remediation) counts.set(item.construct, (counts.get(item.construct) ?? 0) + 1);
      reports.push({
        ...base,
        remediation: remediation.length,
        constructs: [...counts].map(([construct, count]) => ({ construct, count })),
        variables: [...new Set(records.flatMap((record) => record.converted.variables.map((variable) => variable.lmx)))],
        ...(subject === undefined ? {} : { subject }),
      });
    } catch (error) {
      if (!(error instanceof LoopsctlError)) throw error;
      reports.push({ ...base, remediation: 0, constructs: [], variables: [], refused: error.message });
    }
  }
  return { reports, records: made };
}
