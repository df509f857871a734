/** The text view of doctor's checks: one line each, a hint under a failure. */

import { sanitize } from '../../base/sanitize.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { wrapLines } from '../../render/wrap.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  hint?: string;
}

/** The status column ("ok  ", "FAIL") and the space after it. */
const STATUS_WIDTH = 5;

export function renderChecks(out: Output, checks: Check[]): string {
  const style = styleFor(out);
  const width = Math.max(...checks.map(({ name }) => name.length));
  const indent = ' '.repeat(STATUS_WIDTH + width + 2);
  // On a terminal, a long detail wraps under its own column; off one, each check stays one line for grep.
  const wrapped = (text: string) => (out.tty ? wrapLines(text, Math.max(out.columns - indent.length, 20)) : [text]);
  const lines = checks.flatMap(({ name, ok, detail, hint }) => {
    const [first, ...rest] = wrapped(sanitize(detail));
    return [
      `${ok ? style.green('ok  ') : style.red('FAIL')} ${name.padEnd(width)}  ${first}`,
      ...rest.map((line) => indent + line),
      ...(hint === undefined ? [] : wrapped(`hint: ${sanitize(hint)}`).map((line) => indent + style.dim(line))),
    ];
  });
  const failed = checks.filter(({ ok }) => !ok).length;
  return `${lines.join('\n')}\n${failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`}\n`;
}
