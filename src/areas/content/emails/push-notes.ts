/**
 * What `content push` says beside its lines: published files edited by hand, records that look
 * like others, and Guardian's rules in the words of a note.
 */
import type { Uses } from '../../../core/capabilities.js';
import type { GuardianRule } from '../../../platform/email-messages/schemas.js';
import type { SyncedRecord } from '../shared/files.js';
import { type RecordFiles, referenceDigestOf } from '../shared/record-files.js';
import { lookalikeNote, type Step } from './plan.js';

/** The published files are what is live, kept for review: an edit to them is never sent, which the push says. */
export function noteEditedReference(context: Uses<'out'>, locals: RecordFiles[], synced: Record<string, SyncedRecord>): void {
  const editedReference = locals.filter((local) => {
    const published = synced[local.path]?.published;
    // As they read, or as an older pull wrote them, with ids in their LMX.
    const digests = [local.files, local.withIds].map((files) => (files === undefined ? undefined : referenceDigestOf(files)));
    return published !== undefined && !digests.includes(published);
  });
  if (editedReference.length > 0) {
    context.out.note(
      `Published files edited in ${editedReference.map((local) => local.path).join(', ')}: published.* show what is live, are written anew by every pull and never pushed; edit draft.* and push with --publish.`,
    );
  }
}

/** Says of each record pushed that another record of the tree looks like it. */
export function noteLookalikes(context: Uses<'out'>, steps: Step[], lookalikes: Map<string, string>, here: ReadonlySet<string>): void {
  for (const step of steps) {
    const was = lookalikes.get(step.pair.local!.path);
    if (was !== undefined && step.standing !== 'same') context.out.note(`${lookalikeNote(step.pair.local!.path, was, here)}.`);
  }
}

/**
 * A Guardian rule as a push's note says it: its title, and the properties or variables it names
 * (`Contact property without fallback (firstName)`), so that the person knows which to fix.
 */
export function ruleWords(rule: GuardianRule): string {
  const named = rule.items.flatMap((item) => (item.codeName === undefined ? [] : [item.codeName]));
  return named.length === 0 ? rule.title : `${rule.title} (${named.join(', ')})`;
}
