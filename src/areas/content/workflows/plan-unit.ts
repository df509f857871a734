/**
 * A workflow's edit script as a plan file holds it: the API's operations in order, the revision the
 * first is guarded by (each later one by the revision the one before returned, as a push sends
 * them), the node ids and names the script refers to, and its emails' files with the content
 * revision each was pulled at: its shape in a plan file, checked when a plan is read (kind.ts).
 */
import { UsageError } from '../../../base/errors.js';
import { z } from '../../../base/shapes.js';
import { WORKFLOW } from '../../../platform/workflows/resource.js';
import type { WorkflowPlan } from './plan.js';
import type { WorkflowSide } from './sides.js';
import { workflowStep } from './steps.js';

const byName = z.record(z.string(), z.string());

/** A workflow's unit, as a plan file holds it. */
export const workflowUnitShape = z.looseObject({
  record: z.string(),
  kind: z.literal(WORKFLOW.noun),
  id: z.string(),
  /** The revision the first step is guarded by; each later one by the revision the one before returned. */
  workflowRevisionId: z.nullable(z.string()),
  /** Whether contacts move through it: its apply needs --live, as its push does. */
  live: z.boolean(),
  /** By key, the id of each node the script refers to. */
  nodes: byName,
  names: z.looseObject({ lists: byName, segments: byName }),
  /** Its emails' files, and the content revision each was pulled at. */
  emails: byName,
  emailRevisions: z.record(z.string(), z.nullable(z.string())),
  calls: z.array(workflowStep).check(z.minLength(1)),
});
export type WorkflowUnit = z.infer<typeof workflowUnitShape>;

export function workflowUnit(
  side: WorkflowSide,
  action: 'update' | 'create' | 'recreate' | 'skip',
  plan: WorkflowPlan | undefined,
  names: { lists: Map<string, string>; segments: Map<string, string> },
): WorkflowUnit | undefined {
  if (action === 'skip' || plan === undefined || plan.steps.length === 0) return undefined;
  if (action !== 'update') {
    throw new UsageError(`${side.path}: a new workflow draft is not written into a plan file`, {
      hint: 'push new workflows without --out (they are made as drafts), then plan the edits of the others',
    });
  }
  const emails = Object.fromEntries([...side.local!.files].filter(([name]) => name.startsWith('emails/')));
  return {
    record: side.path,
    kind: WORKFLOW.noun,
    id: side.remote!.id,
    workflowRevisionId: side.remote!.revision,
    // A workflow contacts move through: its apply needs --live, as its push does.
    live: (side.remote!.graph.status ?? 'Draft') !== 'Draft',
    nodes: Object.fromEntries([...side.account!.keys].map(([id, key]) => [key, id])),
    names: { lists: Object.fromEntries(names.lists), segments: Object.fromEntries(names.segments) },
    emails,
    emailRevisions: side.synced?.emails ?? {},
    calls: plan.steps,
  };
}
