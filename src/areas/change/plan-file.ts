/**
 * A change as a file (`content push --plan --out change.json`): the account it is for, the API's
 * calls in order, grouped by the record they change, each with the revision it was planned
 * against, an expiry, and a digest of the rest. `loopsctl apply` plays exactly those calls.
 *
 * The digest tells a file edited by hand (or cut short) from the one written; it is not a
 * signature: whoever may write the file may write a new digest, so a plan to apply is one
 * reviewed, as code is (docs/changes.md).
 */
import { createHash } from 'node:crypto';
import { basename, dirname, resolve } from 'node:path';
import { canonicalJson } from '../../base/canonical-json.js';
import { LocalFileError, LoopsctlError } from '../../base/errors.js';
import { z } from '../../base/shapes.js';
import { readTreeFile } from '../../base/tree-files.js';
import { writeTreeFile } from '../../base/tree-writes.js';
import type { Uses } from '../../core/capabilities.js';
import { idsAt } from '../../platform/operation-row.js';
import { NOUNS } from '../../platform/operations.js';
import { THEME } from '../../platform/themes/resource.js';
import type { AccountWhere } from './account.js';

export { canonicalJson };

/**
 * The layout of the plan file this loopsctl writes and reads. 2: a unit's `kind` is its record's
 * noun (`transactional email`, `workflow`: the rows of src/platform/operations.ts) and each call names
 * the API's operationId; 1 named a tree directory or a kind of write there, and is read no more.
 */
export const PLAN_FORMAT = 2;
/** How long a plan may wait for its apply unless --expires says otherwise. */
export const DEFAULT_EXPIRY_MS = 60 * 60 * 1000;
/** A plan holds the LMX it sends: far more than any change of a content tree, far less than memory. */
const MAX_PLAN_BYTES = 64 * 1024 * 1024;

/** A plan's deepest value (a node's payload, an answer in its impact) is a few levels down; one far deeper is none loopsctl wrote. */
const MAX_PLAN_DEPTH = 64;

/** Whether a JSON value nests deeper than `max`: walked without recursion, so that no depth ends the run. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** What a plan's witness may be: a theme, by its path, of an id of letters, digits, `_` and `-`. */
const witness = (path: string) => idsAt(THEME.operations.getTheme, path) !== undefined && /^[\w/-]+$/.test(path);

/** One call of the API, by its operation's name; the fields are its arguments as the apply sends them. */
const call = z.looseObject({ op: z.string() });
export type PlannedCall = z.infer<typeof call> & Record<string, unknown>;

/**
 * The calls that change one record (a workflow's edit script, an email's message and its name), in
 * order: what every unit holds. Each kind of unit (kinds.ts) has a shape of its own beside, which
 * a unit is checked against on read.
 */
const unit = z.looseObject({
  /** The record's path in the tree: what a report names. */
  record: z.string(),
  /** The noun of the record's kind (platform/operations.ts). */
  kind: z.enum(NOUNS),
  /** The record's id in the account; none for one the plan creates. */
  id: z.optional(z.string()),
  calls: z.array(call).check(z.minLength(1)),
});
export type PlannedUnit = z.infer<typeof unit> & { calls: PlannedCall[] };

const planSchema = z.looseObject({
  format: z.literal(PLAN_FORMAT),
  command: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** `witness`: a record of the account (src/areas/change/account.ts, witnessOf), for a plan that names none. */
  account: z.looseObject({ team: z.string(), baseUrl: z.string(), profile: z.string(), witness: z.optional(z.string().check(z.refine(witness))) }),
  /** Whether Guardian checks each campaign's email written, the apply putting back one it finds errors in (a transactional draft is checked at its publish). */
  check: z.boolean(),
  units: z.array(unit),
  /** What the calls do to people and to the app, as the API answered before the plan was written (impact/). */
  impact: z.optional(z.array(z.looseObject({ kind: z.string(), record: z.string() }))),
  digest: z.string(),
});
export type PlanFile = z.infer<typeof planSchema> & { units: PlannedUnit[] };

/** What tells each unit's kind and checks the unit against its shape (kinds.ts, PlanKinds): why not, or undefined when it is of its kind's shape. */
export interface UnitShapes {
  misshapen(unit: PlannedUnit): { path: readonly PropertyKey[]; message: string } | undefined;
}

export function planDigest(plan: Omit<PlanFile, 'digest'> | PlanFile): string {
  const { digest: _digest, ...rest } = plan as PlanFile;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** A plan ready to write: stamped with its times and digest. */
export function makePlan(
  command: string,
  account: AccountWhere & { witness?: string },
  check: boolean,
  units: PlannedUnit[],
  now: Date,
  expiresInMs = DEFAULT_EXPIRY_MS,
  impact?: readonly object[],
  review?: object,
): PlanFile {
  const body = {
    format: PLAN_FORMAT as typeof PLAN_FORMAT,
    command,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + expiresInMs).toISOString(),
    account: { team: account.team, baseUrl: account.baseUrl, profile: account.profile, ...(account.witness === undefined ? {} : { witness: account.witness }) },
    check,
    units,
    ...(impact === undefined ? {} : { impact: impact as PlanFile['impact'] }),
    // The review of its emails (src/areas/content/review/plan-review.ts): under the digest, as the calls are.
    ...(review === undefined ? {} : { review }),
  };
  return { ...body, digest: planDigest(body) };
}

