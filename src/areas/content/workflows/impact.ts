/**
 * What a workflow's edit script does to people: the API's dry run of each node it deletes and of a
 * change of its mailing list, each at the revision the plan was made against; for a workflow
 * contacts move through, what each send-email node it changes has sent so far; and Guardian on
 * each workflow email it writes (the API's answer on the saved message, the rules on the file's).
 */
import type { ApiClient } from '../../../api/client.js';
import { guardianReportOf } from '../../../lmx/index.js';
import { fallbacksOf } from '../../../platform/email-messages/fallbacks.js';
import { asked, type GuardianImpact, type ImpactRecord, type SendsImpact } from '../../change/impact/records.js';
import { guardianReport } from '../../email-messages/client.js';
import { getWorkflowNode } from '../../workflows/client.js';
import { dryRunDelete, dryRunListChange, sendsImpact } from '../../workflows/kind.js';
import type { WorkflowUnit } from './plan-unit.js';

export async function workflowImpact(client: ApiClient, unit: WorkflowUnit): Promise<ImpactRecord[]> {
  const records: ImpactRecord[] = [];
  const revision = unit.workflowRevisionId;
  for (const call of unit.calls) {
    if (call.op === 'deleteWorkflowNode') {
      const op = call.recursive ? ('deleteWorkflowNodeRecursively' as const) : ('deleteWorkflowNode' as const);
      const base = { kind: 'queued-contacts' as const, record: unit.record, op, node: call.key, removes: call.removes };
      const nodeId = unit.nodes[call.key];
      // A node the plan itself creates: no one can be waiting there, and the API is not asked.
      if (nodeId === undefined) records.push({ ...base, createdByPlan: true });
      else records.push({ ...base, ...(await dryRunDelete(client, unit.id, nodeId, revision, call.recursive)) });
    } else if (call.op === 'changeWorkflowMailingList') {
      const name = call.mailingList;
      const listId = name === null ? null : (unit.names.lists[name] ?? name);
      records.push({
        kind: 'queued-contacts',
        record: unit.record,
        op: 'changeWorkflowMailingList',
        mailingList: name,
        ...(await dryRunListChange(client, unit.id, revision, listId)),
      });
    }
  }
  const keyOf = (nodeId: string) => Object.entries(unit.nodes).find(([, id]) => id === nodeId)?.[0];
  if (unit.live) records.push(...(await sendsImpact(client, unit.record, unit.id, changedNodes(unit), keyOf)));
  records.push(...(await emailsImpact(client, unit)));
  return records;
}

/** The nodes of the account's workflow the script changes, by node id, with how. */
function changedNodes(unit: WorkflowUnit): Map<string, { node: string; change: SendsImpact['change'] }> {
  const changed = new Map<string, SendsImpact['change']>();
  for (const call of unit.calls) {
    if (call.op === 'updateWorkflowNode') changed.set(call.key, changed.get(call.key) ?? 'updated');
    else if (call.op === 'updateEmailMessage') changed.set(call.key, 'email');
    else if (call.op === 'deleteWorkflowNode') for (const key of call.removes) changed.set(key, 'deleted');
  }
  return new Map([...changed].flatMap(([key, change]) => (unit.nodes[key] === undefined ? [] : [[unit.nodes[key], { node: key, change }] as const])));
}

function parsedFields(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Guardian on each workflow email the script writes: the API's answer on the saved message, the rules on the file's. */
async function emailsImpact(client: ApiClient, unit: WorkflowUnit): Promise<GuardianImpact[]> {
  const records: GuardianImpact[] = [];
  for (const call of unit.calls) {
    if (call.op !== 'updateEmailMessage') continue;
    const file = call.email;
    const lmx = unit.emails[file.replace(/email\.json$/, 'email.lmx')] ?? '';
    const planned = guardianReportOf(lmx, 'workflow', fallbacksOf(parsedFields(unit.emails[file])));
    const nodeId = unit.nodes[call.key];
    if (nodeId === undefined) {
      records.push({ kind: 'guardian', record: unit.record, email: file, planned });
      continue;
    }
    const saved = await asked(async () => {
      const node = await getWorkflowNode(client, unit.id, nodeId);
      const messageId = node.emailMessageId as string;
      return { messageId, report: await guardianReport(client, messageId) };
    });
    records.push(
      'error' in saved
        ? { kind: 'guardian', record: unit.record, email: file, planned, error: saved.error }
        : { kind: 'guardian', record: unit.record, email: file, messageId: saved.answer.messageId, saved: saved.answer.report, planned },
    );
  }
  return records;
}
