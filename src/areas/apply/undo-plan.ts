/**
 * The inverse of an applied change, from the before-images its apply kept (before-images.ts): for
 * each record, the calls that take it from what it holds now back to what it held before, guarded
 * by where the apply left it (a workflow's or an email's revision, a record's digest), so that an
 * undo after a further change is refused by the same guard as any plan: a conflict, nothing after
 * it sent. What the API cannot take back (a record it cannot delete, a publish, a workflow the
 * edit script cannot rebuild) is named, with the nearest honest step.
 */
import type { ApiClient } from '../../api/client.js';
import { parseWorkflowFile } from '../../platform/workflows/file-text.js';
import { WORKFLOW_FILE } from '../../platform/workflows/file.js';
import type { RecordFiles } from '../content/emails/files.js';
import type { PlannedUnit } from '../change/plan-file.js';
import { recordUnit } from '../content/emails/plan-unit.js';
import type { Step } from '../content/emails/plan.js';
import { fetchRecord } from '../content/emails/remote.js';
import { planWorkflow } from '../content/workflows/plan.js';
import { assignKeys, fetchNames, fetchWorkflow, workflowFileOf, workflowFilesOf, type AccountNames } from '../content/workflows/remote.js';
import type { After, BeforeImages, Image, ImagedRecord } from '../content/before-images.js';
import { REQUEST_OP, type RequestCall } from '../change/request-calls.js';

/** A record of the change the API cannot put back, and what to do instead. */
export interface NotUndone {
  record: string;
  why: string;
  hint: string;
}

export interface Inverse {
  units: PlannedUnit[];
  notUndone: NotUndone[];
  /** What the API cannot set on a workflow, to set in the app. */
  leftInApp: string[];
}

/** The updates whose before-image holds every field they send: their inverse is the same update with the fields as they were. */
const INVERTIBLE = new Set(['updateCampaign', 'updateCampaignGroup', 'updateTransactionalGroup', 'updateTransactionalEmail']);

export async function inversePlan(client: ApiClient, images: BeforeImages, imageFile: string): Promise<Inverse> {
  const inverse: Inverse = { units: [], notUndone: [], leftInApp: [] };
  let names: Promise<AccountNames> | undefined;
  // Later changes first: each is undone on top of what came after it.
  for (const record of [...images.records].reverse()) {
    const before = record.before;
    if (record.after === undefined) continue;
    if (before.type === 'created') inverse.notUndone.push(created(record));
    else if (before.type === 'answer') addUnit(inverse, answerInverse(record, before, record.after, imageFile));
    else if (before.type === 'record') addUnit(inverse, await recordInverse(client, record, before, record.after));
    else {
      names ??= fetchNames(client);
      addUnit(inverse, await workflowInverse(client, record, before, record.after, await names, imageFile, inverse.leftInApp));
    }
  }
  return inverse;
}

function addUnit(inverse: Inverse, unit: PlannedUnit | NotUndone | undefined): void {
  if (unit === undefined) return;
  if ('calls' in unit) inverse.units.push(unit as PlannedUnit);
  else inverse.notUndone.push(unit);
}

function created(record: ImagedRecord): NotUndone {
  return {
    record: record.record,
    why: `the change created it, and the API cannot delete a ${record.kind}`,
    hint: `delete it in the Loops app${record.id === undefined ? '' : ` (its id: ${record.id})`}, or keep it`,
  };
}

