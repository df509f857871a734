/**
 * What a transactional email brings to a plan: its create matched by name against the account's
 * list, and its data variables once its draft is published, against what is published now (the
 * record's `dataVariables`): added, removed, and the app's sends that leave out an added one
 * without a fallback, which the API refuses ("Missing required data variable(s)") unless the email
 * marks it optional, which the API does not say.
 */
import type { ApiClient } from '../../api/client.js';
import type { CodeUse } from '../../app-code/uses.js';
import { dataVariablesIn } from '../../lmx/index.js';
import { dataVariableVerdict, leftOut } from '../../platform/transactional/data-variables.js';
import { asked, type DataVariablesImpact } from '../change/impact/records.js';
import type { ResourceKind } from '../change/request-calls.js';
import { getEmailMessage } from '../email-messages/client.js';
import { afterUpdate, type WrittenMessage } from '../email-messages/impact.js';
import { getTransactional, transactionalEmails } from './client.js';

/** A transactional email's data variables once the plan is done: its draft as `written` leaves it (else as the account holds it), published or not. */
export async function dataVariablesImpact(
  client: ApiClient,
  record: string,
  transactionalId: string,
  written: WrittenMessage | undefined,
  publishes: boolean,
  uses: readonly CodeUse[] | undefined,
): Promise<DataVariablesImpact> {
  const base = { kind: 'data-variables' as const, record, transactionalId, publishes };
  const found = await asked(() => getTransactional(client, transactionalId));
  if ('error' in found) return { ...base, published: [], planned: [], added: [], removed: [], withoutFallback: [], error: found.error };
  const transactional = found.answer;
  // Only the draft becomes what is published; a plan that only publishes publishes the draft as the account holds it.
  let draft = written?.messageId === transactional.draftEmailMessageId ? written : undefined;
  if (draft === undefined && transactional.draftEmailMessageId !== null) {
    const current = await getEmailMessage(client, transactional.draftEmailMessageId);
    draft = { messageId: current.id, ...afterUpdate(current, {}) };
  }
  const published = transactional.publishedEmailMessageId === null ? [] : transactional.dataVariables;
  const planned = draft === undefined ? published : dataVariablesIn(draft.lmx);
  const added = planned.filter((name) => !published.includes(name));
  const removed = published.filter((name) => !planned.includes(name));
  const fallbacks = (draft?.fields.dataVariablesFallbacks ?? {}) as Record<string, string>;
  const { unstated: withoutFallback } = dataVariableVerdict(added, { fallbacks });
  const impact: DataVariablesImpact = { ...base, published, planned, added, removed, withoutFallback };
  if (uses === undefined) return impact;
  impact.callSites = uses
    .filter((use) => use.kind === 'transactional' && use.value === transactionalId)
    .map((use) => {
      const given = Object.fromEntries((use.dataVariables ?? []).map((name) => [name, true]));
      return {
        file: use.file,
        line: use.line,
        column: use.column,
        ...(use.dataVariables === undefined ? {} : { gives: use.dataVariables }),
        missing: use.dataVariables === undefined ? [] : leftOut({ required: [], optional: [], unstated: withoutFallback }, given).unstated,
        noLongerUsed: (use.dataVariables ?? []).filter((name) => removed.includes(name)),
      };
    });
  return impact;
}

export const TRANSACTIONAL: ResourceKind = {
  creates: { createTransactionalEmail: transactionalEmails },
  inverts: ['updateTransactionalEmail'],
  impacts: {
    publishTransactionalEmail: async (client, write, context) => [
      await dataVariablesImpact(client, write.record, write.ids.transactionalId!, undefined, true, context.uses),
    ],
  },
};
