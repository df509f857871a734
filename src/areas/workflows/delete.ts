/** `workflow delete`: at a known revision, and only after a second yes when it stops sending or cancels queued contacts. */
import type { ApiClient } from '../../api/client.js';
import { checkId } from '../../api/ids.js';
import { RejectedError, UsageError } from '../../base/errors.js';
import { sanitize } from '../../base/sanitize.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { confirm } from '../../core/prompt.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import * as api from './client.js';

type DeleteOptions = { expectedRevisionId?: string; force?: boolean; yes?: boolean; confirmDelete?: boolean; dryRun?: boolean };

/** What the API's 409 says a delete would stop, when it asks for confirmation (else undefined: a stale revision). */
interface Impact {
  sending: boolean;
  queued?: number;
  /** The API's words, for wording loopsctl does not know. */
  said: string;
}

function confirmationAsked(error: unknown): Impact | undefined {
  if (!(error instanceof RejectedError) || error.status !== 409 || !/confirmDelete|confirm deletion/i.test(error.message)) return undefined;
  const queued = /(\d[\d,]*) queued contacts?/i.exec(error.message);
  return { sending: /currently sending/i.test(error.message), queued: queued ? Number(queued[1]!.replace(/,/g, '')) : undefined, said: error.message };
}

/** "is sending and has 3 queued contacts", and what deleting it stops: "stop sending it and cancel those 3 contacts". */
function impactWords(impact: Impact): { state: string; stops: string } {
  const contacts = impact.queued === undefined ? undefined : `${impact.queued} queued contact${impact.queued === 1 ? '' : 's'}`;
  const state = [impact.sending && 'is sending', contacts && `has ${contacts}`].filter(Boolean).join(' and ');
  const stops = [impact.sending && 'stop sending it', contacts && `cancel ${impact.queued === 1 ? 'that contact' : `those ${impact.queued} contacts`}`]
    .filter(Boolean)
    .join(' and ');
  if (state === '') return { state: `cannot be deleted without confirming (the API said: ${impact.said})`, stops: 'stop what it is doing' };
  return { state, stops };
}

/** " Sending stopped; 3 queued contacts cancelled." */
function afterDelete(impact: Impact): string {
  const queued = impact.queued === undefined ? undefined : `${impact.queued} queued contact${impact.queued === 1 ? '' : 's'} cancelled`;
  const parts = [impact.sending ? 'sending stopped' : undefined, queued].filter((part): part is string => part !== undefined);
  if (parts.length === 0) return '';
  const sentence = parts.join('; ');
  return ` ${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`;
}

function staleRevision(id: string, given: string | null, now: string | null): RejectedError {
  return new RejectedError(`workflow ${id} is at revision ${now ?? 'null'}, not ${given ?? 'null'}: it has changed since, so nothing was deleted`, {
    status: 409,
    code: 'stale_revision',
    hint: `see what changed with \`loopsctl workflow show ${id}\`; to delete it as it is now, run again with --expected-revision-id ${now ?? 'null'}`,
  });
}

/** A 409 that is not a request to confirm is a stale revision: name the current one, from the API's message or by reading it. */
async function explainDeleteFailure(error: unknown, client: ApiClient, id: string, revision: string | null): Promise<unknown> {
  if (!(error instanceof RejectedError) || error.status !== 409) return error;
  const latest = /latest workflowRevisionId is ([A-Za-z0-9_-]+)/i.exec(error.message)?.[1];
  const now =
    latest ??
    (await api.getWorkflow(client, id).then(
      (workflow) => workflow.workflowRevisionId ?? null,
      () => undefined,
    ));
  return now === undefined ? error : staleRevision(id, revision, now);
}

/**
 * Deletes a workflow at a known revision. A workflow that is sending or has queued contacts is
 * deleted only after a second, explicit yes (--confirm-delete), since that stops its sending and
 * cancels the queued contacts; until then nothing changes.
 */
export const remove: Handler<[string], DeleteOptions> = handler(['out', 'client', 'prompts'], async (context, [id], options) => {
  checkId(id, 'workflow id');
  // Both at once is refused where the command is declared; neither is refused here, as a dry run needs neither.
  if (options.expectedRevisionId === undefined && !options.force && !options.dryRun) {
    throw new UsageError('refusing to delete a workflow without knowing which revision of it is meant', {
      hint: `pass --expected-revision-id <revision> (\`loopsctl workflow show ${id} --jq .workflowRevisionId\` prints it), or --force to delete it at whatever revision it is now`,
    });
  }
  const { out, runtime } = context;
  const client = await context.client();
  const current = await api.getWorkflow(client, id);
  const now = current.workflowRevisionId ?? null;
  const given = options.expectedRevisionId;
  const revision = given === undefined ? now : given === 'null' ? null : given;
  if (revision !== now) throw staleRevision(id, revision, now);
  // The name comes from the API and is printed in the question, the dry run and the outcome.
  const named = `workflow ${id}${current.name ? ` "${sanitize(current.name)}"` : ''}`;
  if (options.dryRun) return dryRunDelete(context, current, named);
  await confirm(runtime, `Delete ${named}?`, options.yes);
  let impact: Impact | undefined;
  try {
    await api.deleteWorkflow(client, id, revision, false);
  } catch (error) {
    impact = confirmationAsked(error);
    if (impact === undefined) throw await explainDeleteFailure(error, client, id, revision);
    const { state, stops } = impactWords(impact);
    if (!options.confirmDelete) {
      if (!runtime.stdin.isTTY) {
        throw new RejectedError(`${named} was not deleted: it ${state}, and deleting it would ${stops}`, {
          status: 409,
          code: 'confirmation_required',
          hint: 'run it again with --confirm-delete to go ahead',
        });
      }
      out.note(`W${named.slice(1)} ${state}: deleting it will ${stops}.`);
      await confirm(runtime, `Delete it anyway and ${stops}?`, false);
    }
    try {
      await api.deleteWorkflow(client, id, revision, true);
    } catch (retried) {
      throw await explainDeleteFailure(retried, client, id, revision);
    }
  }
  // 204: the API says nothing, so --json prints nothing; the exit code tells.
  if (out.json) return;
  await out.writeProse(`Deleted ${named}.${impact === undefined ? '' : afterDelete(impact)}`);
});

/** What a delete would do, said without changing anything. */
async function dryRunDelete(context: Uses<'out'>, workflow: Workflow, named: string): Promise<void> {
  const { out } = context;
  const sending = workflow.status === 'Sending';
  const revision = workflow.workflowRevisionId ?? null;
  if (out.json) return out.writeJson({ dryRun: true, workflowId: workflow.id, workflowRevisionId: revision, status: workflow.status ?? null, sending });
  const lines = [`Dry run: would delete ${named} at revision ${revision ?? 'null'}.`];
  lines.push(
    sending
      ? 'It is sending: deleting it stops sending it and cancels any contacts queued in it, which the API asks to confirm (on a terminal you are asked; in scripts, --confirm-delete).'
      : 'If contacts are queued in it, deleting it cancels them, which the API asks to confirm (on a terminal you are asked; in scripts, --confirm-delete).',
  );
  lines.push('Nothing was changed.');
  await out.writeProse(lines.join('\n'));
}
