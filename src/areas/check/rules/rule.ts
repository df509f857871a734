/** What every rule family is handed, and how a family declares its rules. */
import type { Account } from '../gather.js';
import type { Family, Problem, Severity } from '../records.js';
import type { RulesFile } from '../rules-file.js';

/** A rule as the rules file, --only and the docs name it. */
export interface RuleSpec {
  name: string;
  family: Family;
  /** Its severity unless the rules file says otherwise. */
  severity: Severity;
  /** What it catches, in a line. */
  summary: string;
}

/** A family: its rules, and the problems it finds in an account. */
export interface RuleFamily {
  family: Family;
  rules: readonly RuleSpec[];
  check(account: Account, expected: RulesFile): Problem[];
}

/** A family's rules, declared by name: `rule('insecure-link')` is then checked against them. */
export function declareRules<const Names extends string>(family: Family, specs: Record<Names, { severity: Severity; summary: string }>) {
  const rules = Object.entries<{ severity: Severity; summary: string }>(specs).map(([name, spec]) => ({ name, family, ...spec }));
  const severityOf = (name: Names): Severity => specs[name].severity;
  return { rules, severityOf };
}
