/** What `loopsctl undo` does: finds the before-images of a change, makes the inverse plan through the kinds of its records, and writes it or applies it. */
import { join } from 'node:path';
import { LocalFileError, LoopsctlError, RejectedError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { imageIds, imagesDirectory, isImageId, newImageId, readImage } from '../../config/before-images.js';
import type { Uses } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { countOf } from '../../render/numbers.js';
import { refuseUndoInAnotherAccount } from './account.js';
import { applyPlan, CONTENT_API } from './apply.js';
import type { BeforeImages } from './before-images.js';
import { impactOf } from './impact/impact.js';
import { impactText } from './impact/render.js';
import type { PlanKinds } from './kinds.js';
import { makePlan, type PlannedUnit, readPlan, writePlan } from './plan-file.js';
import { type Inverse, inversePlan } from './undo-plan.js';

export interface UndoOptions {
  out?: string;
  expires?: number;
  yes?: boolean;
}

type UndoContext = Uses<'out' | 'client' | 'key' | 'files' | 'clock' | 'config' | 'prompts' | 'globals'>;

/** Takes back `named` (a plan file applied, the id `apply` printed, or the latest change), its records put back through their kinds. */
export async function undoChange(context: UndoContext, named: string | undefined, options: UndoOptions, kinds: PlanKinds): Promise<number> {
  if (options.expires !== undefined && options.out === undefined) throw new LocalFileError('--expires is the expiry of a plan file: give --out <file> with it');
  const images = await imagesOf(context, named, kinds);
  const change = named ?? images.id;
  if (named === undefined) {
    // Its journal lines name the change undone, as those of `undo <id>` do.
    context.running?.files.push(images.id);
    context.out.note(`The latest change: ${images.id}, made by ${madeBy(images)} at ${images.at}.`);
  }
  const imageFile = join(imagesDirectory(context.configDir), `${images.id}.json`);
  const client = await context.client();
  const where = await refuseUndoInAnotherAccount(context, client, change, images.account);
  // What the inverse's reads of the records can share (the emails' list), read at once where it costs fewer requests.
  await explained(
    kinds.readAhead(
      client,
      images.records.map((record) => record.unit),
    ),
    CONTENT_API,
  );
  const inverse = await explained(inversePlan(client, images, imageFile, kinds), CONTENT_API);
  if (inverse.changedSince.length > 0) {
    throw new RejectedError(
      `${change} cannot be undone: ${inverse.changedSince.join(', ')} changed in the account since; nothing was sent, so no record of it was put back`,
      { hint: 'see what changed with `loopsctl content diff`; set it back by hand, or pull, edit and push' },
    );
  }
  const code = noteNotUndone(context, inverse);
  if (inverse.units.length === 0) {
    // Under --json, notes are silent: a script is told what was not undone, and why, in the shape an undo's result takes.
    if (context.out.json) await context.out.writeJson({ account: where, applied: [], notUndone: inverse.notUndone, leftInApp: inverse.leftInApp });
    else
      context.out.note(
        inverse.notUndone.length === 0 ? `Nothing to undo: the account holds what ${change} found.` : `Nothing of ${change} can be undone through the API.`,
      );
    return code;
  }
  // What putting it back does to people, as any plan shows it: the contacts waiting at a node the change added, which the undo deletes.
  const impact = await explained(impactOf(client, kinds, inverse.units), CONTENT_API);
  // Applied at once, the impact is shown before the confirmation, and not again by the apply (--json: under the apply's "impact").
  const plan = makePlan(
    `undo ${change}`,
    where,
    false,
    inverse.units,
    context.runtime.now(),
    options.expires,
    options.out === undefined && !context.out.json ? undefined : impact,
  );
  if (!context.out.json) {
    const text = impactText(context.out, impact);
    await context.out.write(`${describe(inverse.units)}${text === '' ? '' : `${text}\n`}`);
  }
  if (options.out !== undefined) {
    await writePlan(context, options.out, plan);
    if (context.out.json) await context.out.writeJson(plan);
    context.out.note(`Wrote the undo of ${change} to ${options.out}: apply it with \`loopsctl apply ${options.out}\` before ${plan.expiresAt}.`);
    return code;
  }
  await context.confirm(`Undo ${change}: put back ${countOf(inverse.units.length, 'record')} in ${where.team}?`, options.yes);
  // Kept with the before-images, privately: its .applied record says how far the undo got.
  const file = join(imagesDirectory(context.configDir), `undo-${newImageId(context.runtime.now())}.json`);
  await writePlan(context, file, plan);
  // --live raises the run's tier: the yes the apply of a live workflow's undo needs.
  return Math.max(code, await applyPlan(context, file, kinds));
}

/** The account a change was applied to, as its before-images name it; undefined when none are kept, which undoChange reports. */
export async function changeAccount(context: UndoContext, change: string | undefined, kinds: PlanKinds): Promise<string | undefined> {
  try {
    return (await imagesOf(context, change, kinds)).account.profile;
  } catch (error) {
    if (error instanceof LoopsctlError) return undefined;
    throw error;
  }
}

/** The before-images of a change: by the id `apply` printed, by the plan file applied (the newest kept for its digest), or the latest kept. */
async function imagesOf(context: UndoContext, change: string | undefined, kinds: PlanKinds): Promise<BeforeImages> {
  if (change === undefined) {
    const latest = newestChange(context.configDir, () => true);
    if (latest !== undefined) return latest;
    throw new LocalFileError(`no change is kept in ${imagesDirectory(context.configDir)} to undo`, {
      hint: 'what `loopsctl apply` and `content push` change is kept there; see the changes made with `loopsctl log`',
    });
  }
  if (isImageId(change)) {
    const images = readImage(context.configDir, change);
    if (images === undefined) throw new LocalFileError(`no change ${change} is kept here`, { hint: 'see the changes kept with `loopsctl log`' });
    return images as BeforeImages;
  }
  const plan = await readPlan(context, change, kinds);
  const applied = newestChange(context.configDir, (images) => images.plan?.digest === plan.digest);
  if (applied !== undefined) return applied;
  throw new LocalFileError(`${change} was not applied from here: no before-image of it is kept in ${imagesDirectory(context.configDir)}`, {
    hint: 'undo it where it was applied, or pull and plan the change back by hand',
  });
}

/**
 * The newest kept change that `matches`. An image that holds no record, kept by an earlier loopsctl
 * for an apply that changed nothing (a copy of the plan refused at a conflict), is passed over:
 * it would stand for the change before it.
 */
function newestChange(configDir: string, matches: (images: BeforeImages) => boolean): BeforeImages | undefined {
  let newest: BeforeImages | undefined;
  for (const id of imageIds(configDir).reverse()) {
    // Ids sort by the second they were taken, then by chance: within that second, the newest is the one taken last.
    if (newest !== undefined && id.slice(0, SECOND_OF_ID) !== newest.id.slice(0, SECOND_OF_ID)) break;
    const images = readImage(configDir, id) as BeforeImages | undefined;
    if (images === undefined || !Array.isArray(images.records) || images.records.length === 0 || !matches(images)) continue;
    if (newest === undefined || images.at > newest.at) newest = images;
  }
  return newest;
}

/** The length of an image id's time: `20261125T101803Z`. */
const SECOND_OF_ID = 16;

/** What made a change: `campaign-groups update`, applied from change.json; `content push`; `undo <id>`. */
function madeBy(images: BeforeImages): string {
  const applied = images.plan === undefined || images.command.startsWith('undo ') ? '' : `, applied from ${images.plan.file}`;
  return `\`${images.command}\`${applied}`;
}

function noteNotUndone(context: UndoContext, inverse: Inverse): number {
  for (const each of inverse.notUndone) context.out.note(`${each.record}: not undone: ${each.why}; ${each.hint}.`);
  for (const note of inverse.leftInApp) context.out.note(`Set in the app: ${note}.`);
  return inverse.notUndone.length > 0 ? ExitCode.rejected : ExitCode.ok;
}

function describe(units: PlannedUnit[]): string {
  return units
    .map(
      (unit) =>
        `# ${unit.record}: would put back\n${unit.calls.map((call, index) => `  ${index + 1}. ${call.op === 'request' ? `${call.operation as string} ${call.path as string}` : call.op}\n`).join('')}`,
    )
    .join('');
}
