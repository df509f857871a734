/** The text view of doctor's checks: one line each, a hint under a failure. */
import type { Output } from '../../render/output.js';
import { sanitize } from '../../render/sanitize.js';
import { styleFor } from '../../render/style.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  hint?: string;
}

export function renderChecks(out: Output, checks: Check[]): string {
  const style = styleFor(out);
  const width = Math.max(...checks.map(({ name }) => name.length));
  const lines = checks.flatMap(({ name, ok, detail, hint }) => [
    `${ok ? style.green('ok  ') : style.red('FAIL')} ${name.padEnd(width)}  ${sanitize(detail)}`,
    ...(hint === undefined ? [] : [`     ${' '.repeat(width)}  ${style.dim(`hint: ${sanitize(hint)}`)}`]),
  ]);
  const failed = checks.filter(({ ok }) => !ok).length;
  return `${lines.join('\n')}\n${failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`}\n`;
}
