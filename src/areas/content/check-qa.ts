/**
 * `content check`'s share of the qa rules: each email file checked for accessibility and spam risk,
 * as `check` checks the account's: in a tree, drawn with the tree's theme and components under its
 * subject; named alone, with the default theme and its own <Style />, loading nothing of the tree. A spam rule's finding is told only when the email's total reaches the threshold; the
 * total names every rule that added to it.
 */
import { parseLmx, themeIdOf } from '../../lmx/index.js';
import { qaFindings } from '../../lmx/qa/index.js';
import { renderLmx } from '../../lmx/render.js';
import type { CheckProblem, FileCheck } from './check.js';
import type { TreeContext } from './emails.js';

/**
 * The qa findings of one checked email file, as warnings (a spam total over the threshold too),
 * drawn with its tree's theme and components and under its subject when `context` gives them.
 */
export function qaProblems(file: FileCheck, context: TreeContext | undefined): CheckProblem[] {
  if (file.source === undefined || file.kind === 'component') return [];
  const { document } = parseLmx(file.source);
  const themeId = themeIdOf(document);
  const theme = themeId === undefined ? undefined : context?.themes.get(themeId)?.styles;
  const subject = context?.fields.subject ?? '';
  const { html } = renderLmx(document, { theme, components: context?.components, subject });
  const found = qaFindings({ document, subject, theme, htmlBytes: Buffer.byteLength(html) });
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
