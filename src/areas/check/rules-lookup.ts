/**
 * The rules file without its schema: where `loops.check.yaml` is (the file --rules names, else the
 * one in the working directory or in its content tree, ./loops), found without reading it, and
 * what it makes of one finding: the severity it gives the finding's rule, or nothing when it turns
 * the rule off, ignores the record or lets the finding pass by its allow-list. `check` rules every
 * family's findings so, and `content check` its files' qa findings, by the same file; a command
 * that finds none (`content check` of an .lmx file) loads nothing more: this module is bundled
 * with the tree's file reading (src/build/build.mjs), apart from the check area's.
 */
import { namedFilePlace, treeEntryKind } from '../../base/tree-files.js';
import type { Severity } from './records.js';
import type { AllowEntry, RulesFile } from './rules-file.js';

const RULES_FILE_NAME = 'loops.check.yaml';

/**
 * Where the rules file is read: under `root`, at `path`, each segment of which is looked at and
 * never followed as a link (a repository can commit `loops.check.yaml -> ../.aws/credentials`);
 * what is above the root is the person's own path, links and all.
 */
export interface RulesPlace {
  root: string;
  path: string;
}

/**
 * The file --rules names, else loops.check.yaml in `under` (the working directory, or the root of
 * `loopsctl mcp`) or in its content tree (./loops); none is no expectations. A link found there is
 * refused, not passed over: it is never what a team means to keep.
 */
export function findRulesFile(named: string | undefined, under: string | undefined = '.'): RulesPlace | undefined {
  if (named !== undefined) return namedFilePlace(named);
  if (under === undefined) return undefined;
  return [RULES_FILE_NAME, `loops/${RULES_FILE_NAME}`]
    .map((path) => ({ root: under, path }))
    .find((place) => treeEntryKind(place.root, place.path) !== undefined);
}

/** A finding as the rules file sees it: its rule and severity, the record it is in (`transactional/Welcome`), the address it is about. */
export interface Ruled {
  rule: string;
  severity: Severity;
  /** `<kind>/<name>`: undefined for a file that is no record's (an .lmx file of its own), which only entries naming no record match. */
  record?: string;
  link?: string;
}

/** Whether an allow-list entry lets a finding pass: its rule, in its record (any without one), about its address (any without one). */
function allows(entry: AllowEntry, found: Ruled): boolean {
  if (entry.rule !== found.rule) return false;
  if (entry.record !== undefined && entry.record !== found.record) return false;
  if (entry.link === undefined) return true;
  if (found.link === undefined) return false;
  return entry.link.endsWith('*') ? found.link.startsWith(entry.link.slice(0, -1)) : found.link === entry.link;
}

/** The severity the finding is told at, or undefined when the rules file leaves it out. */
export function ruledSeverity(expected: Pick<RulesFile, 'rules' | 'ignore' | 'allow'>, found: Ruled): Severity | undefined {
  const severity = expected.rules[found.rule] ?? found.severity;
  if (severity === 'off' || (found.record !== undefined && expected.ignore.includes(found.record))) return undefined;
  if (expected.allow.some((entry) => allows(entry, found))) return undefined;
  return severity;
}
