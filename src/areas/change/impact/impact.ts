/**
 * What a plan does to people and to the app, asked of the API before anything is sent: each unit's
 * kind says it of its own calls (a workflow's dry runs and sends, an email message's Guardian
 * findings, a transactional email's data variables, a campaign's audience: records.ts), so every
 * kind of plan has its impact: `content push --plan` and a write command's `--plan` print it and
 * write it into the plan file, `loopsctl apply` shows it before it sends, `undo` before it puts back.
 * And what of it needs --live as the account stands now, judged as the apply's gate judges it, so
 * that a plan says so before its apply is refused.
 */
import type { ApiClient } from '../../../api/client.js';
import { z } from '../../../base/shapes.js';
import type { PlanKinds } from '../kinds.js';
import type { PlannedUnit } from '../plan-file.js';
import type { ImpactRecord } from './records.js';

export interface ImpactOptions {
  /** The app's source directories, scanned for its sends of the transactional emails the plan changes. */
  code?: readonly string[];
}

/** The impact of a plan's units, record by record, in the plan's order, each told by its kind. */
export async function impactOf(client: ApiClient, kinds: PlanKinds, units: readonly PlannedUnit[], options: ImpactOptions = {}): Promise<ImpactRecord[]> {
  const scan = options.code === undefined || options.code.length === 0 ? undefined : (await import('../../../app-code/scan.js')).scanCode(options.code);
  const context = scan === undefined ? {} : { uses: scan.uses };
  const records: ImpactRecord[] = [];
  // A gate of its own, judging by the run's reads (the plan's sides read each record once): the apply's gate reads again.
  const { WriteGate } = await import('../../../core/gate.js');
  const gate = new WriteGate((path) => client.call({ method: 'GET', idempotent: true, path }, z.unknown()));
  for (const unit of units) {
    const bound = kinds.bind(unit);
    if (bound === undefined || 'message' in bound) continue;
    records.push(...(await bound.impact(client, context)));
    const does = await bound.needsYes(gate);
    if (does !== undefined) records.push({ kind: 'needs-live', record: unit.record, does });
  }
  return records;
}
