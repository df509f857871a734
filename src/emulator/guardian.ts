/**
 * The emulator's reading of email bodies, on the LMX module: compiling a body as the API does
 * (422 with the first error, warnings in the answer), Guardian's answer from the LMX module's rule
 * set (the one `content check` runs), and the data variables a transactional email uses.
 */
import {
  checkLmx,
  GUARDIAN_RULES,
  guardianFindings,
  parseLmx,
  refusesBody,
  variablesOf,
  type LmxKind,
  type LmxNamespace,
  type LmxProblem,
} from '../lmx/index.js';
import type { GuardianReport, GuardianRule, LmxWarning } from '../platform/email-messages/schemas.js';

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

/** The names of the data variables a body uses, each once. */
export function dataVariablesIn(lmx: string): string[] {
  return variablesOf(parseLmx(lmx).document)
    .filter((variable) => variable.namespace === 'data')
    .map((variable) => variable.name);
}

/** Guardian's checks (src/lmx/guardian.ts), grouped by rule as the API answers them. */
export function guardian(lmx: string, parent: ParentKind, fallbacks: Partial<Record<LmxNamespace, Record<string, string>>>): GuardianReport {
  const report: GuardianReport = { errors: [], warnings: [] };
  const byRule = new Map<string, GuardianRule>();
  for (const finding of guardianFindings(parseLmx(lmx).document, { kind: parent, fallbacks })) {
    let rule = byRule.get(finding.rule);
    if (rule === undefined) {
      const { severity, title, description } = GUARDIAN_RULES[finding.rule];
      rule = { rule: finding.rule, title, description, items: [] };
      byRule.set(finding.rule, rule);
      (severity === 'error' ? report.errors : report.warnings).push(rule);
    }
    rule.items.push(finding.codeName === undefined ? { label: finding.label } : { label: finding.label, codeName: finding.codeName });
  }
  return report;
}
