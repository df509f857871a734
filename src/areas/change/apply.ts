/**
 * `loopsctl apply <plan>`: plays a plan file's calls, exactly, in order, each guarded by the
 * revision the plan was made against, so that a change made in the account since is refused by
 * the platform itself (a 409): reported as a conflict, and nothing after it is sent.
 *
 * Beside the plan, `<plan>.applied` records each record's calls as begun and as done, so that an
 * apply that stopped is resumed from the first record not begun, a record begun and not finished
 * is named rather than sent twice, and a plan applied already sends nothing. `<plan>.lock` keeps
 * two applies of one plan from running at once. A record the plan creates is looked for in the
 * account by name just before its create (namesakes.ts): one there already, from an apply of
 * another copy of the plan or made meanwhile, is a conflict.
 */
import { join } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { LocalFileError, type LoopsctlError, ProtectedError, RejectedError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { LockTimeoutError, takeFileLock } from '../../base/lock.js';
import { ensureDirectory, inKeptDirectory } from '../../base/private-dir.js';
import { z } from '../../base/shapes.js';
import { readTreeFile } from '../../base/tree-files.js';
import { writeTreeFile } from '../../base/tree-writes.js';
import { liveSinceYes } from '../../core/bound-calls.js';
import type { Uses } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { gateJudges, runHasYes, YES_NEEDED } from '../../core/gate.js';
import { countOf } from '../../render/numbers.js';
import { type LineStatus, renderLines } from '../../render/status-lines.js';
import { refuseAnotherAccount } from './account.js';
import { keepBeforeImages } from './before-images.js';
import type { ImpactRecord } from './impact/records.js';
import { impactText } from './impact/render.js';
import { type BoundUnit, conflictBeforeSending, type PlanKinds, type Played, StaleRecord, staleRefusal } from './kinds.js';
import { aboveWriteTier, checkPlanUnits, liveSince, refuseForeignCalls } from './plan-check.js';
import { type PlanFile, placeOfPlan, readPlan } from './plan-file.js';
import { watchWrites } from './watched-writes.js';

/** What became of one unit of the plan, a line of the report (--json: "applied"). */
interface StatusLine {
  status: LineStatus;
  /** The kind its unit names: the noun of its record (src/platform/operations.ts). */
  kind: string;
  path: string;
  name: string;
  id?: string;
  note?: string;
}

/** What an apply uses; `globals` for the run's yes (--live, or a person's approval of the tool call). */
type ApplyContext = Uses<'out' | 'client' | 'key' | 'files' | 'clock' | 'config' | 'globals'>;

/** What `<plan>.applied` holds: the plan's digest, and per record of the plan (by its index), how far an apply got. */
const progressFile = z.looseObject({
  digest: z.string(),
  records: z.record(z.string(), z.looseObject({ state: z.enum(['begun', 'done', 'conflict']), at: z.string() })),
});
type Progress = z.infer<typeof progressFile>['records'];

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The content API's calls, whose refusal for a team without it is explained as such. */
export const CONTENT_API = { contentApi: true } as const;

/** Applies the plan in `file`, its units played through their kinds. */
export async function applyPlan(context: ApplyContext, file: string, kinds: PlanKinds): Promise<number> {
  const plan = await readPlan(context, file, kinds);
  const units = checkPlanUnits(file, plan, kinds);
  const now = context.runtime.now();
  if (now.getTime() > Date.parse(plan.expiresAt)) {
    throw new LocalFileError(`${file} expired at ${plan.expiresAt}; nothing was sent`, {
      hint: 'the account may have moved on since it was planned: plan again (`loopsctl content push --plan --out`), review, and apply the new plan',
    });
  }
  const place = await placeOfPlan(context, file);
  const release = lockPlan(`${place.root}/${place.path}`, `${file} is being applied by another loopsctl run`, file);
  try {
    // Copies of one plan (its digest) applied at once on this machine: one runs, the others are refused, so each record is created once.
    const applying = join(context.configDir, APPLYING_DIR);
    inKeptDirectory(applying, () => ensureDirectory(applying));
    const releaseCopies = lockPlan(join(applying, plan.digest), `a copy of ${file} (the same digest) is being applied by another loopsctl run`, file);
    try {
      return await applyLocked(context, file, plan, units, place, kinds);
    } finally {
      releaseCopies();
    }
  } finally {
    release();
  }
}

/** Where the locks of the plans being applied are kept, by their digest, under the config directory. */
const APPLYING_DIR = 'applying';

function lockPlan(target: string, busy: string, file: string): () => void {
  try {
    return takeFileLock(target, { waitMs: 0, staleMs: 24 * 60 * 60 * 1000 });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    throw new LocalFileError(`${busy}${error.holderPid === undefined ? '' : ` (process ${error.holderPid})`}; nothing was sent`, {
      hint: `wait for it to finish, then run \`loopsctl apply ${file}\` again: it sends only what is left`,
    });
  }
}

async function applyLocked(
  context: ApplyContext,
  file: string,
  plan: PlanFile,
  units: BoundUnit[],
  place: { root: string; path: string },
  kinds: PlanKinds,
): Promise<number> {
  const progressPath = `${place.path}.applied`;
  const progress = readProgress(place.root, progressPath, plan.digest);
  const save = () => writeTreeFile(place.root, progressPath, `${JSON.stringify({ digest: plan.digest, records: progress }, null, 2)}\n`);
  const begun = plan.units.findIndex((_unit, index) => progress[index]?.state === 'begun');
  if (begun >= 0) {
    throw new LocalFileError(
      `${file}: ${plan.units[begun]!.record} was begun by an earlier apply, which stopped before it knew the outcome; nothing was sent`,
      {
        hint: `see what the account holds (\`loopsctl content diff\`), then pull, plan and apply anew; delete ${progressPath} only once the account is known to hold none of it`,
      },
    );
  }
  const left = units.map((unit, index) => ({ unit, index })).filter(({ index }) => progress[index]?.state !== 'done');
  const { out } = context;
  if (left.length === 0) {
    if (out.json) await out.writeJson({ account: plan.account, applied: [], already: true });
    out.note(`${file} was applied already (${progressPath}); nothing was sent.`);
    return ExitCode.ok;
  }
  const client = await context.client();
  const bound = left.map(({ unit }) => unit);
  await explained(
    kinds.readAhead(
      client,
      bound.map((unit) => unit.unit),
    ),
    CONTENT_API,
  );
  await explained(refuseAnotherAccount(context, client, plan.account, bound), CONTENT_API);
  await explained(refuseForeignCalls(client, file, left), CONTENT_API);
  await refuseAboveWriteTier(context, file, left);
  // Held for a person to be asked about: what is live now was found, and nothing is kept or sent.
  if (context.writes.capture === true) return ExitCode.ok;
  // What the reviewed plan said it would do, before any of it is done.
  const impact = impactText(out, (plan.impact ?? []) as unknown as ImpactRecord[]);
  if (!out.json && impact !== '') await out.write(`${impact}\n`);
  const images = await keepBeforeImages(
    context,
    client,
    { command: plan.command, account: plan.account, plan: { file, digest: plan.digest } },
    left.map(({ unit }) => unit.unit),
    kinds,
  );
  const done: { record: string; id?: string }[] = [];
  const lines: StatusLine[] = [];
  let code: number = ExitCode.ok;
  for (const { unit, index } of left) {
    const stamp = () => context.runtime.now().toISOString();
    // Begun from the moment its first write is sent: an apply that stops before then sent nothing of it.
    const writes = watchWrites(client, () => {
      progress[index] = { state: 'begun', at: stamp() };
      save();
    });
    const outcome = await playUnit(writes.client, plan, unit).catch(async (error: unknown) => {
      if (isConflict(error) && (error as { beforeAnyWrite?: boolean }).beforeAnyWrite) return { conflict: (error as LoopsctlError).message };
      if (!writes.mayHaveWritten(error) && progress[index]?.state === 'begun') {
        delete progress[index];
        save();
      }
      // What was done before the failure stays undoable.
      await images.settle(done);
      throw error;
    });
    if ('conflict' in outcome) {
      progress[index] = { state: 'conflict', at: stamp() };
      save();
      lines.push({ status: 'conflict', kind: unit.unit.kind, path: unit.unit.record, name: unit.unit.record, id: unit.unit.id, note: outcome.conflict });
      code = ExitCode.rejected;
      break;
    }
    progress[index] = { state: 'done', at: stamp() };
    save();
    done.push({ record: unit.unit.record, id: outcome.id });
    await images.reached({ record: unit.unit.record, id: outcome.id, after: outcome.after });
    lines.push({
      status: outcome.refused === undefined ? (unit.creates() ? 'created' : 'updated') : 'refused',
      kind: unit.unit.kind,
      path: unit.unit.record,
      name: unit.unit.record,
      id: outcome.id ?? unit.unit.id,
      note: outcome.refused,
    });
    if (outcome.refused !== undefined) code = Math.max(code, ExitCode.mismatch);
  }
  await images.settle(done);
  await report(context, file, plan, lines, left.length);
  if (done.length > 0) context.out.note(`What it changed was kept as it was before: \`loopsctl undo ${images.id}\` puts it back.`);
  return code;
}

/**
 * What the plan does above the write tier, judged from its calls and the account's state now, never
 * from its labels: refused without a yes. The round before the first write, which may take the
 * state from what the run has just read (core/gate.ts, beforeFirstWrite). A run on a person's yes given when fewer of its records
 * were live is refused for those that went live since (exit 5); a capture, for a person to be asked
 * about the plan, finds what is live now and sends nothing.
 */
async function refuseAboveWriteTier(context: Uses<'globals' | 'client'>, file: string, left: { unit: BoundUnit }[]): Promise<void> {
  const { writes } = context;
  if (!gateJudges(writes)) return;
  const gate = await context.writeGate();
  const units = left.map(({ unit }) => unit);
  if (runHasYes(writes) || writes.capture === true) {
    const turned = await explained(
      gate.beforeFirstWrite(() => liveSince(gate, units, writes.liveAtYes ?? [])),
      CONTENT_API,
    );
    if (writes.liveAtYes !== undefined && turned.length > 0) throw liveSinceYes(turned.join('; '));
    return;
  }
  const above = await explained(
    gate.beforeFirstWrite(() => aboveWriteTier(gate, units)),
    CONTENT_API,
  );
  if (above.length > 0) {
    throw new ProtectedError(`${above.join('; ')}: this needs a person's yes; nothing was sent`, {
      code: YES_NEEDED,
      hint: `apply with --live to make it (loopsctl apply ${file} --live)`,
    });
  }
}

function readProgress(root: string, path: string, digest: string): Progress {
  const bytes = readTreeFile(root, path, 16 * 1024 * 1024);
  if (bytes === undefined) return {};
  const parsed = progressFile.safeParse(parseOrUndefined(bytes.toString('utf8')));
  // The record of another plan written to the same path: this plan was never applied.
  if (!parsed.success || parsed.data.digest !== digest) return {};
  return parsed.data.records;
}

function isConflict(error: unknown): boolean {
  return error instanceof RejectedError && error.status === 409;
}

/** Plays a unit's calls through its kind; a conflict at its first call is one before any write of it. */
async function playUnit(client: ApiClient, plan: PlanFile, unit: BoundUnit): Promise<Played> {
  // A record the plan creates, which the account holds already: another copy of the plan was applied, or it was made meanwhile.
  const held = await unit.conflict(client);
  if (held !== undefined) throw conflictBeforeSending(held);
  let played: Played = { id: unit.unit.id };
  for (const [index, call] of unit.play(client, plan).entries()) {
    try {
      played = { ...played, ...(await call()) };
    } catch (error) {
      if (error instanceof StaleRecord) throw staleRefusal(unit);
      // The first call refused by the platform as stale: nothing of the record was written. A refusal of loopsctl's own keeps its words.
      if (index === 0 && isConflict(error)) throw (error as { beforeAnyWrite?: boolean }).beforeAnyWrite ? error : staleRefusal(unit, (error as Error).message);
      throw error;
    }
  }
  return played;
}

async function report(context: Uses<'out'>, file: string, plan: PlanFile, lines: StatusLine[], planned: number): Promise<void> {
  const { out } = context;
  if (out.json) {
    await out.writeJson({ account: plan.account, applied: lines, impact: plan.impact ?? [] });
    return;
  }
  const text = renderLines(out, lines);
  if (text !== '') await out.write(text);
  const done = lines.filter((line) => line.status === 'updated' || line.status === 'created').length;
  const stopped = lines.some((line) => line.status === 'conflict');
  const refused = lines.filter((line) => line.status === 'refused').length;
  out.note(
    `Applied ${countOf(done, 'record')} of ${planned} in ${file} to ${plan.account.team}${refused > 0 ? `; ${refused} refused by Guardian, put back as it was` : ''}${stopped ? `; stopped at a conflict, nothing after it was sent: pull, plan again and review` : ''}.`,
  );
}
