/**
 * A plan holds only what it says. Its digest tells an edited file from the one written, but anyone
 * who can write the file can write a new digest: so before anything is sent, each unit of a plan is
 * checked against the rules `--plan` and `content push --plan` wrote it by, from its calls and
 * never from its labels: a call of an operation a plan may hold, sent to a record of the kind the
 * unit names, its id and its name as the call itself gives them (each kind's `problem`, kinds.ts).
 * And what a plan does above the write tier (a live workflow, a publish, a schedule, a delete) is
 * judged from the calls and the account's state now (each kind's `live`), by the gate every write
 * passes (src/core/gate.ts), the run's own, which then judges each write again just before it goes.
 */
import type { ApiClient } from '../../api/client.js';
import { LocalFileError } from '../../base/errors.js';
import { inOneLine } from '../../base/particulars.js';
import type { WriteGate } from '../../core/gate.js';
import type { BoundUnit, PlanKinds } from './kinds.js';
import type { PlanFile } from './plan-file.js';

/** The plan's units bound to their kinds; refused when any holds what its kind does not, or names another record than its calls change. */
export function checkPlanUnits(file: string, plan: PlanFile, kinds: PlanKinds): BoundUnit[] {
  return plan.units.map((unit, index) => {
    const bound = kinds.bind(unit);
    const wrong =
      bound === undefined
        ? `no plan holds a unit of the kind "${unit.kind}"`
        : 'message' in bound
          ? `${bound.path.map(String).join('.')}: ${bound.message}`
          : bound.problem();
    if (wrong === undefined && bound !== undefined && !('message' in bound)) return bound;
    throw notLoopsctls(file, index, wrong!);
  });
}

/** The refusal of a plan one of whose units holds what no plan of loopsctl holds: exit 2, nothing sent. */
function notLoopsctls(file: string, index: number, wrong: string): LocalFileError {
  return new LocalFileError(`${file} holds what no plan of loopsctl holds (unit ${index + 1}: ${wrong}); nothing was sent`, {
    hint: 'apply only a plan loopsctl wrote and you reviewed: write it again with `--plan --out`',
  });
}

/**
 * Refuses the plan when a unit's call names a record other than the unit's own that only the
 * account tells apart (an email message that is not its email's), asked of every unit before
 * anything is sent.
 */
export async function refuseForeignCalls(client: ApiClient, file: string, units: readonly { unit: BoundUnit; index: number }[]): Promise<void> {
  for (const { unit, index } of units) {
    const wrong = await unit.foreign(client);
    if (wrong !== undefined) throw notLoopsctls(file, index, wrong);
  }
}

/**
 * What the units do that needs a person's yes, a line each (`workflows/welcome: edits a workflow
 * that is Sending…`), judged from their calls and the account's state now; none for a plan of
 * writes alone.
 */
export async function aboveWriteTier(gate: WriteGate, units: readonly BoundUnit[]): Promise<string[]> {
  const found: string[] = [];
  for (const unit of units) {
    const does = await unit.needsYes(gate);
    if (does !== undefined) found.push(`${unit.unit.record}: ${inOneLine(does)}`);
  }
  return found;
}

/**
 * The units whose record is live now and was not when a person said yes to the plan (`liveAtYes`:
 * the records the gate found live then, WriteGate.liveKey), a line each, judged from their calls
 * and the account's state now (each kind's `live`). Every unit is judged, so that the gate then
 * holds what is live now: with no `liveAtYes` given, what a yes given now covers.
 */
export async function liveSince(gate: WriteGate, units: readonly BoundUnit[], liveAtYes: readonly string[]): Promise<string[]> {
  const turned: string[] = [];
  for (const unit of units) {
    const seen = new Set(gate.foundLive);
    const why = await unit.live(gate);
    if (why !== undefined && [...gate.foundLive].some((record) => !seen.has(record) && !liveAtYes.includes(record)))
      turned.push(`${unit.unit.record}: ${inOneLine(why)}`);
  }
  return turned;
}
