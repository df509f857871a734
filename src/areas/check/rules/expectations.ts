/**
 * The expectations family: what the team wrote in loops.check.yaml about its records, compared
 * with the account. "Welcome series" must be sending; "Password reset" published with exactly
 * these data variables, the ones the app passes.
 */
import { type Problem, problem } from '../records.js';
import { declareRules, type RuleFamily } from './rule.js';

const { rules, severityOf } = declareRules('expectations', {
  'expected-record-missing': { severity: 'error', summary: 'a workflow or transactional email the rules file names is not in the account' },
  'expected-workflow-status': { severity: 'error', summary: 'a workflow whose status is not the one the rules file expects' },
  'expected-published': { severity: 'error', summary: 'a transactional email published, or not, against the rules file' },
  'expected-data-variables': { severity: 'error', summary: 'a published transactional email whose data variables are not the ones the rules file lists' },
});

const missing = (kind: 'workflow' | 'transactional', name: string): Problem =>
  problem(
    { kind, name, id: '' },
    'expected-record-missing',
    severityOf('expected-record-missing'),
    `loops.check.yaml expects a ${kind === 'workflow' ? 'workflow' : 'transactional email'} named "${name}", and the account has none`,
    'rename it back in the app, or change loops.check.yaml',
  );

export const expectations: RuleFamily = {
  family: 'expectations',
  rules,
  check(account, expected) {
    const problems: Problem[] = [];
    for (const [name, wanted] of Object.entries(expected.workflows)) {
      const found = account.workflows.find(({ ref }) => ref.name === name);
      if (found === undefined) {
        if (account.listed.has('workflows')) problems.push(missing('workflow', name));
        continue;
      }
      const status = (found.record.status ?? 'unknown').toLowerCase();
      if (wanted.status !== undefined && status !== wanted.status)
        problems.push(
          problem(
            found.ref,
            'expected-workflow-status',
            severityOf('expected-workflow-status'),
            `the workflow is ${status}; loops.check.yaml expects it ${wanted.status}`,
            `make it ${wanted.status} in the app`,
          ),
        );
    }
    for (const [name, wanted] of Object.entries(expected.transactional)) {
      const found = account.transactional.find(({ ref }) => ref.name === name);
      if (found === undefined) {
        if (account.listed.has('transactional emails')) problems.push(missing('transactional', name));
        continue;
      }
      const published = found.record.publishedEmailMessageId !== null;
      if (wanted.published !== undefined && published !== wanted.published)
        problems.push(
          problem(
            found.ref,
            'expected-published',
            severityOf('expected-published'),
            published
              ? 'the email is published; loops.check.yaml expects it not to be'
              : 'the email is not published; loops.check.yaml expects it published: sends to it fail',
            published ? 'change loops.check.yaml' : `publish it (\`loopsctl transactional publish ${found.ref.id}\`)`,
          ),
        );
      if (wanted.dataVariables !== undefined && published) {
        const has = new Set(found.record.dataVariables);
        const wants = new Set(wanted.dataVariables);
        const lacking = wanted.dataVariables.filter((variable) => !has.has(variable));
        const extra = found.record.dataVariables.filter((variable) => !wants.has(variable));
        if (lacking.length > 0 || extra.length > 0) {
          const parts = [
            lacking.length > 0 && `does not use ${lacking.join(', ')}, which the app passes`,
            extra.length > 0 && `uses ${extra.join(', ')}, which the app does not pass`,
          ].filter(Boolean);
          problems.push(
            problem(
              found.ref,
              'expected-data-variables',
              severityOf('expected-data-variables'),
              `the published email ${parts.join(' and ')}`,
              'make the email and loops.check.yaml (and the app) agree, then publish',
            ),
          );
        }
      }
    }
    return problems;
  },
};
