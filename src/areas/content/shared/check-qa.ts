/**
 * `content check`'s and `content preview`'s share of the qa rules: an email file checked for
 * accessibility and spam risk, as `check` checks the account's: in a tree, drawn with the tree's
 * theme and components (whose text, links and images count as the email's) under its subject;
 * named alone, with the default theme and its own <Style />, loading nothing of the tree. A spam
 * rule's finding is told only when the email's total reaches the threshold; the total names every
 * rule that added to it. With the rules file (`content check`, its `--html` too, `content preview`,
 * `content review`), each finding is at the severity it
 * gives its rule, left out when it turns the rule off, ignores the email's record or allows the
 * finding there, and its spamScore makes a total at or over it an error.
 */
import { type LmxDocument, parseLmx, themeIdOf } from '../../../lmx/index.js';
import { type QaFinding, type QaInput, qaFindings, textOfDocument } from '../../../lmx/qa/index.js';
import { renderLmx } from '../../../lmx/render/index.js';
import type { RulesFile } from '../../check/rules-file.js';
import { findRulesFile, ruledSeverity } from '../../check/rules-lookup.js';
import type { CheckProblem, FileCheck } from './check.js';

/** What a tree tells of an email file: its themes and components by id, and its message's subject. */
export interface QaTree {
  themes: ReadonlyMap<string, { styles: Record<string, unknown> }>;
  components: ReadonlyMap<string, LmxDocument>;
  fields: { subject?: string };
  /** The message's languageCode judged against the email's text, where its fields file is there to say it. */
  language?: LanguageJudge;
}

/** The language findings of an email's text (src/lmx/qa/language.ts), handed in so that its detector loads only where a message has fields. */
export type LanguageJudge = (text: string) => QaFinding[];

/** What of the rules file the qa findings are ruled by. */
export type QaRules = Pick<RulesFile, 'rules' | 'ignore' | 'allow' | 'spamScore'>;

/**
 * The rules file `check` reads, found as it finds it (--rules, else loops.check.yaml here or in
 * ./loops, or under the root of `loopsctl mcp`); its schema and the rules' names are loaded only
 * when there is one. Anything wrong in it stops the run (exit 2) before an email is checked.
 */
export async function readQaRules(named: string | undefined, root: string | undefined): Promise<RulesFile | undefined> {
  const place = findRulesFile(named, root);
  if (place === undefined) return undefined;
  const [{ readRulesFile }, { ALL_RULES }] = await Promise.all([import('../../check/rules-file.js'), import('../../check/rules/index.js')]);
  return readRulesFile(place, new Set(ALL_RULES.map((rule) => rule.name)));
}

/** The rules file, and the record (`transactional/Welcome`) the email is the body of; none for a loose file. */
export interface QaRuling {
  expected: QaRules;
  record?: string;
}

/** The qa findings of an email drawn, as a checked file's problems: errors where the rules file says so, warnings otherwise. */
export function qaCheckProblems({ language, ...input }: Omit<QaInput, 'spamThreshold'> & { language?: LanguageJudge }, ruling?: QaRuling): CheckProblem[] {
  const found = [...qaFindings({ ...input, spamThreshold: ruling?.expected.spamScore }), ...(language?.(textOfDocument(input.document)) ?? [])];
  return ruledProblems(found, ruling);
}

/**
 * Qa findings, of an email's LMX or of its captured HTML, as a checked file's problems, each at the
 * severity the rules file gives its rule (left out where it turns the rule off, ignores the record
 * or allows the finding; a note left out, but a spam rule's once the total is told), at its place.
 */
export function ruledProblems(found: readonly QaFinding[], ruling?: QaRuling): CheckProblem[] {
  const ruled = found.flatMap((each) => {
    const severity = ruling === undefined ? each.severity : ruledSeverity(ruling.expected, { rule: each.rule, severity: each.severity, record: ruling.record });
    return severity === undefined ? [] : [{ ...each, severity }];
  });
  const spamy = ruled.some((each) => each.rule === 'spam-score');
  return ruled
    .filter((each) => each.severity !== 'info' || (spamy && each.score !== undefined))
    .map((each) => ({
      severity: each.severity === 'error' ? 'error' : 'warning',
      rule: each.rule,
      ...(each.impact === undefined ? {} : { impact: each.impact }),
      message: each.score === undefined || each.rule === 'spam-score' ? each.message : `${each.message} (+${each.score} spam points)`,
      fix: each.fix,
      // The subject, or the email as a whole: its first line.
      line: each.position?.line ?? 1,
      column: each.position?.column ?? 1,
      offset: each.position?.offset ?? 0,
    }));
}

/** The qa findings of one checked email file, drawn with its tree's theme and components and under its subject when the tree gives them. */
export function qaProblems(file: FileCheck, tree: QaTree | undefined, ruling?: QaRuling): CheckProblem[] {
  if (file.source === undefined || file.kind === 'component') return [];
  const { document } = parseLmx(file.source);
  const themeId = themeIdOf(document);
  const theme = themeId === undefined ? undefined : tree?.themes.get(themeId)?.styles;
  const subject = tree?.fields.subject ?? '';
  const components = tree?.components;
  const { html } = renderLmx(document, { theme, components, subject });
  return qaCheckProblems({ document, subject, theme, htmlBytes: Buffer.byteLength(html), components, language: tree?.language }, ruling);
}
