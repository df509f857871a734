import { checkId } from '../../api/ids.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import type { MailingListAnswer } from '../../platform/workflows/schemas.js';
import { MailingListNames } from '../lists/names.js';
import * as api from './client.js';
import { contacts, destructiveBody, type PolicyOptions, presentChange, previewOutcome, type RevisionOption, send, startEdit } from './edit.js';
import { graphChanges } from './render.js';

/** A 400 that names the mailing list: the list, not the workflow, is what to look up. */
function listRefused(apiMessage: string): string | undefined {
  return /\bmailing list\b/i.test(apiMessage) ? 'see the mailing lists and their ids with `loopsctl lists list`' : undefined;
}

export const setList: Handler<[string, string], RevisionOption & PolicyOptions> = handler(
  ['out', 'client', 'prompts', 'globals'],
  async (context, [id, list], options) => {
    checkId(id, 'workflow id');
    if (options.queuedContacts === 'discard' && !options.dryRun) {
      await context.confirm(`Change the mailing list of workflow ${id} and discard the contacts queued in it that the new list excludes?`, options.yes);
    }
    // By its id or its name; none clears it. Read once asked: nothing is sent for a change the person did not confirm.
    const mailingListId = list === 'none' ? null : await new MailingListNames(() => context.client()).idOf(list, 'the mailing list');
    const edit = await startEdit(context, id, options);
    const answer: MailingListAnswer = await send(edit, () =>
      explained(api.changeMailingList(edit.client, id, edit.revision, mailingListId, destructiveBody(options)), { statuses: { 400: listRefused } }),
    );
    const target = mailingListId ?? 'none';
    if (answer.status === 'updated' && 'workflow' in answer) {
      const workflow = answer.workflow;
      const outcome = answer.queuedContactCount > 0 ? `${contacts(answer.queuedContactCount)} were discarded.` : undefined;
      return presentChange(context, answer, {
        summary: `Set the mailing list of workflow ${id} to ${target}.`,
        workflow,
        changes: graphChanges(edit.before, workflow),
        revision: answer.workflowRevisionId,
        outcome,
      });
    }
    const { outcome, code } = previewOutcome(answer.status, `the mailing list of workflow ${id} would change to ${target}`, answer.queuedContactCount);
    if (context.out.json) await context.out.writeJson(answer);
    else await context.out.writeProse(outcome);
    return code;
  },
);
