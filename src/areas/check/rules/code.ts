/**
 * The code family (with --code): what the app's source uses, compared with the account. A send to
 * a transactional id the account lacks or has not published, data variables that leave out one
 * the published email shows or name one it does not, an event no workflow or event pattern
 * knows, a mailing list or a contact property the account does not have.
 */

import type { CodeUse } from '../../../app-code/uses.js';
import { closeMatches } from '../../../base/suggest.js';
import { dataVariableVerdict, leftOut, unstatedNote } from '../../../platform/transactional/data-variables.js';
import type { Account } from '../gather.js';
import { type Problem, problem, type RecordRef } from '../records.js';
import { declareRules, type RuleFamily } from './rule.js';

const { rules, severityOf } = declareRules('code', {
  'code-unknown-transactional': { severity: 'error', summary: 'a send to a transactional id the account does not have' },
  'code-unpublished-transactional': { severity: 'error', summary: 'a send to a transactional email that is not published: the API refuses it' },
  'code-missing-data-variable': {
    severity: 'warning',
    summary: 'a send whose literal dataVariables leave out a variable the published email shows with no fallback, which the API does not say is optional',
  },
  'code-unknown-data-variable': { severity: 'error', summary: 'a send whose literal dataVariables name one the published email does not use' },
  'code-unknown-event': { severity: 'warning', summary: 'an event no workflow trigger or event pattern knows' },
  'code-unknown-mailing-list': { severity: 'error', summary: 'a mailing list id the account does not have' },
  // The API refuses a contact's create or update that sets a property the account lacks (400).
  'code-unknown-contact-property': { severity: 'error', summary: 'a contact property the account does not have: the API refuses the call' },
  'code-skipped': {
    severity: 'info',
    summary: 'what --code left unread: a symbolic link, a file over 2 MB or that its parser cannot read, the rest of a file over the token budget',
  },
});

type Rule = (typeof rules)[number]['name'];

const RECORD_KIND = { transactional: 'transactional', event: 'event', list: 'list', property: 'property' } as const;

/** A code problem is about the record the source names (the transactional email, the event), at the line that names it. */
function at(use: CodeUse, rule: Rule, message: string, fix: string, record?: RecordRef): Problem {
  const named = record ?? { kind: RECORD_KIND[use.kind], name: use.value, id: use.kind === 'transactional' || use.kind === 'list' ? use.value : '' };
  return problem(named, rule, severityOf(rule as never), message, fix, { file: use.file, line: use.line, column: use.column });
}

function transactionalProblems(account: Account, use: CodeUse): Problem[] {
  const found = account.transactional.find(({ record }) => record.id === use.value);
  if (found === undefined) {
    const byName = account.transactional.find(({ record }) => record.name === use.value);
    return [
      at(
        use,
        'code-unknown-transactional',
        `sends the transactional email ${use.value}, which the account does not have`,
        byName === undefined ? 'use an id from `loopsctl transactional list`' : `the id of "${byName.record.name}" is ${byName.record.id}`,
      ),
    ];
  }
  const name = `"${found.record.name}"`;
  if (found.record.publishedEmailMessageId === null)
    return [
      at(
        use,
        'code-unpublished-transactional',
        `sends ${name}, which is not published: the API refuses the send`,
        `publish it (\`loopsctl transactional publish ${found.record.id}\`)`,
        found.ref,
      ),
    ];
  if (use.dataVariables === undefined) return [];
  const shown = new Set(found.record.dataVariables);
  const problems: Problem[] = [];
  // The API never says a variable is required: one without a fallback may still be marked optional.
  const verdict = dataVariableVerdict(found.record.dataVariables, { fallbacks: found.published?.dataVariablesFallbacks });
  const { unstated } = leftOut(verdict, Object.fromEntries(use.dataVariables.map((variable) => [variable, true])));
  const unknown = use.dataVariables.filter((variable) => !shown.has(variable));
  if (unstated.length > 0)
    problems.push(
      at(
        use,
        'code-missing-data-variable',
        `sends ${name} without ${unstated.join(', ')}, which the published email shows with no fallback; ${unstatedNote(unstated)}`,
        'pass every variable the email shows, or give the ones it may go without a fallback in the email',
        found.ref,
      ),
    );
  if (unknown.length > 0)
    problems.push(
      at(
        use,
        'code-unknown-data-variable',
        `sends ${name} with ${unknown.join(', ')}, which the published email does not use`,
        'remove it, or add it to the email and publish',
        found.ref,
      ),
    );
  return problems;
}

export const code: RuleFamily = {
  family: 'code',
  rules,
  check(account) {
    if (account.code === undefined) return [];
    const events = new Set(account.eventPatterns.map((pattern) => pattern.eventName));
    for (const { record } of account.workflows)
      for (const node of Object.values(record.nodes)) {
        const eventName = (node as { eventName?: string | null }).eventName;
        if (eventName) events.add(eventName);
      }
    const lists = new Set(account.mailingLists.map((list) => list.id));
    const properties = new Set(account.contactProperties.map((property) => property.key));
    const skipped = account.code.skipped.map(({ path, reason }) =>
      problem(
        { kind: 'code', name: path, id: '' },
        'code-skipped',
        severityOf('code-skipped'),
        `not scanned: ${reason}`,
        'nothing, unless it holds calls to Loops',
      ),
    );
    return [
      ...skipped,
      ...account.code.uses.flatMap((use): Problem[] => {
        switch (use.kind) {
          case 'transactional':
            return account.listed.has('transactional emails') ? transactionalProblems(account, use) : [];
          case 'event':
            return events.has(use.value) || !account.listed.has('event patterns')
              ? []
              : [
                  at(
                    use,
                    'code-unknown-event',
                    `sends the event "${use.value}", which no workflow or event pattern knows: nothing happens when it arrives`,
                    'check the name against the workflow trigger',
                  ),
                ];
          case 'list':
            return lists.has(use.value) || !account.listed.has('mailing lists')
              ? []
              : [
                  at(
                    use,
                    'code-unknown-mailing-list',
                    `names the mailing list ${use.value}, which the account does not have`,
                    'use an id from `loopsctl lists list`',
                  ),
                ];
          case 'property':
            return properties.has(use.value) || !account.listed.has('contact properties')
              ? []
              : [
                  at(
                    use,
                    'code-unknown-contact-property',
                    `sets the contact property "${use.value}", which the account does not have: the API refuses the call (400)`,
                    misspelt(use.value, properties) ?? `create it (\`loopsctl contact-properties create ${use.value} --type <type>\`)`,
                  ),
                ];
        }
      }),
    ];
  },
};

/** "did you mean `plan`?" for a property a few edits from one the account has: a misspelling, not one to create. */
function misspelt(name: string, properties: ReadonlySet<string>): string | undefined {
  const [closest] = closeMatches(name, [...properties], 1);
  return closest === undefined ? undefined : `did you mean \`${closest}\`?`;
}