/** A group's, a campaign's or a transactional email's fields put back as the API answered them before. */
function answerInverse(record: ImagedRecord, before: Extract<Image, { type: 'answer' }>, after: After, imageFile: string): PlannedUnit | NotUndone {
  const call = record.unit.calls[0] as RequestCall;
  const fields = Object.keys((call.body ?? {}) as Record<string, unknown>).filter((field) => field !== 'expectedRevisionId');
  const was = before.answer as Record<string, unknown>;
  const missing = fields.filter((field) => !Object.hasOwn(was, field));
  if (!INVERTIBLE.has(call.operation) || missing.length > 0) {
    return {
      record: record.record,
      why:
        missing.length > 0 && INVERTIBLE.has(call.operation)
          ? `the API's answer for it does not show ${missing.join(', ')} as they were, so they cannot be sent back`
          : `${call.operation} cannot be taken back through the API`,
      hint: `what it held before is kept in ${imageFile}: set it again in the Loops app`,
    };
  }
  const inverse: RequestCall = {
    op: REQUEST_OP,
    operation: call.operation,
    method: call.method,
    path: call.path,
    body: Object.fromEntries(fields.map((field) => [field, was[field]])),
    read: before.path,
    expectedDigest: after.digest!,
  };
  return { record: record.record, kind: record.kind, id: record.id, recordPath: before.path, calls: [inverse] };
}

/** An email's, a component's or a theme's files put back, as a push of the files a pull wrote before would send them. */
async function recordInverse(
  client: ApiClient,
  record: ImagedRecord,
  before: Extract<Image, { type: 'record' }>,
  after: After,
): Promise<PlannedUnit | undefined> {
  const remote = await fetchRecord(client, before.kind, record.id!);
  if (remote === undefined) return undefined;
  const local: RecordFiles = { kind: before.kind, path: record.record, name: before.name, files: new Map(Object.entries(before.files)) };
  // The revisions the apply left: a change made since is refused by the platform.
  const step = { pair: { local, remote, synced: { revisions: after.messages ?? {} } }, standing: 'local', action: 'update' } as unknown as Step;
  const unit = recordUnit(step, false);
  if (unit === undefined) return undefined;
  for (const call of unit.calls) if (call.expectedDigest !== undefined) call.expectedDigest = after.digest;
  return unit;
}

/** A workflow taken back to its graph before, by the edit script a push of the pulled before-image would send. */
async function workflowInverse(
  client: ApiClient,
  record: ImagedRecord,
  before: Extract<Image, { type: 'workflow' }>,
  after: After,
  names: AccountNames,
  imageFile: string,
  leftInApp: string[],
): Promise<PlannedUnit | NotUndone | undefined> {
  const current = await fetchWorkflow(client, before.workflowId);
  const keys = assignKeys(current, before.keys, names);
  const currentFiles = workflowFilesOf(current, keys, names);
  const wanted = parseWorkflowFile(`${record.record} before the change`, before.files[WORKFLOW_FILE]!);
  const emailsChanged = new Set(
    Object.keys(before.files)
      .filter((name) => name.startsWith('emails/') && currentFiles.get(name) !== before.files[name])
      .map((name) => name.slice(0, name.lastIndexOf('/') + 1)),
  );
  const plan = planWorkflow(workflowFileOf(current, keys, names), wanted, emailsChanged);
  if (plan.impossible.length > 0) {
    return {
      record: record.record,
      why: `the edit script cannot rebuild it as it was: ${plan.impossible.join('; ')}`,
      hint: `its graph and emails before the change are kept in ${imageFile}: build it again as a new draft (\`loopsctl content push\` of a tree holding them), or in the app`,
    };
  }
  leftInApp.push(...plan.leftInApp.map((note) => `${before.name}: ${note}`));
  if (plan.steps.length === 0) return undefined;
  const byName = (map: Map<string, string>) => Object.fromEntries([...map].flatMap(([id, name]) => [[name, id] as const, [id, id] as const]));
  return {
    record: `workflows/${before.name}`,
    kind: 'workflows',
    id: before.workflowId,
    // Where the apply left it: a change made since is refused by the platform (409).
    workflowRevisionId: after.revision ?? null,
    live: (current.graph.status ?? 'Draft') !== 'Draft',
    nodes: Object.fromEntries([...keys].map(([id, key]) => [key, id])),
    names: { lists: byName(names.lists), segments: byName(names.segments) },
    emails: Object.fromEntries(Object.entries(before.files).filter(([name]) => name.startsWith('emails/'))),
    emailRevisions: Object.fromEntries([...current.messages].map(([nodeId, message]) => [keys.get(nodeId)!, message.contentRevisionId ?? null])),
    calls: plan.steps,
  };
}
