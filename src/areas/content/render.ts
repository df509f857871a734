/** Text views of content as code: a line per record pulled or pushed, and unified diffs. */
import { createTwoFilesPatch } from 'diff';
import type { Output } from '../../render/output.js';
import { sanitize } from '../../render/sanitize.js';
import { styleFor } from '../../render/style.js';
import { renderTable } from '../../render/table.js';
import type { GuardianRule } from '../email-messages/schemas.js';
import type { Files, Kind } from './files.js';

/** What happened to one record. */
export interface Line {
  status: 'added' | 'updated' | 'unchanged' | 'gone' | 'created' | 'behind' | 'conflict' | 'refused' | 'skipped';
  kind: Kind;
  path: string;
  name: string;
  id?: string;
  note?: string;
  /** Guardian's findings: the errors of a record refused, the warnings of one pushed. */
  rules?: GuardianRule[];
}

export function renderLines(out: Output, lines: Line[]): string {
  if (lines.length === 0) return '';
  const style = styleFor(out);
  const paint: Partial<Record<Line['status'], (text: string) => string>> = { conflict: style.red, refused: style.red, gone: style.yellow, behind: style.yellow, created: style.green, added: style.green };
  return renderTable(
    out,
    [{ header: 'STATUS' }, { header: 'RECORD' }, { header: 'NOTE', truncate: true }],
    lines.map((line) => [{ text: line.status, paint: paint[line.status] }, line.path, line.note ?? '']),
  );
}

/**
 * A unified diff of each file from the account's side (a/) to the files' side (b/); a file on one
 * side only is added or removed whole. Text from the account is sanitized where it is shown.
 */
export function recordDiff(account: Files | undefined, local: Files | undefined, path: string): string {
  const names = [...new Set([...(account?.keys() ?? []), ...(local?.keys() ?? [])])].sort();
  let text = '';
  for (const name of names) {
    const before = account?.get(name);
    const after = local?.get(name);
    if (before === after) continue;
    const patch = createTwoFilesPatch(before === undefined ? '/dev/null' : `a/${path}/${name}`, after === undefined ? '/dev/null' : `b/${path}/${name}`, before ?? '', after ?? '', undefined, undefined, { context: 3 });
    // The "Index:" and "===" lines jsdiff starts with are not part of git's form.
    text += patch
      .split('\n')
      .filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line))
      .map((line) => sanitize(line))
      .join('\n');
  }
  return text;
}
