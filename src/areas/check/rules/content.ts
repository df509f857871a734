/**
 * The content family: what the platform's own check (Guardian) finds in each email that can be
 * sent, the LMX specification's rules (the validator `content check` runs), and transactional
 * emails whose draft says something else than what is published.
 */
import { checkLmx } from '../../../lmx/index.js';
import { type EmailMessage, FALLBACK_FIELD_NAMES } from '../../../platform/email-messages/schemas.js';
import { editHint, whichEmail } from '../emails.js';
import type { CheckedMessage } from '../gather.js';
import { type Problem, problem } from '../records.js';
import { declareRules, type RuleFamily } from './rule.js';

const { rules, severityOf } = declareRules('content', {
  'guardian-error': { severity: 'error', summary: "an error of Guardian, the platform's check, which blocks publishing" },
  'guardian-warning': { severity: 'warning', summary: 'a warning of Guardian (a variable without a fallback, for one)' },
  'lmx-error': { severity: 'error', summary: 'LMX that breaks a rule of the specification (what `content check` finds)' },
  'lmx-warning': { severity: 'warning', summary: 'LMX the specification warns about (an unknown attribute, for one)' },
  'unpublished-changes': { severity: 'warning', summary: 'a transactional email whose draft differs from its published version' },
});

/** The fields of a message that change what a recipient gets. */
const CONTENT_FIELDS = [
  'subject',
  'previewText',
  'fromName',
  'fromEmail',
  'replyToEmail',
  'ccEmail',
  'bccEmail',
  'languageCode',
  'emailFormat',
  'lmx',
  ...FALLBACK_FIELD_NAMES,
] as const;

function changedFields(draft: EmailMessage, published: EmailMessage): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {}) || (a ?? '') === (b ?? '');
  return CONTENT_FIELDS.filter((field) => !same(draft[field], published[field]));
}

function guardianProblems(checked: CheckedMessage): Problem[] {
  if (checked.guardian === undefined) return [];
  const found = [...checked.guardian.errors.map((rule) => ({ rule, error: true })), ...checked.guardian.warnings.map((rule) => ({ rule, error: false }))];
  return found.map(({ rule, error }) => {
    const items = rule.items.map((item) => item.label).join(', ');
    const name = error ? 'guardian-error' : 'guardian-warning';
    return problem(
      checked.record,
      name,
      severityOf(name),
      `${whichEmail(checked)}: ${rule.title}${items === '' ? '' : ` (${items})`}: ${rule.description}`,
      editHint(checked),
    );
  });
}

function lmxProblems(checked: CheckedMessage, componentIds: ReadonlySet<string>): Problem[] {
  const { problems } = checkLmx(checked.message.lmx, { kind: checked.lmxKind, componentIds });
  return problems.map((found) => {
    const name = found.severity === 'error' ? 'lmx-error' : 'lmx-warning';
    return problem(
      checked.record,
      name,
      severityOf(name),
      `${whichEmail(checked)}, line ${found.line}, column ${found.column}: ${found.message} (${found.rule})`,
      found.fix,
    );
  });
}

export const content: RuleFamily = {
  family: 'content',
  rules,
  check(account) {
    const componentIds = new Set(account.components.map((component) => component.id));
    const problems = account.messages.flatMap((checked) => [...guardianProblems(checked), ...lmxProblems(checked, componentIds)]);
    for (const { ref, draft, published } of account.transactional) {
      if (draft === undefined || published === undefined) continue;
      const changed = changedFields(draft, published);
      if (changed.length === 0) continue;
      problems.push(
        problem(
          ref,
          'unpublished-changes',
          severityOf('unpublished-changes'),
          `the draft differs from what is published (${changed.join(', ')}): sends still use the published version`,
          `publish the draft (\`loopsctl transactional publish ${ref.id}\`) or discard it in the app`,
        ),
      );
    }
    return problems;
  },
};
