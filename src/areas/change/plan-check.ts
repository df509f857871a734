/**
 * A plan holds only what it says. Its digest tells an edited file from the one written, but anyone
 * who can write the file can write a new digest: so before anything is sent, each unit of a plan is
 * checked against the rules `--plan` and `content push --plan` wrote it by, from its calls and
 * never from its labels: a call of an operation a plan may hold, sent to a record of the kind the
 * unit names, its id and its name as the call itself gives them. And what a plan does above the
 * write tier (a live workflow, a publish, a schedule, a delete) is judged from the calls and the
 * account's state, by the gate every write passes (src/core/gate.ts).
 */
import type { ApiClient } from '../../api/client.js';
import { LocalFileError } from '../../base/errors.js';
import { WriteGate } from '../../core/gate.js';
import { configurationWrite } from '../../platform/configuration-writes.js';
import { WORKFLOW_EDITS } from '../../platform/write-gate.js';
import type { PlanFile, PlannedUnit } from './plan-file.js';
import { readRecord, recordPathOf, REQUEST_OP, unitLabel, type RequestCall } from './request-calls.js';

/** The operations of a content push's units, by the unit's kind (emails/plan-unit.ts, workflows/plan-unit.ts). */
const CONTENT_OPS: Record<string, ReadonlySet<string>> = {
  transactional: new Set(['createTransactional', 'updateTransactional', 'updateEmailMessage']),
  campaigns: new Set(['updateCampaign', 'updateEmailMessage']),
  components: new Set(['createComponent', 'updateComponent']),
  themes: new Set(['createTheme', 'updateTheme']),
  workflows: new Set([...WORKFLOW_EDITS, 'updateWorkflowProperties', 'updateEmailMessage']),
};

/** The fields a content push's call sends, by its operation: a body with any other is none that loopsctl wrote. */
const FIELDS: Record<string, ReadonlySet<string>> = {
  createTransactional: new Set(['name', 'transactionalGroupId']),
  updateTransactional: new Set(['name', 'transactionalGroupId']),
  updateCampaign: new Set(['name']),
  createComponent: new Set(['name', 'lmx']),
  updateComponent: new Set(['name', 'lmx']),
  createTheme: new Set(['name', 'styles']),
  updateTheme: new Set(['name', 'styles']),
};

/** The operations whose call names the unit's record by `id` (the others name a message, or create). */
const BY_ID = new Set(['updateTransactional', 'updateCampaign', 'updateComponent', 'updateTheme']);

/** Refuses a plan any unit of which holds what its kind does not, or names another record than its calls change. */
export function checkPlanUnits(file: string, plan: PlanFile): void {
  for (const [index, unit] of plan.units.entries()) {
    const wrong = unitProblem(unit);
    if (wrong === undefined) continue;
    throw new LocalFileError(`${file} holds what no plan of loopsctl holds (unit ${index + 1}: ${wrong}); nothing was sent`, {
      hint: 'apply only a plan loopsctl wrote and you reviewed: write it again with `--plan --out`',
    });
  }
}

function unitProblem(unit: PlannedUnit): string | undefined {
  const requests = unit.calls.filter((call) => call.op === REQUEST_OP);
  if (requests.length > 0) return requests.length === unit.calls.length ? requestProblem(unit, requests as RequestCall[]) : 'requests beside other calls';
  const ops = CONTENT_OPS[unit.kind];
  if (ops === undefined) return `no plan holds a unit of the kind "${unit.kind}"`;
  for (const call of unit.calls) {
    if (!ops.has(call.op)) return `a ${unit.kind} unit holds ${call.op}`;
    if (BY_ID.has(call.op) && call.id !== unit.id) return `${call.op} of ${String(call.id)} in the unit of ${String(unit.id)}`;
    if (call.op.startsWith('create') && unit.id !== undefined) return `${call.op} in the unit of an existing record`;
    const fields = FIELDS[call.op];
    const extra = fields === undefined ? undefined : Object.keys((call.body ?? {}) as object).find((field) => !fields.has(field));
    if (extra !== undefined) return `${call.op} sends ${extra}, which a content push never sends`;
  }
  if (unit.kind === 'workflows' && unit.id === undefined) return 'a workflow unit without its workflow';
  if (unit.id === undefined && !unit.calls[0]!.op.startsWith('create')) return 'a unit without a record that creates none';
  return undefined;
}

/** A unit of request calls (`--plan` of a write command): one configuration write, of the unit's kind, record and name. */
function requestProblem(unit: PlannedUnit, calls: RequestCall[]): string | undefined {
  if (calls.length !== 1) return 'more than one request in a unit';
  const call = calls[0]!;
  if (typeof call.method !== 'string' || typeof call.path !== 'string') return 'a request without its method and path';
  const write = configurationWrite(call.method, call.path, call.body);
  if (write === undefined) return `${call.method} ${call.path} is not a configuration write`;
  if (write.operation !== call.operation) return `${call.method} ${call.path} is ${write.operation}, not ${String(call.operation)}`;
  const ids = Object.values(write.ids);
  const label = unitLabel(write, call.body);
  if (unit.kind !== write.kind || unit.id !== ids[0] || unit.record !== label)
    return `${call.method} ${call.path} changes ${label}, and the unit names ${unit.record}`;
  const record = recordPathOf(call.path, write.operation);
  if (unit.recordPath !== undefined && unit.recordPath !== record) return `the unit reads ${String(unit.recordPath)}, not the record its call changes`;
  if (call.read !== undefined && call.read !== record) return `the call is guarded by ${call.read}, not the record it changes`;
  return undefined;
}

/**
 * What the units do that needs a person's yes, a line each (`workflows/welcome: edits a workflow
 * that is Sending…`), judged from their calls and the account's state now; none for a plan of
 * writes alone.
 */
export async function aboveWriteTier(client: ApiClient, units: PlannedUnit[]): Promise<string[]> {
  const gate = new WriteGate((path) => readRecord(client, path));
  const found: string[] = [];
  for (const unit of units) {
    for (const call of unit.calls) {
      const does =
        call.op === REQUEST_OP
          ? await gate.needsYes(call.method as string, call.path as string, call.body)
          : unit.kind === 'workflows'
            ? // Any step of a workflow's edit script changes the workflow: its emails too, which its contacts are sent.
              await gate.withState({ needs: 'draft', workflowId: unit.id!, does: 'edits a workflow' })
            : undefined;
      if (does !== undefined) {
        found.push(`${unit.record}: ${does}`);
        break;
      }
    }
  }
  return found;
}
