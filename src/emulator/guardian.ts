/**
 * The emulator's reading of email bodies, on the LMX module: compiling a body as the API does
 * (422 with the first error, warnings in the answer). Guardian's answer and the data variables a
 * transactional email uses are the LMX module's (guardianReportOf, dataVariablesIn).
 */
import { checkLmx, type LmxKind, type LmxProblem, refusesBody } from '../lmx/index.js';
import type { LmxWarning } from '../platform/email-messages/schemas.js';

export type ParentKind = 'transactional' | 'workflow' | 'campaign';

/** A body the API would refuse (422), with its first error. */
export class LmxCompileError extends Error {}

/** Where a problem is and what it is, as a one-line message. */
function describeProblem(problem: LmxProblem): string {
  return `line ${problem.line}, column ${problem.column}: ${problem.message} (${problem.rule}; ${problem.fix})`;
}

/**
 * Compiles a body: LmxCompileError naming every error `content check` refuses it for (the one rule
 * both read, refusesBody), in its order; else the warnings it reports.
 */
export function compileLmx(lmx: string, kind: LmxKind, componentIds: ReadonlySet<string>): LmxWarning[] {
  const { problems } = checkLmx(lmx, { kind, componentIds });
  const errors = problems.filter(refusesBody);
  if (errors.length > 0) throw new LmxCompileError(errors.map(describeProblem).join('; '));
  return problems.map((problem) => ({
    rule: problem.rule,
    severity: problem.severity,
    message: `${problem.message} (${problem.fix})`,
    path: `line ${problem.line}, column ${problem.column}`,
  }));
}
