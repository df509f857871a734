/** Text views of content as code: a line per record pulled or pushed, and unified diffs. */
import { createTwoFilesPatch } from 'diff';
import { sanitize } from '../../../base/sanitize.js';
import type { GuardianRule } from '../../../platform/email-messages/schemas.js';
import type { Output } from '../../../render/output.js';
import { type LineStatus, renderLines } from '../../../render/status-lines.js';
import { styleFor } from '../../../render/style.js';
import { wrapLines } from '../../../render/wrap.js';
import type { AudienceKind } from './audience-state.js';
import type { FileCheck } from './check.js';
import type { EmailDirectory, Files } from './files.js';

/** What happened to one record. */
export interface Line {
  status: LineStatus;
  kind: EmailDirectory | 'workflows' | AudienceKind;
  path: string;
  name: string;
  id?: string;
  note?: string;
  /** Guardian's findings: the errors of a record refused, the warnings of one pushed. */
  rules?: GuardianRule[];
}

export { renderLines };

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
    const patch = createTwoFilesPatch(
      before === undefined ? '/dev/null' : `a/${path === '' ? '' : `${path}/`}${name}`,
      after === undefined ? '/dev/null' : `b/${path === '' ? '' : `${path}/`}${name}`,
      before ?? '',
      after ?? '',
      undefined,
      undefined,
      { context: 3 },
    );
    // The "Index:" and "===" lines jsdiff starts with are not part of git's form.
    text += patch
      .split('\n')
      .filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line))
      .map((line) => sanitize(line))
      .join('\n');
  }
  return text;
}

/**
 * A patch as a terminal shows it: a line wider than the window folds at its spaces, each piece
 * after the first marked `↳` under the line's own `+`, `-` or space, so a long LMX tag stays
 * readable; a pipe or a file gets the patch as made, for `git apply` and grep.
 */
export function patchOnTerminal(out: Output, patch: string): string {
  if (!out.tty) return patch;
  const width = out.columns;
  return patch
    .split('\n')
    .flatMap((line) => {
      if ([...line].length <= width) return [line];
      const marker = /^[-+ ]/.test(line) ? line[0]! : '';
      const room = Math.max(width - marker.length - 2, 10);
      const pieces = wrapLines(line.slice(marker.length), room).flatMap((piece) => {
        const chars = [...piece];
        const cut: string[] = [];
        for (let at = 0; at < chars.length; at += room) cut.push(chars.slice(at, at + room).join(''));
        return cut.length === 0 ? [''] : cut;
      });
      return pieces.map((piece, index) => (index === 0 ? `${marker}${piece}` : `${marker}↳ ${piece}`));
    })
    .join('\n');
}

/**
 * The part of a source line shown under a problem, sanitized, and the caret's place in it: the
 * whole line when it fits, else a window around the column, cut with `…`. A long line (one of
 * 100 KB with a problem every few bytes) is then not written whole under each of its problems.
 */
export function lineAround(line: string, column: number, width: number): { text: string; caret: number } {
  const room = Math.max(40, width);
  const whole = line.endsWith('\r') ? line.slice(0, -1) : line;
  // A window leaves a column for the ellipsis at each end it cuts: the line shown stays within the width.
  const inner = whole.length <= room ? room : room - 2;
  const start = whole.length <= room ? 0 : Math.max(0, Math.min(column - 1 - Math.floor(inner / 2), whole.length - inner));
  const end = Math.min(whole.length, start + inner);
  const before = `${start > 0 ? '…' : ''}${sanitize(whole.slice(start, column - 1))}`;
  return { text: `${before}${sanitize(whole.slice(column - 1, end))}${end < whole.length ? '…' : ''}`, caret: before.length };
}

/**
 * The problems of checked files, compiler style: `file:line:column rule message` (warnings say
 * so), the source line under it with a caret at the column, and what to write instead.
 */
export function renderChecks(out: Output, checks: readonly FileCheck[]): string {
  const style = styleFor(out);
  let text = '';
  for (const check of checks) {
    const lines = check.source?.split('\n');
    const problems = [...check.errors, ...check.warnings].sort((a, b) => a.offset - b.offset);
    for (const problem of problems) {
      const paint = problem.severity === 'error' ? style.red : style.yellow;
      const location = `${sanitize(check.file)}:${problem.line}:${problem.column}`;
      // An accessibility finding says its impact; another, that it is a warning.
      const said = `${sanitize(problem.message)}${problem.impact !== undefined ? ` (${problem.impact})` : problem.severity === 'warning' ? ' (warning)' : ''}`;
      // One line each, for grep and editors; on a terminal too narrow for it, the rule and message
      // go under the location, wrapped.
      text +=
        !out.tty || location.length + problem.rule.length + said.length + 2 <= out.columns
          ? `${style.bold(location)} ${paint(problem.rule)} ${said}\n`
          : `${style.bold(location)}\n${wrapLines(`  ${paint(problem.rule)} ${said}`, out.columns).join('\n')}\n`;
      const line = lines?.[problem.line - 1];
      const number = String(problem.line);
      const shown = line === undefined ? undefined : lineAround(line, problem.column, (out.tty ? out.columns : 120) - number.length - 3);
      if (shown !== undefined && shown.text.trim() !== '') {
        text += `${style.dim(`${number} |`)} ${shown.text}\n`;
        text += `${' '.repeat(number.length)} ${style.dim('|')} ${' '.repeat(shown.caret)}${paint('^')}\n`;
      }
      const fix = `${' '.repeat(String(problem.line).length)} ${style.dim('=')} fix: ${sanitize(problem.fix)}`;
      text += `${out.tty ? wrapLines(fix, out.columns).join('\n') : fix}\n`;
    }
  }
  return text;
}
