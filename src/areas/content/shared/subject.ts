/**
 * An email with no subject. The platform does not refuse one: its published description makes the
 * subject an optional field of an email message's update, none of Guardian's rules (what must be
 * resolved before an email is published) is about it, and an email message answers with a subject
 * that may be empty. So such an email is created, published and sent as it is, and its recipients
 * read "(no subject)". `content check` warns of it, in the file of the email's body whose fields
 * file (`draft.json`, a campaign's `email.json`, a workflow email's `email.json`) gives none, and
 * `content push` says so before it writes such a record, or one written without its fields file.
 */

import type { Uses } from '../../../core/capabilities.js';
import { countOf } from '../../../render/numbers.js';
import type { CheckProblem } from './check.js';
import type { EmailDirectory } from './lmx-files.js';
import type { RecordFiles } from './record-files.js';

export const NO_SUBJECT_RULE = 'no-subject';

/** Whether a fields file's subject is missing or blank. */
export function lacksSubject(subject: unknown): boolean {
  return typeof subject !== 'string' || subject.trim() === '';
}

/** `content check`'s warning on an email's body whose fields file (`fieldsFile`, as its name) gives no subject. */
export function noSubjectProblem(fieldsFile: string): CheckProblem {
  return {
    severity: 'warning',
    rule: NO_SUBJECT_RULE,
    message: `the email has no subject (${fieldsFile} gives none): the platform publishes and sends it so, and inboxes show it as "(no subject)"`,
    fix: `give ${fieldsFile} a "subject"`,
    line: 1,
    column: 1,
    offset: 0,
  };
}

/** The fields file of the message a push writes, by the record's kind: the draft of a transactional email, a campaign's email. */
const PUSHED_FIELDS: Partial<Record<EmailDirectory, string>> = { transactional: 'draft.json', campaigns: 'email.json' };

/**
 * The note a push makes before it writes (or plans) records whose email has no subject: none when
 * every one has a subject. A fields file that is not JSON is left to the reading that refuses it.
 */
export function noteNoSubject(context: Uses<'out'>, records: readonly RecordFiles[]): void {
  const lacking = records.filter((record) => {
    const file = PUSHED_FIELDS[record.kind];
    if (file === undefined || !record.files.has(`${file.slice(0, -'.json'.length)}.lmx`)) return false;
    const text = record.files.get(file);
    if (text === undefined) return true;
    try {
      return lacksSubject((JSON.parse(text) as { subject?: unknown } | null)?.subject);
    } catch {
      return false;
    }
  });
  if (lacking.length === 0) return;
  context.out.note(
    `${countOf(lacking.length, 'email')} with no subject: ${lacking.map((record) => `${record.path}/${PUSHED_FIELDS[record.kind]}`).join(', ')}. The platform takes and sends an email so (inboxes show "(no subject)"): give it a "subject" first.`,
  );
}
