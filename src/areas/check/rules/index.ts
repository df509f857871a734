/** Every rule family of `loopsctl check`, and what the rules file and --only do to their findings. */
import type { Account } from '../gather.js';
import type { Family, Problem } from '../records.js';
import type { RulesFile } from '../rules-file.js';
import { ruledSeverity } from '../rules-lookup.js';
import { code } from './code.js';
import { content } from './content.js';
import { expectations } from './expectations.js';
import { metrics } from './metrics.js';
import { qa } from './qa.js';
import { rendered } from './rendered.js';
import type { RuleFamily, RuleSpec } from './rule.js';
import { wiring } from './wiring.js';

export const RULE_FAMILIES: readonly RuleFamily[] = [content, rendered, qa, wiring, expectations, metrics, code];

export const ALL_RULES: readonly RuleSpec[] = RULE_FAMILIES.flatMap((family) => family.rules);

/** By code unit, as every machine sorts it: the report's order does not depend on the locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * The problems of the families asked for, each at the severity the rules file gives its rule (or
 * left out when it says off), without the records it ignores and the findings it allows, records in order and, within one,
 * errors first.
 */
export function findProblems(account: Account, expected: RulesFile, only: ReadonlySet<Family> | undefined): Problem[] {
  const problems: Problem[] = [];
  for (const family of RULE_FAMILIES) {
    if (only !== undefined && !only.has(family.family)) continue;
    for (const found of family.check(account, expected)) {
      const severity = ruledSeverity(expected, { ...found, record: `${found.kind}/${found.name}` });
      if (severity !== undefined) problems.push({ ...found, severity });
    }
  }
  return problems.sort(
    (a, b) =>
      compare(a.kind, b.kind) ||
      compare(a.name, b.name) ||
      compare(a.id, b.id) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      compare(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}
