/** `content check`: the LMX specification's rules on files, offline. */
import { countOf } from '../../render/numbers.js';
import type { Handler } from '../../core/declare.js';
import { ExitCode } from '../../base/exit-codes.js';
import type { LmxKind } from '../../lmx/index.js';
import { DEFAULT_DIRECTORY } from './files.js';
import { renderChecks } from './render.js';
import { checkPaths, checkRecord } from './check.js';

interface CheckOptions {
  kind?: LmxKind;
  strict?: boolean;
}

/** `content check`: the LMX specification's rules on files, offline; exit 1 on errors (--strict: warnings too). */
export const check: Handler<[string[]], CheckOptions> = async (context, [paths], options) => {
  const checks = checkPaths(paths.length === 0 ? [DEFAULT_DIRECTORY] : paths, options.kind);
  const errors = checks.reduce((sum, file) => sum + file.errors.length, 0);
  const warnings = checks.reduce((sum, file) => sum + file.warnings.length, 0);
  const { out } = context;
  if (out.json) await out.writeJson(checks.map(checkRecord));
  else {
    const text = renderChecks(out, checks);
    if (text !== '') await out.write(text);
    // The files the errors and warnings are in, all of them: a warning in a file without errors is in a file too.
    const withProblems = checks.filter((file) => file.errors.length > 0 || file.warnings.length > 0).length;
    out.note(
      `Checked ${countOf(checks.length, 'file')}: ${countOf(errors, 'error')}, ${countOf(warnings, 'warning')}${withProblems > 0 ? ` in ${countOf(withProblems, 'file')}` : ''}.`,
    );
    const unkinded = checks.filter((file) => file.kind === undefined).length;
    if (unkinded > 0)
      out.note(`${countOf(unkinded, 'file')} outside a pulled tree: their variables' namespaces were not checked; say the kind of email with --kind.`);
  }
  return errors > 0 || (options.strict && warnings > 0) ? ExitCode.mismatch : ExitCode.ok;
};
