/**
 * A workflow's unit of a plan (its edit script: plan-unit.ts writes it), as the change cycle plays
 * it (src/areas/change/kinds.ts): its shape in the plan file, the executor that sends its steps,
 * the write gate's judgement of a workflow that is not a draft, its before-image as a pull writes
 * it (also for a command's edit of one of its nodes), and the edit script that puts it back.
 */
import type { ApiClient } from '../../../api/client.js';
import type { Uses } from '../../../core/capabilities.js';
import { isIssuedId } from '../../../platform/ids.js';
import { RECORD_KINDS } from '../../../platform/record-kinds.js';
import { WORKFLOW_FILE } from '../../../platform/workflows/file.js';
import { parseWorkflowFile } from '../../../platform/workflows/file-text.js';
import { WORKFLOW } from '../../../platform/workflows/resource.js';
import { type Header, type KeptImages, keepImages } from '../../change/before-images.js';
import { type After, type Image, type ImagedRecord, imageKind, PlanKinds, type Undone, unitKind } from '../../change/kinds.js';
import { getWorkflow } from '../../workflows/client.js';
import { recordExists } from '../shared/account.js';
import { Executor } from './executor.js';
import { workflowImpact } from './impact.js';
import { planWorkflow } from './plan.js';
import { type WorkflowUnit, workflowUnitShape } from './plan-unit.js';
import { type AccountNames, assignKeys, fetchNames, fetchWorkflow, workflowFileOf, workflowFilesOf } from './remote.js';
import type { WorkflowSide } from './sides.js';

/** A workflow as a pull writes it, with the id of each node by its key. */
interface WorkflowImage extends Image {
  type: 'workflow';
  workflowId: string;
  name: string;
  revision: string | null;
  files: Record<string, string>;
  keys: Record<string, string>;
}

function executorOf(client: ApiClient, unit: WorkflowUnit): Executor {
  const names = unit.names;
  return new Executor(
    client,
    unit.id,
    unit.workflowRevisionId,
    new Map(Object.entries(unit.nodes)),
    { lists: new Map(Object.entries(names.lists)), segments: new Map(Object.entries(names.segments)) },
    new Map(Object.entries(unit.emails)),
    unit.emailRevisions,
    { live: false },
    undefined,
  );
}

/** One run's reader of workflows' images, reading the account's names (lists, segments) once. */
function workflowImager(client: ApiClient): (id: string) => Promise<WorkflowImage> {
  let names: Promise<AccountNames> | undefined;
  return async (id) => {
    const remote = await fetchWorkflow(client, id);
    names ??= fetchNames(client);
    const known = await names;
    const keys = assignKeys(remote, {}, known);
    const files = Object.fromEntries(workflowFilesOf(remote, keys, known));
    return {
      type: 'workflow',
      workflowId: remote.id,
      name: remote.name,
      revision: remote.revision,
      files,
      keys: Object.fromEntries([...keys].map(([nodeId, key]) => [key, nodeId])),
    };
  };
}

/** A content push's unit of a workflow: its edit script. */
export const WORKFLOW_UNITS = unitKind<WorkflowUnit>({
  holds: (unit) => unit.kind === WORKFLOW.noun && unit.calls.every((call) => call.op !== 'request'),
  shape: workflowUnitShape,
  // Its steps are the edits its shape takes, of the workflow it names, by ids the account issued.
  problem: (unit) => {
    const odd = [unit.id, ...Object.values(unit.nodes), ...Object.values(unit.names.lists), ...Object.values(unit.names.segments)].find(
      (id) => !isIssuedId(id),
    );
    return odd === undefined ? undefined : `${JSON.stringify(odd)} is no id the account issues`;
  },
  exists: (client, unit) => recordExists(client, unit.record, unit.id),
  impact: (client, unit) => workflowImpact(client, unit),
  // Each step carries the revision the one before left: the platform refuses one made stale (409).
  stale: () => 'the workflow changed in the account since the plan was made',
  // Any step of a workflow's edit script changes the workflow, or an email its send-email nodes send: live as the workflow is.
  live: (gate, unit) => gate.live({ kind: 'workflow', id: unit.id }),
  needsYes: (gate, unit) => gate.withState({ needs: 'live', target: { kind: 'workflow', id: unit.id }, does: 'edits a workflow' }),
  creates: () => false,
  play: (client, unit) => {
    const executor = executorOf(client, unit);
    return unit.calls.map((step, index) => async () => {
      await executor.apply(step);
      if (index < unit.calls.length - 1) return {};
      // Where the last step left the workflow, by the revision its answer gave: what `undo` compares with.
      const revision = executor.answeredRevision();
      return revision === undefined ? {} : { after: { revision } };
    });
  },
  imager: (client) => {
    const read = workflowImager(client);
    return (unit) => read(unit.id);
  },
});