/** Where a plan file (or a file beside it) is: under `loopsctl mcp --root`, only there; never through a link. */
export async function placeOfPlan(context: Uses<'files'>, file: string): Promise<{ root: string; path: string }> {
  return placeUnderRoot(context.runtime.files?.root, file);
}

async function placeUnderRoot(root: string | undefined, file: string): Promise<{ root: string; path: string }> {
  if (root !== undefined) return (await import('../../core/root.js')).placeUnder(root, file, `"${file}"`);
  const full = resolve(file);
  return { root: dirname(full), path: basename(full) };
}

export async function writePlan(context: Uses<'files'>, file: string, plan: PlanFile): Promise<void> {
  const { root, path } = await placeOfPlan(context, file);
  writeTreeFile(root, path, `${JSON.stringify(plan, null, 2)}\n`);
}

/**
 * A plan file read and checked: its layout, then its digest, then each unit against the shape of
 * its kind. An edited file is refused before anything else is read of it.
 */
export async function readPlan(context: Uses<'files'>, file: string, kinds: UnitShapes): Promise<PlanFile> {
  return readPlanUnder(context.runtime.files?.root, file, kinds);
}

/** The account a plan names; undefined when it cannot be read as a plan, which its apply reports. */
export async function planAccount(context: Uses<'files'>, file: string, kinds: UnitShapes): Promise<string | undefined> {
  try {
    return (await readPlan(context, file, kinds)).account.profile;
  } catch (error) {
    if (error instanceof LoopsctlError) return undefined;
    throw error;
  }
}

/** readPlan, of a file under `root` (`loopsctl mcp --root`), or anywhere when there is none. */
export async function readPlanUnder(under: string | undefined, file: string, kinds: UnitShapes): Promise<PlanFile> {
  const { root, path } = await placeUnderRoot(under, file);
  const bytes = readTreeFile(root, path, MAX_PLAN_BYTES);
  if (bytes === undefined) throw new LocalFileError(`${file}: no such plan file`, { hint: 'write one with `loopsctl content push --plan --out <file>`' });
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new LocalFileError(`${file} is not a plan: not valid JSON`, { hint: 'write the plan again with `loopsctl content push --plan --out <file>`' });
  }
  if (deeperThan(value, MAX_PLAN_DEPTH)) {
    throw new LocalFileError(`${file} is not a plan loopsctl wrote: it is nested deeper than ${MAX_PLAN_DEPTH} levels`, {
      hint: 'write the plan again with `loopsctl content push --plan --out <file>`',
    });
  }
  refuseOtherFormat(file, value);
  const parsed = planSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw notAPlan(file, issue.path, issue.message);
  }
  const plan = parsed.data as PlanFile;
  if (planDigest(plan) !== plan.digest) {
    throw new LocalFileError(`${file} was changed after it was written: its digest does not match what it holds; nothing was sent`, {
      hint: 'a plan is applied as it was reviewed, never edited: make the change in the content tree and write a new plan',
    });
  }
  for (const [index, each] of plan.units.entries()) {
    const wrong = kinds.misshapen(each);
    if (wrong !== undefined) throw notAPlan(file, ['units', index, ...wrong.path], wrong.message);
  }
  return plan;
}

/** A plan of another layout is never read as this one's: its units' kinds and calls mean other things there. */
function refuseOtherFormat(file: string, value: unknown): void {
  const format = value !== null && typeof value === 'object' ? (value as { format?: unknown }).format : undefined;
  if (typeof format !== 'number' || format === PLAN_FORMAT) return;
  const by = format < PLAN_FORMAT ? 'an earlier' : 'a later';
  throw new LocalFileError(`${file} was written by ${by} loopsctl (plan format ${format}; this one reads ${PLAN_FORMAT}); nothing was sent`, {
    hint: 'make the plan again with this loopsctl, by the command that wrote it (`loopsctl content push --plan --out <file>`, or a write command with --plan); a change applied from it is undone by the id `apply` printed (`loopsctl log`)',
  });
}

function notAPlan(file: string, path: readonly PropertyKey[], message: string): LocalFileError {
  return new LocalFileError(`${file} is not a plan loopsctl wrote: ${path.length > 0 ? `${path.map(String).join('.')}: ` : ''}${message}`, {
    hint: 'write the plan again with `loopsctl content push --plan --out <file>`',
  });
}
