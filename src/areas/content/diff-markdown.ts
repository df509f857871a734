/**
 * `content diff --format markdown`: the differences as a pull request comment, in GitHub
 * Flavored Markdown. A table counts them by kind and what happened; then each record has a
 * section with its diff in a code fence. Names come from the account and the files, so they are
 * escaped (render/markup.ts): a `|` would split a table's cell, and `*`, `[` or `<` would format,
 * link or open HTML.
 */
import { escapeMarkdown, fenced, markdownCode } from '../../render/markup.js';

/** One record that differs, as the comment tells it. */
export interface DiffEntry {
  kind: string;
  name: string;
  path: string;
  /** What happened, in words: `changed here`, `only in the account`. */
  action: string;
  /** The unified diff (or a workflow's graph in words, then its emails' diffs). */
  patch: string;
}

function table(entries: readonly DiffEntry[]): string {
  const counts = new Map<string, number>();
  for (const { kind, action } of entries) {
    const key = JSON.stringify([kind, action]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows = [...counts].map(([key, count]) => {
    const [kind, action] = JSON.parse(key) as [string, string];
    return `| ${escapeMarkdown(kind)} | ${escapeMarkdown(action)} | ${count} |`;
  });
  return ['| Kind | Action | Records |', '| --- | --- | ---: |', ...rows].join('\n');
}

/** The whole comment: a heading naming both sides, the table, and a section per record. */
export function renderDiffMarkdown(root: string, account: string, entries: readonly DiffEntry[]): string {
  const heading = `## Content: ${escapeMarkdown(root)} and ${escapeMarkdown(account)}`;
  if (entries.length === 0) return `${heading}\n\nBoth hold the same content.\n`;
  const details = entries.map(
    (entry) =>
      `### ${escapeMarkdown(entry.kind)} ${escapeMarkdown(entry.name)}: ${escapeMarkdown(entry.action)}\n\n${markdownCode(entry.path)}\n\n${fenced(entry.patch, 'diff')}`,
  );
  return `${[heading, table(entries), '## Details', ...details].join('\n\n')}\n`;
}