/** A workflow taken back to its graph before, by the edit script a push of the pulled before-image would send. */
async function workflowInverse(
  client: ApiClient,
  record: ImagedRecord,
  before: WorkflowImage,
  after: After,
  names: AccountNames,
  imageFile: string,
): Promise<Undone> {
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
      notUndone: {
        record: record.record,
        why: `the edit script cannot rebuild it as it was: ${plan.impossible.join('; ')}`,
        hint: `its graph and emails before the change are kept in ${imageFile}: build it again as a new draft (\`loopsctl content push\` of a tree holding them), or in the app`,
      },
    };
  }
  const leftInApp = plan.leftInApp.map((note) => `${before.name}: ${note}`);
  if (plan.steps.length === 0) return { leftInApp };
  const idsByName = (map: Map<string, string>) => Object.fromEntries([...map].flatMap(([id, name]) => [[name, id] as const, [id, id] as const]));
  const unit: WorkflowUnit = {
    record: `${RECORD_KINDS.workflow.directory}/${before.name}`,
    kind: WORKFLOW.noun,
    id: before.workflowId,
    // Where the apply left it: a change made since is refused by the platform (409).
    workflowRevisionId: after.revision ?? null,
    live: (current.graph.status ?? 'Draft') !== 'Draft',
    nodes: Object.fromEntries([...keys].map(([id, key]) => [key, id])),
    names: { lists: idsByName(names.lists), segments: idsByName(names.segments) },
    emails: Object.fromEntries(Object.entries(before.files).filter(([name]) => name.startsWith('emails/'))),
    emailRevisions: Object.fromEntries([...current.messages].map(([nodeId, message]) => [keys.get(nodeId)!, message.contentRevisionId ?? null])),
    calls: plan.steps,
  };
  return { unit, leftInApp };
}

/** The image of a workflow, as a pull writes it: what a content push's edit script, or a command's edit of a node, changed. */
export const WORKFLOW_IMAGES = imageKind<WorkflowImage>({
  is: (image): image is WorkflowImage => image.type === 'workflow',
  record: { kind: WORKFLOW.noun, imager: workflowImager },
  whereNow: async (client, image) => ({ revision: (await getWorkflow(client, image.workflowId)).workflowRevisionId ?? null }),
  undoer: (client, imageFile) => {
    let names: Promise<AccountNames> | undefined;
    return async (record, image, after) => {
      names ??= fetchNames(client);
      return workflowInverse(client, record, image, after, await names, imageFile);
    };
  },
});

/** The workflows a push changes, as it read them just before (a pull's files of each): kept with no read more. */
export function keepWorkflowPushImages(context: Uses<'config' | 'clock'>, client: ApiClient, header: Header, sides: WorkflowSide[]): KeptImages | undefined {
  const records = sides.flatMap((side): ImagedRecord[] => {
    const remote = side.remote;
    if (remote === undefined || side.account === undefined) return [];
    const kind = WORKFLOW.noun;
    const keys = Object.fromEntries([...side.account.keys].map(([id, key]) => [key, id]));
    // As the account holds it, its emails' LMX with its own ids: what an undo puts back.
    const files = Object.fromEntries(side.account.withIds ?? side.account.files);
    const before: WorkflowImage = { type: 'workflow', workflowId: remote.id, name: remote.name, revision: remote.revision, files, keys };
    return [{ record: side.path, kind, id: remote.id, unit: { record: side.path, kind, id: remote.id, calls: [] }, before }];
  });
  return records.length === 0 ? undefined : keepImages(context, client, header, records, new PlanKinds([], [WORKFLOW_IMAGES]));
}
