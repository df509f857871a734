/**
 * `content check`'s share of the qa rules: each email file of a tree (or named alone) drawn with the
 * tree's theme and components and checked for accessibility and spam risk, as `check` checks the
 * account's. A spam rule's finding is told only when the email's total reaches the threshold; the
 * total names every rule that added to it.
 */
import { parseLmx, themeIdOf } from '../../lmx/index.js';
import { qaFindings } from '../../lmx/qa/index.js';
import { renderLmx } from '../../lmx/render.js';
import type { CheckProblem, FileCheck } from './check.js';
import { treeContext, type TreeCache, type TreeContext } from './emails.js';

/** The tree's context of a file, or none outside a tree (or where its files cannot be read: the other checks name those). */
async function contextOf(file: string, cache: TreeCache): Promise<TreeContext | undefined> {
  try {
    return await treeContext(file, cache);
  } catch {
    return undefined;
  }
}

/** The qa findings of one checked email file, as warnings (a spam total over the threshold too). */
export async function qaProblems(file: FileCheck, cache: TreeCache): Promise<CheckProblem[]> {
  if (file.source === undefined || file.kind === 'component') return [];
  const context = await contextOf(file.file, cache);
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
