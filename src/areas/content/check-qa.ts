/**
 * `content check`'s and `content preview`'s share of the qa rules: an email file checked for
 * accessibility and spam risk, as `check` checks the account's: in a tree, drawn with the tree's
 * theme and components under its subject; named alone, with the default theme and its own
 * <Style />, loading nothing of the tree. A spam rule's finding is told only when the email's total
 * reaches the threshold; the total names every rule that added to it.
 */
import { parseLmx, themeIdOf, type LmxDocument } from '../../lmx/index.js';
import { qaFindings, type QaInput } from '../../lmx/qa/index.js';
import { renderLmx } from '../../lmx/render.js';
import type { CheckProblem, FileCheck } from './check.js';

/** What a tree tells of an email file: its themes and components by id, and its message's subject. */
export interface QaTree {
  themes: ReadonlyMap<string, { styles: Record<string, unknown> }>;
  components: ReadonlyMap<string, LmxDocument>;
  fields: { subject?: string };
}

/** The qa findings of an email drawn, as warnings. */
export function qaWarnings(input: Omit<QaInput, 'spamThreshold'>): CheckProblem[] {
  const found = qaFindings(input);
  const spamy = found.some((each) => each.rule === 'spam-score');
  return found
    .filter((each) => each.severity !== 'info' || spamy)
    .map((each) => ({
      severity: 'warning',
      rule: each.rule,
      message: each.score === undefined || each.rule === 'spam-score' ? each.message : `${each.message} (+${each.score} spam points)`,
      fix: each.fix,
      // The subject, or the email as a whole: its first line.
      line: each.position?.line ?? 1,
      column: each.position?.column ?? 1,
      offset: each.position?.offset ?? 0,
    }));
}

/** The qa findings of one checked email file, drawn with its tree's theme and components and under its subject when the tree gives them. */
export function qaProblems(file: FileCheck, tree: QaTree | undefined): CheckProblem[] {
  if (file.source === undefined || file.kind === 'component') return [];
  const { document } = parseLmx(file.source);
  const themeId = themeIdOf(document);
  const theme = themeId === undefined ? undefined : tree?.themes.get(themeId)?.styles;
  const subject = tree?.fields.subject ?? '';
  const { html } = renderLmx(document, { theme, components: tree?.components, subject });
  return qaWarnings({ document, subject, theme, htmlBytes: Buffer.byteLength(html) });
}
